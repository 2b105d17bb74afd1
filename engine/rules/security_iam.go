package rules

import (
	"strings"

	inv "github.com/fourd-dev/fourd/engine/inventory"
)

// deprecatedRuntimes are Lambda runtimes past AWS's deprecation date.
var deprecatedRuntimes = map[string]bool{
	"python2.7": true, "python3.6": true, "python3.7": true, "python3.8": true,
	"nodejs": true, "nodejs4.3": true, "nodejs6.10": true, "nodejs8.10": true, "nodejs10.x": true,
	"nodejs12.x": true, "nodejs14.x": true, "nodejs16.x": true,
	"dotnetcore1.0": true, "dotnetcore2.0": true, "dotnetcore2.1": true, "dotnetcore3.1": true, "dotnet5.0": true, "dotnet6": true,
	"ruby2.5": true, "ruby2.7": true, "go1.x": true, "java8": true,
}

func securityIAMRules() []Rule {
	return []Rule{
		{ID: "aws-iam-001", Dimension: security, Severity: high, ResourceTypes: []string{inv.TypeIAMUser},
			Compliance:  []string{"CIS-AWS-3.0.0:1.10", "CIS-AWS-4.0.1:1.10"},
			Title:       "IAM user with console access has no MFA",
			Description: "The user can sign in to the console with a password alone.",
			Remediation: "Enable a virtual or hardware MFA device for the user, and enforce MFA with an IAM policy condition (aws:MultiFactorAuthPresent).",
			Check: func(s *Subject) Result {
				u := get[inv.IAMUser](s)
				switch {
				case u.PasswordEnabled == nil:
					return notEvaluated("password_enabled")
				case !*u.PasswordEnabled:
					return passed(s, func() map[string]any { return map[string]any{"user_name": u.UserName, "password_enabled": false} })
				}
				return failUnless(s, u.MFAActive, "mfa_active", func() map[string]any { return map[string]any{"user_name": u.UserName} })
			}},
		{ID: "aws-iam-002", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeIAMAccessKey},
			Compliance:  []string{"CIS-AWS-3.0.0:1.14", "CIS-AWS-4.0.1:1.14"},
			Title:       "Access key not rotated in 90 days",
			Description: "An active access key is more than 90 days old; long-lived keys are the usual way leaked credentials keep working.",
			Remediation: "Create a new key, move the workload to it, deactivate and then delete the old one; prefer IAM roles over access keys.",
			Check: func(s *Subject) Result {
				k := get[inv.IAMAccessKey](s)
				age := days(k.CreateDate, s.Now)
				return escalateIfAge(failIf(s, k.Status == "Active" && age > 90, func() map[string]any {
					return map[string]any{"access_key_id": k.AccessKeyID, "user_name": k.UserName, "age_days": age}
				}), age)
			}},
		{ID: "aws-iam-003", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeIAMAccessKey},
			Compliance:  []string{"CIS-AWS-3.0.0:1.12", "CIS-AWS-4.0.1:1.12"},
			Title:       "Active access key unused for 45 days",
			Description: "An active access key has not been used for 45 days or more (or never, 45 days after creation).",
			Remediation: "Deactivate the key; delete it once nothing breaks.",
			Check: func(s *Subject) Result {
				k := get[inv.IAMAccessKey](s)
				if k.Status != "Active" {
					return passed(s, func() map[string]any { return map[string]any{"access_key_id": k.AccessKeyID, "status": k.Status} })
				}
				idle := days(k.LastUsedDate.At, s.Now)
				if k.LastUsedDate.At.IsZero() {
					// Never used is written "last_used_date": null (the
					// credential report's N/A); a source that does not
					// know the key's use (a Terraform state) omits it.
					idle = days(k.CreateDate, s.Now)
					if idle >= 45 && !k.LastUsedDate.Known {
						return notEvaluated("last_used_date")
					}
				}
				return failIf(s, idle >= 45, func() map[string]any {
					return map[string]any{"access_key_id": k.AccessKeyID, "user_name": k.UserName,
						"days_unused": idle, "ever_used": !k.LastUsedDate.At.IsZero()}
				})
			}},
		{ID: "aws-iam-004", Dimension: security, Severity: critical, ResourceTypes: []string{inv.TypeIAMAccount},
			Compliance:  []string{"CIS-AWS-3.0.0:1.4", "CIS-AWS-4.0.1:1.4"},
			Title:       "Root user has access keys",
			Description: "The account's root user has access keys, which carry unrestricted power over the account and cannot be limited by policies.",
			Remediation: "Delete the root user's access keys (Security credentials page of the root user) and use IAM roles instead.",
			Check: func(s *Subject) Result {
				a := get[inv.IAMAccount](s)
				if !a.RootAccessKeysPresent && !s.recorded("root_access_keys_present") {
					return notEvaluated("root_access_keys_present") // no credential report: unknown, not "none"
				}
				return failIf(s, a.RootAccessKeysPresent, func() map[string]any {
					return map[string]any{"account_id": s.Resource.Account, "root_access_keys_present": a.RootAccessKeysPresent}
				})
			}},
		{ID: "aws-iam-005", Dimension: security, Severity: critical, ResourceTypes: []string{inv.TypeIAMAccount},
			Compliance:  []string{"CIS-AWS-3.0.0:1.5", "CIS-AWS-4.0.1:1.5"},
			Title:       "Root user has no MFA",
			Description: "The account's root user can sign in with a password alone.",
			Remediation: "Enable MFA (preferably hardware) on the root user.",
			Check: func(s *Subject) Result {
				a := get[inv.IAMAccount](s)
				return failIfRecorded(s, !a.RootMFAEnabled, "root_mfa_enabled", func() map[string]any {
					return map[string]any{"account_id": s.Resource.Account, "root_mfa_enabled": a.RootMFAEnabled}
				})
			}},
		{ID: "aws-iam-006", Dimension: security, Severity: high, ResourceTypes: []string{inv.TypeIAMUser},
			Compliance:  []string{"CIS-AWS-3.0.0:1.16", "CIS-AWS-4.0.1:1.16"},
			Title:       "IAM user has full administrator privileges attached",
			Description: "The AdministratorAccess policy (\"*\" on \"*\") is attached directly to the user, or one of the user's inline policies allows \"*\" on \"*\".",
			Remediation: "Detach AdministratorAccess and remove the inline grant; give least-privilege permissions through groups or roles assumed with MFA.",
			Check: func(s *Subject) Result {
				u := get[inv.IAMUser](s)
				r := fullAdminResult(s, "user_name", u.UserName, u.AttachedPolicyARNs, u.InlinePolicies)
				if !r.Failed && len(u.InlinePolicyNames) > len(u.InlinePolicies) {
					return notEvaluated("inline_policies") // named inline policies whose documents the source omits
				}
				return r
			}},
		{ID: "aws-iam-007", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeIAMAccount},
			Compliance:  []string{"CIS-AWS-3.0.0:1.7", "CIS-AWS-4.0.1:1.7"},
			Title:       "Root user used in the last 90 days",
			Description: "The root user signed in or used keys recently; daily work should never need it.",
			Remediation: "Find out why the root user was used (CloudTrail), give that task to an IAM role, and lock the root credentials away.",
			Check: func(s *Subject) Result {
				a := get[inv.IAMAccount](s)
				d := days(a.RootLastUsed, s.Now)
				return failIf(s, d >= 0 && d < 90, func() map[string]any { return map[string]any{"account_id": s.Resource.Account, "days_since_use": d} })
			}},
		{ID: "aws-lambda-001", Dimension: security, Severity: high, ResourceTypes: []string{inv.TypeLambdaFunction},
			Title:       "Lambda function URL allows unauthenticated calls",
			Description: "The function has a URL with auth type NONE: anyone on the internet can invoke it.",
			Remediation: "Set the function URL's auth type to AWS_IAM, or put the function behind API Gateway with an authorizer.",
			Check: func(s *Subject) Result {
				f := get[inv.LambdaFunction](s)
				return escalateIfSensitive(failIf(s, f.FunctionURLAuthType == "NONE", func() map[string]any {
					return map[string]any{"function_name": f.FunctionName, "function_url_auth_type": f.FunctionURLAuthType}
				}), s, critical)
			}},
		{ID: "aws-lambda-002", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeLambdaFunction},
			Title:       "Lambda function uses a deprecated runtime",
			Description: "The runtime no longer receives security patches from AWS.",
			Remediation: "Upgrade the function to a supported runtime version and redeploy.",
			Check: func(s *Subject) Result {
				f := get[inv.LambdaFunction](s)
				return failIf(s, deprecatedRuntimes[f.Runtime], func() map[string]any { return map[string]any{"function_name": f.FunctionName, "runtime": f.Runtime} })
			}},
		{ID: "aws-cloudtrail-001", Dimension: security, Severity: high, ResourceTypes: []string{inv.TypeCloudTrail},
			Title:       "CloudTrail trail is not logging",
			Description: "The trail exists but logging is stopped, so API activity goes unrecorded.",
			Remediation: "Start logging: aws cloudtrail start-logging --name TRAIL.",
			Check: func(s *Subject) Result {
				t := get[inv.CloudTrail](s)
				return failUnless(s, t.IsLogging, "is_logging", func() map[string]any { return map[string]any{"trail": t.Name} })
			}},
		{ID: "aws-cloudfront-001", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeCloudFrontDistribution},
			Title:       "CloudFront distribution allows unencrypted HTTP",
			Description: "The default cache behavior's viewer protocol policy is allow-all.",
			Remediation: "Set the viewer protocol policy to redirect-to-https or https-only.",
			Check: func(s *Subject) Result {
				d := get[inv.CloudFrontDistribution](s)
				return failIf(s, d.ViewerProtocolPolicy == "allow-all", func() map[string]any {
					return map[string]any{"distribution_id": d.DistributionID, "viewer_protocol_policy": d.ViewerProtocolPolicy}
				})
			}},
		{ID: "aws-cloudfront-002", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeCloudFrontDistribution},
			Title:       "CloudFront distribution allows TLS older than 1.2",
			Description: "The viewer certificate's minimum protocol version accepts SSLv3, TLS 1.0 or TLS 1.1.",
			Remediation: "Use a custom certificate with minimum protocol version TLSv1.2_2021.",
			Check: func(s *Subject) Result {
				d := get[inv.CloudFrontDistribution](s)
				v := d.MinimumProtocolVersion
				old := v == "SSLv3" || v == "TLSv1" || strings.HasPrefix(v, "TLSv1_") || strings.HasPrefix(v, "TLSv1.1")
				return failIf(s, old, func() map[string]any {
					return map[string]any{"distribution_id": d.DistributionID, "minimum_protocol_version": v}
				})
			}},
		{ID: "aws-elasticache-001", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeElastiCacheCluster},
			Title:       "ElastiCache cluster does not encrypt data in transit",
			Description: "Clients talk to the cache in clear text.",
			Remediation: "Enable in-transit encryption (Redis/Valkey 7+ can switch a running cluster through 'preferred' mode).",
			Check: func(s *Subject) Result {
				c := get[inv.ElastiCacheCluster](s)
				if c.Engine == "memcached" {
					return passed(s, func() map[string]any { return map[string]any{"cluster_id": c.ClusterID, "engine": c.Engine} })
				}
				return failUnless(s, c.TransitEncryptionEnabled, "transit_encryption_enabled", func() map[string]any {
					return map[string]any{"cluster_id": c.ClusterID, "engine": c.Engine, "transit_encryption_enabled": c.TransitEncryptionEnabled}
				})
			}},
	}
}

// escalateIfAge raises a stale-key finding to high past a year.
func escalateIfAge(r Result, age int) Result {
	if r.Failed && age > 365 {
		r.Severity, r.Reason = high, "the key is more than a year old"
	}
	return r
}
