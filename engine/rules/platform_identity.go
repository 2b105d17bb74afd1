package rules

import (
	"slices"

	inv "github.com/fourd-dev/fourd/engine/inventory"
)

// identityRules are the checks of Cognito, AWS Private CA and IAM Access
// Analyzer.
func identityRules() []Rule {
	return []Rule{
		{ID: "aws-cognito-001", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeCognitoIdentityPool},
			Title:       "Cognito identity pool gives AWS credentials to unauthenticated users",
			Description: "AllowUnauthenticatedIdentities is on: anyone who knows the pool id gets temporary AWS credentials of the pool's unauthenticated role.",
			Remediation: "Turn guest access off (aws cognito-identity update-identity-pool --no-allow-unauthenticated-identities); if guests are intended, keep the unauthenticated role to the minimum actions and resources.",
			Check: func(s *Subject) Result {
				p := get[inv.CognitoIdentityPool](s)
				return failIf(s, p.AllowUnauthenticatedIdentities, func() map[string]any {
					return map[string]any{"identity_pool": p.Name, "allow_unauthenticated_identities": p.AllowUnauthenticatedIdentities}
				})
			}},
		{ID: "aws-cognito-002", Dimension: security, Severity: low, ResourceTypes: []string{inv.TypeCognitoIdentityPool},
			Title:       "Cognito identity pool allows the basic (classic) authentication flow",
			Description: "The basic flow lets clients request credentials for any role the pool's providers allow, instead of the role Cognito selects in the enhanced flow.",
			Remediation: "aws cognito-identity update-identity-pool --identity-pool-id ID --no-allow-classic-flow; Terraform: allow_classic_flow = false.",
			Check: func(s *Subject) Result {
				p := get[inv.CognitoIdentityPool](s)
				return failIf(s, p.AllowClassicFlow, func() map[string]any {
					return map[string]any{"identity_pool": p.Name, "allow_classic_flow": p.AllowClassicFlow}
				})
			}},
		{ID: "aws-cognito-003", Dimension: security, Severity: low, ResourceTypes: []string{inv.TypeCognitoUserPoolClient},
			Title:       "Cognito app client reveals whether a user exists",
			Description: "PreventUserExistenceErrors is LEGACY: sign-in and password-reset errors tell an attacker which user names exist.",
			Remediation: "aws cognito-idp update-user-pool-client … --prevent-user-existence-errors ENABLED; Terraform: prevent_user_existence_errors = \"ENABLED\".",
			Check: func(s *Subject) Result {
				c := get[inv.CognitoUserPoolClient](s)
				if c.PreventUserExistenceErrors == "" {
					return notEvaluated("prevent_user_existence_errors")
				}
				return failIf(s, c.PreventUserExistenceErrors != "ENABLED", func() map[string]any {
					return map[string]any{"client": c.ClientName, "prevent_user_existence_errors": c.PreventUserExistenceErrors}
				})
			}},
		{ID: "aws-cognito-004", Dimension: security, Severity: low, ResourceTypes: []string{inv.TypeCognitoUserPoolClient},
			Title:       "Cognito app client cannot revoke refresh tokens",
			Description: "Token revocation is off: a stolen refresh token keeps minting tokens until it expires, even after sign-out.",
			Remediation: "aws cognito-idp update-user-pool-client … --enable-token-revocation; Terraform: enable_token_revocation = true.",
			Check: func(s *Subject) Result {
				c := get[inv.CognitoUserPoolClient](s)
				return failUnless(s, c.EnableTokenRevocation, "enable_token_revocation", func() map[string]any { return map[string]any{"client": c.ClientName} })
			}},
		{ID: "aws-cognito-005", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeCognitoUserPoolClient},
			Title:       "Cognito app client allows the OAuth implicit grant",
			Description: "The implicit flow returns tokens in the redirect URL, where browser history, logs and referrers leak them; the OAuth 2.0 Security Best Current Practice (RFC 9700) says not to use it.",
			Remediation: "Remove implicit from AllowedOAuthFlows and use the authorization code grant with PKCE (Terraform: allowed_oauth_flows = [\"code\"]).",
			Check: func(s *Subject) Result {
				c := get[inv.CognitoUserPoolClient](s)
				return failIf(s, slices.Contains(c.AllowedOAuthFlows, "implicit"), func() map[string]any {
					return map[string]any{"client": c.ClientName, "allowed_oauth_flows": c.AllowedOAuthFlows}
				})
			}},
		{ID: "aws-cognito-006", Dimension: security, Severity: low, ResourceTypes: []string{inv.TypeCognitoUserPoolClient},
			Title:       "Cognito app client accepts plaintext password sign-in",
			Description: "The client allows USER_PASSWORD_AUTH (or the legacy ADMIN_NO_SRP_AUTH): the password itself is sent to Cognito instead of the SRP proof, so it passes through, and can be logged by, every layer of the client's own stack.",
			Remediation: "Remove ALLOW_USER_PASSWORD_AUTH / ADMIN_NO_SRP_AUTH from ExplicitAuthFlows and sign in with ALLOW_USER_SRP_AUTH (Terraform: explicit_auth_flows = [\"ALLOW_USER_SRP_AUTH\", \"ALLOW_REFRESH_TOKEN_AUTH\"]).",
			Check: func(s *Subject) Result {
				c := get[inv.CognitoUserPoolClient](s)
				var found []string
				for _, f := range c.ExplicitAuthFlows {
					switch f {
					case "ALLOW_USER_PASSWORD_AUTH", "USER_PASSWORD_AUTH", "ADMIN_NO_SRP_AUTH":
						found = append(found, f)
					}
				}
				return failIf(s, len(found) > 0, func() map[string]any { return map[string]any{"client": c.ClientName, "explicit_auth_flows": found} })
			}},
		{ID: "aws-acmpca-001", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeACMPCACertAuthority},
			Title:       "Private CA publishes no revocation information",
			Description: "Neither a CRL nor OCSP is enabled: a certificate the CA issued cannot be revoked in a way clients can check, so a leaked key stays trusted until the certificate expires.",
			Remediation: "aws acm-pca update-certificate-authority --certificate-authority-arn ARN --revocation-configuration OcspConfiguration={Enabled=true} (or a CrlConfiguration with an S3 bucket).",
			Check: func(s *Subject) Result {
				ca := get[inv.ACMPCACertificateAuthority](s)
				if ca.CRLEnabled == nil || ca.OCSPEnabled == nil {
					return notEvaluated("crl_enabled", "ocsp_enabled")
				}
				return failIf(s, !*ca.CRLEnabled && !*ca.OCSPEnabled, func() map[string]any { return map[string]any{"common_name": ca.CommonName, "type": ca.Type} })
			}},
	}
}
