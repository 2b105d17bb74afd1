package identity

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"slices"
	"strings"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// TokenResponse is the successful answer of the token endpoint
// (RFC 6749 §5.1).
type TokenResponse struct {
	AccessToken  string `json:"access_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int    `json:"expires_in"`
	RefreshToken string `json:"refresh_token,omitempty"` // none for client credentials
	Scope        string `json:"scope"`
}

// ExchangeCodeInput is grant_type=authorization_code (RFC 6749 §4.1.3).
type ExchangeCodeInput struct {
	Client       ClientCredentials
	Code         string
	RedirectURI  string
	CodeVerifier string
}

// invalidGrant is the one answer for every bad code or refresh token.
func invalidGrant(msg string) error { return engine.Errorf(engine.CodeInvalidGrant, "%s", msg) }

// ExchangeAuthorizationCode exchanges an authorization code for an access
// and a refresh token. invalid_client for bad client credentials;
// invalid_request for a missing code or redirect_uri; invalid_grant for an
// unknown, expired or replayed code, another client's code, a mismatched
// redirect_uri, and a missing or wrong PKCE code_verifier. A replayed code
// also revokes every token issued from it (RFC 6749 §4.1.2).
func (s *Service) ExchangeAuthorizationCode(ctx context.Context, in ExchangeCodeInput) (TokenResponse, error) {
	ids, err := s.identity()
	if err != nil {
		return TokenResponse{}, err
	}
	client, err := s.authenticateClient(ctx, ids, in.Client)
	if err != nil {
		return TokenResponse{}, err
	}
	switch {
	case in.Code == "":
		return TokenResponse{}, engine.Errorf(engine.CodeInvalidRequest, "code is required")
	case in.RedirectURI == "":
		return TokenResponse{}, engine.Errorf(engine.CodeInvalidRequest, "redirect_uri is required: the one sent to /oauth/authorize")
	case !strings.HasPrefix(in.Code, OAuthCodePrefix) || len(in.Code) > 200:
		return TokenResponse{}, invalidGrant("the authorization code is invalid, expired or used")
	}
	now := s.now()
	code, first, err := ids.UseOAuthCode(ctx, HashToken(in.Code), now)
	if engine.IsNotFound(err) {
		return TokenResponse{}, invalidGrant("the authorization code is invalid, expired or used")
	}
	if err != nil {
		return TokenResponse{}, err
	}
	if !first {
		return s.refuseReplay(ctx, ids, code.GrantID, now, "the authorization code is invalid, expired or used")
	}
	switch {
	case code.ClientID != client.ID:
		return TokenResponse{}, invalidGrant("the authorization code is invalid, expired or used")
	case !now.Before(code.ExpiresAt):
		return TokenResponse{}, invalidGrant("the authorization code is invalid, expired or used")
	case code.RedirectURI != in.RedirectURI:
		return TokenResponse{}, invalidGrant("redirect_uri does not match the authorization request")
	}
	if err := verifyPKCE(code.CodeChallenge, in.CodeVerifier); err != nil {
		return TokenResponse{}, err
	}
	return s.issueTokens(ctx, ids, client, code.GrantID, code.TenantID, code.UserID, code.Scopes, now)
}

// verifyPKCE checks code_verifier against the S256 challenge the code was
// issued with. Without a challenge, a verifier is refused too (a PKCE
// downgrade).
func verifyPKCE(challenge, verifier string) error {
	if challenge == "" {
		if verifier != "" {
			return invalidGrant("code_verifier sent for a code issued without code_challenge")
		}
		return nil
	}
	if verifier == "" {
		return invalidGrant("code_verifier is required: the code was issued with a code_challenge")
	}
	if len(verifier) < 43 || len(verifier) > 128 || !pkceChars(verifier) {
		return invalidGrant("code_verifier must be 43 to 128 unreserved characters")
	}
	sum := sha256.Sum256([]byte(verifier))
	if subtle.ConstantTimeCompare([]byte(base64.RawURLEncoding.EncodeToString(sum[:])), []byte(challenge)) != 1 {
		return invalidGrant("code_verifier does not match code_challenge")
	}
	return nil
}

// issueTokens stores a new access token and refresh token of a grant.
func (s *Service) issueTokens(ctx context.Context, ids Store, c OAuthClient, grantID, tenantID, userID string,
	scopes []engine.Scope, now time.Time) (TokenResponse, error) {
	access := OAuthAccessPrefix + engine.RandomToken(30)
	refresh := OAuthRefreshPrefix + engine.RandomToken(30)
	base := OAuthToken{GrantID: grantID, TenantID: tenantID, ClientID: c.ID, UserID: userID, Scopes: scopes,
		RateLimit: c.RateLimit, CreatedAt: now}
	at, rt := base, base
	at.ID, at.Kind, at.Hash, at.ExpiresAt = engine.NewID(engine.PrefixOAuthToken, now), OAuthAccess, HashToken(access), now.Add(OAuthAccessTTL)
	rt.ID, rt.Kind, rt.Hash, rt.ExpiresAt = engine.NewID(engine.PrefixOAuthToken, now), OAuthRefresh, HashToken(refresh), now.Add(OAuthRefreshTTL)
	if err := ids.CreateOAuthTokens(ctx, at, rt); err != nil {
		return TokenResponse{}, err
	}
	return TokenResponse{AccessToken: access, TokenType: "Bearer", ExpiresIn: int(OAuthAccessTTL / time.Second),
		RefreshToken: refresh, Scope: ScopeString(scopes)}, nil
}

// RefreshInput is grant_type=refresh_token (RFC 6749 §6).
type RefreshInput struct {
	Client       ClientCredentials
	RefreshToken string
	Scope        string // optional: a subset of the grant's scopes
}

// RefreshAccessToken spends a refresh token for a new access token and a
// new refresh token (rotation). invalid_client; invalid_request for a
// missing refresh_token; invalid_grant for an unknown, expired or revoked
// token or another client's; invalid_scope for a scope beyond the grant. A
// refresh token presented a second time is reuse: the whole grant is
// revoked (OAuth 2.0 Security BCP §4.14) and invalid_grant returned.
func (s *Service) RefreshAccessToken(ctx context.Context, in RefreshInput) (TokenResponse, error) {
	ids, err := s.identity()
	if err != nil {
		return TokenResponse{}, err
	}
	client, err := s.authenticateClient(ctx, ids, in.Client)
	if err != nil {
		return TokenResponse{}, err
	}
	if in.RefreshToken == "" {
		return TokenResponse{}, engine.Errorf(engine.CodeInvalidRequest, "refresh_token is required")
	}
	bad := invalidGrant("the refresh token is invalid, expired or revoked")
	if !strings.HasPrefix(in.RefreshToken, OAuthRefreshPrefix) || len(in.RefreshToken) > 200 {
		return TokenResponse{}, bad
	}
	hash := HashToken(in.RefreshToken)
	t, err := ids.GetOAuthTokenByHash(ctx, hash)
	if engine.IsNotFound(err) || (err == nil && (t.Kind != OAuthRefresh || t.ClientID != client.ID)) {
		return TokenResponse{}, bad
	}
	if err != nil {
		return TokenResponse{}, err
	}
	now := s.now()
	if t.RevokedAt != nil || !now.Before(t.ExpiresAt) {
		return TokenResponse{}, bad
	}
	t, first, err := ids.UseRefreshToken(ctx, hash, now)
	if err != nil {
		return TokenResponse{}, err
	}
	if !first {
		return s.refuseReplay(ctx, ids, t.GrantID, now, "the refresh token was already used; the grant is revoked")
	}
	scopes, err := narrowScopes(t.Scopes, in.Scope, "was not granted")
	if err != nil {
		return TokenResponse{}, err
	}
	// The user's role may have changed since the grant: it still bounds it.
	// A disabled user's grants mint nothing.
	u, err := ids.GetUser(ctx, t.TenantID, t.UserID)
	if engine.IsNotFound(err) || (err == nil && u.DisabledAt != nil) {
		return TokenResponse{}, bad
	}
	if err != nil {
		return TokenResponse{}, err
	}
	scopes = engine.EffectiveScopes(scopes, u.Role)
	if len(scopes) == 0 {
		return TokenResponse{}, bad
	}
	return s.issueTokens(ctx, ids, client, t.GrantID, t.TenantID, t.UserID, scopes, now)
}

// RevokeOAuthCredential revokes an access or refresh token of the client
// (RFC 7009). Revoking a refresh token revokes its whole grant. An unknown
// token, or another client's, is not an error: the endpoint answers the
// same, so it reveals nothing. invalid_client; invalid_request for a
// missing token.
func (s *Service) RevokeOAuthCredential(ctx context.Context, cc ClientCredentials, token string) error {
	ids, err := s.identity()
	if err != nil {
		return err
	}
	client, err := s.authenticateClient(ctx, ids, cc)
	if err != nil {
		return err
	}
	if token == "" {
		return engine.Errorf(engine.CodeInvalidRequest, "token is required")
	}
	if len(token) > 200 || !(strings.HasPrefix(token, OAuthAccessPrefix) || strings.HasPrefix(token, OAuthRefreshPrefix)) {
		return nil
	}
	t, err := ids.GetOAuthTokenByHash(ctx, HashToken(token))
	if engine.IsNotFound(err) || (err == nil && t.ClientID != client.ID) {
		return nil
	}
	if err != nil {
		return err
	}
	now := s.now()
	if t.Kind == OAuthRefresh {
		err = ids.RevokeOAuthGrant(ctx, t.GrantID, now)
	} else {
		err = ids.RevokeOAuthToken(ctx, t.ID, now)
	}
	if err != nil {
		return err
	}
	s.tokens.purge()
	return nil
}

// lookupOAuthAccess reads an OAuth access token from the store;
// errUnauthenticated when it is unknown, revoked or expired, or its user is
// disabled or gone. A user's token carries the scopes the user's role
// allows now; a client credentials token (no user) its own scopes.
func (s *Service) lookupOAuthAccess(ctx context.Context, hash string) (engine.Principal, time.Time, error) {
	if s.cfg.Store == nil {
		return engine.Principal{}, time.Time{}, errUnauthenticated
	}
	t, err := s.cfg.Store.GetOAuthTokenByHash(ctx, hash)
	if err != nil {
		if engine.IsNotFound(err) {
			return engine.Principal{}, time.Time{}, errUnauthenticated
		}
		return engine.Principal{}, time.Time{}, err
	}
	machine := t.UserID == "" // client credentials: no user, so no role
	if t.Kind != OAuthAccess || t.RevokedAt != nil || !s.now().Before(t.ExpiresAt) || (!machine && t.UserRole == "") {
		return engine.Principal{}, time.Time{}, errUnauthenticated
	}
	scopes := t.Scopes // a client credentials token: its client's registered scopes bound it
	if !machine {
		scopes = engine.EffectiveScopes(t.Scopes, t.UserRole)
	}
	return engine.Principal{TenantID: t.TenantID, UserID: t.UserID, TokenID: t.ID, Scopes: scopes,
		RateLimit: t.RateLimit}, t.ExpiresAt, nil
}

// narrowScopes returns the scopes a token request asks for in its scope
// parameter, each of which must be among granted (invalid_scope naming the
// first that is not: "scope X <notGranted>"); all of granted when the
// parameter is empty.
func narrowScopes(granted []engine.Scope, param, notGranted string) ([]engine.Scope, error) {
	if param == "" {
		return granted, nil
	}
	asked, err := parseScopeParam(param)
	if err != nil {
		return nil, err
	}
	for _, sc := range asked {
		if !slices.Contains(granted, sc) {
			return nil, engine.Errorf(engine.CodeInvalidScope, "scope %s %s", sc, notGranted)
		}
	}
	return asked, nil
}

// refuseReplay answers a second use of a one-time credential (an
// authorization code or a refresh token): every token of its grant is
// revoked, cached lookups of them are dropped (RFC 6749 §4.1.2, §10.4),
// and the request gets invalid_grant with msg.
func (s *Service) refuseReplay(ctx context.Context, ids Store, grantID string, now time.Time, msg string) (TokenResponse, error) {
	if err := ids.RevokeOAuthGrant(ctx, grantID, now); err != nil {
		return TokenResponse{}, err
	}
	s.tokens.purge()
	return TokenResponse{}, invalidGrant(msg)
}
