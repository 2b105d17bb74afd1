package identity

import (
	"context"
	"slices"
	"strings"

	"github.com/fourd-dev/fourd/engine"
)

// AuthorizeRequest is the query of GET /oauth/authorize (RFC 6749 §4.1.1
// with PKCE, RFC 7636 §4.3).
type AuthorizeRequest struct {
	ClientID            string
	RedirectURI         string
	ResponseType        string
	Scope               string // space-separated scope names
	State               string
	CodeChallenge       string
	CodeChallengeMethod string
}

// AuthorizeGrant is a validated authorization request: what the consent
// page shows and where the answer goes.
type AuthorizeGrant struct {
	Client      OAuthClient
	RedirectURI string
	// Scopes are the requested scopes; empty asks for the default (the
	// read scopes of the user's role).
	Scopes []engine.Scope
}

// CheckAuthorizeRequest validates an authorization request. When the
// client or the redirect URI is wrong, the error comes with a zero
// RedirectURI: the caller must show it and never redirect (RFC 6749
// §4.1.2.1). Any later error comes with the grant's RedirectURI set, and is
// to be sent there: unsupported_response_type, invalid_scope,
// invalid_request.
func (s *Service) CheckAuthorizeRequest(ctx context.Context, req AuthorizeRequest) (AuthorizeGrant, error) {
	ids, err := s.identity()
	if err != nil {
		return AuthorizeGrant{}, err
	}
	if !engine.ValidID(engine.PrefixOAuthClient, req.ClientID) {
		return AuthorizeGrant{}, engine.Errorf(engine.CodeInvalidRequest, "client_id is missing or not a registered client")
	}
	c, err := ids.GetOAuthClient(ctx, req.ClientID)
	if err != nil || c.RevokedAt != nil {
		if err == nil || engine.IsNotFound(err) {
			return AuthorizeGrant{}, engine.Errorf(engine.CodeInvalidRequest, "client_id is missing or not a registered client")
		}
		return AuthorizeGrant{}, err
	}
	// Exact string match (the Security BCP): no prefix or pattern matching.
	if req.RedirectURI == "" || !slices.Contains(c.RedirectURIs, req.RedirectURI) {
		return AuthorizeGrant{}, engine.Errorf(engine.CodeInvalidRequest, "redirect_uri is missing or not registered for this client")
	}
	g := AuthorizeGrant{Client: c, RedirectURI: req.RedirectURI}
	if req.ResponseType != "code" {
		return g, engine.Errorf(engine.CodeUnsupportedResponseType, "response_type must be code")
	}
	g.Scopes, err = parseScopeParam(req.Scope)
	if err != nil {
		return g, err
	}
	switch {
	case req.CodeChallenge == "" && req.CodeChallengeMethod != "":
		return g, engine.Errorf(engine.CodeInvalidRequest, "code_challenge_method without code_challenge")
	case req.CodeChallenge != "" && req.CodeChallengeMethod != "S256":
		return g, engine.Errorf(engine.CodeInvalidRequest, "code_challenge_method must be S256")
	case req.CodeChallenge != "" && (len(req.CodeChallenge) != 43 || !pkceChars(req.CodeChallenge)):
		return g, engine.Errorf(engine.CodeInvalidRequest, "code_challenge must be the base64url SHA-256 of the verifier (43 characters)")
	case len(req.State) > 500:
		return g, engine.Errorf(engine.CodeInvalidRequest, "state is longer than 500 characters")
	}
	return g, nil
}

// parseScopeParam parses an OAuth scope parameter (space-separated,
// RFC 6749 §3.3); invalid_scope for an unknown name.
func parseScopeParam(s string) ([]engine.Scope, error) {
	var out []engine.Scope
	for _, f := range strings.Fields(s) {
		sc := engine.Scope(f)
		if !slices.Contains(engine.AllScopes, sc) {
			return nil, engine.Errorf(engine.CodeInvalidScope, "unknown scope %s", quote(f))
		}
		if !slices.Contains(out, sc) {
			out = append(out, sc)
		}
	}
	return out, nil
}

// ScopeString joins scopes as an OAuth scope parameter.
func ScopeString(scopes []engine.Scope) string {
	return strings.Join(toStringSlice(scopes), " ")
}

func toStringSlice(scopes []engine.Scope) []string {
	out := make([]string, len(scopes))
	for i, s := range scopes {
		out[i] = string(s)
	}
	return out
}

// pkceChars reports whether s uses only the unreserved characters of
// RFC 7636 (A-Z a-z 0-9 - . _ ~).
func pkceChars(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~') {
			return false
		}
	}
	return true
}

// Authorization is an approved request: the code to send to the redirect
// URI, and what it grants.
type Authorization struct {
	Code        string
	RedirectURI string
	Scopes      []engine.Scope
	User        engine.User
}

// ApproveAuthorization signs a user of the client's tenant in with email
// and password and, for a valid request, issues a single-use authorization
// code (valid OAuthCodeTTL) for the requested scopes that the user's role
// allows. unauthorized for a wrong email or password (the same for both);
// the errors of CheckAuthorizeRequest; access_denied when none of the
// requested scopes is allowed to the user.
func (s *Service) ApproveAuthorization(ctx context.Context, req AuthorizeRequest, email, password string) (Authorization, error) {
	g, err := s.CheckAuthorizeRequest(ctx, req)
	if err != nil {
		return Authorization{RedirectURI: g.RedirectURI}, err
	}
	u, err := s.SignIn(ctx, g.Client.TenantID, email, password)
	if err != nil {
		return Authorization{}, err
	}
	return s.approve(ctx, req, g, u)
}

// approve issues the code of a checked request for a signed-in user.
func (s *Service) approve(ctx context.Context, req AuthorizeRequest, g AuthorizeGrant, u engine.User) (Authorization, error) {
	role := u.Role.Scopes()
	var scopes []engine.Scope
	if len(g.Scopes) == 0 {
		for _, sc := range role {
			if strings.HasSuffix(string(sc), ":read") {
				scopes = append(scopes, sc)
			}
		}
	}
	for _, sc := range g.Scopes {
		if slices.Contains(role, sc) {
			scopes = append(scopes, sc)
		}
	}
	if len(scopes) == 0 {
		return Authorization{RedirectURI: g.RedirectURI}, engine.Errorf(engine.CodeAccessDenied, "the user's role allows none of the requested scopes")
	}
	now := s.now()
	secret := OAuthCodePrefix + engine.RandomToken(30)
	code := OAuthCode{Hash: HashToken(secret), GrantID: engine.NewID(engine.PrefixOAuthGrant, now), TenantID: g.Client.TenantID,
		ClientID: g.Client.ID, UserID: u.ID, RedirectURI: g.RedirectURI, Scopes: scopes,
		CodeChallenge: req.CodeChallenge, CreatedAt: now, ExpiresAt: now.Add(OAuthCodeTTL)}
	if err := s.cfg.Store.CreateOAuthCode(ctx, code); err != nil {
		return Authorization{}, err
	}
	return Authorization{Code: secret, RedirectURI: g.RedirectURI, Scopes: scopes, User: u}, nil
}

// SignIn checks a user's email and password in a tenant; unauthorized with
// one message for an unknown email, a user without a password, a disabled
// user and a wrong password alike (each costs one password hash, so timing
// tells nothing). rate_limited, without looking at the password, once the
// account (tenant and email, known or not) had MaxSignInFailures failed
// attempts in its SignInWindow (see throttleSignIn).
func (s *Service) SignIn(ctx context.Context, tenantID, email, password string) (engine.User, error) {
	ids, err := s.identity()
	if err != nil {
		return engine.User{}, err
	}
	bad := engine.Errorf(engine.CodeUnauthorized, "the email or password is wrong")
	if email == "" || password == "" || len(email) > 320 {
		return engine.User{}, bad
	}
	clear, err := s.throttleSignIn(ctx, ids, tenantID, email)
	if err != nil {
		return engine.User{}, err
	}
	u, err := s.checkPassword(ctx, ids, tenantID, email, password, bad)
	if err != nil {
		return engine.User{}, err
	}
	return u, clear()
}

// checkPassword is SignIn's check of the password.
func (s *Service) checkPassword(ctx context.Context, ids Store, tenantID, email, password string, bad error) (engine.User, error) {
	u, err := ids.GetUserByEmail(ctx, tenantID, email)
	if err != nil && !engine.IsNotFound(err) {
		return engine.User{}, err
	}
	hash := u.PasswordHash
	if err != nil || hash == "" || u.DisabledAt != nil {
		VerifyPassword(dummyPasswordHash(), password)
		return engine.User{}, bad
	}
	if !VerifyPassword(hash, password) {
		return engine.User{}, bad
	}
	return u, nil
}
