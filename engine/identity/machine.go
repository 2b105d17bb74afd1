package identity

import (
	"context"
	"strings"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// ClientCredentialsInput is grant_type=client_credentials (RFC 6749 §4.4).
type ClientCredentialsInput struct {
	Client ClientCredentials
	Scope  string // optional: a subset of the client's registered scopes
}

// IssueClientCredentialsToken gives a confidential client an access token
// for its own tenant, acting for no user: its scopes are the client's
// registered scopes (or the subset asked), no role applies, and there is no
// refresh token (the client asks again with its credentials).
// invalid_client; unauthorized_client for a client registered without
// scopes; invalid_scope for a scope beyond them.
func (s *Service) IssueClientCredentialsToken(ctx context.Context, in ClientCredentialsInput) (TokenResponse, error) {
	ids, err := s.identity()
	if err != nil {
		return TokenResponse{}, err
	}
	client, err := s.authenticateClient(ctx, ids, in.Client)
	if err != nil {
		return TokenResponse{}, err
	}
	if len(client.Scopes) == 0 {
		return TokenResponse{}, engine.Errorf(engine.CodeUnauthorizedClient,
			"this client is not registered for the client credentials grant (register it with scopes)")
	}
	scopes, err := narrowScopes(client.Scopes, in.Scope, "is not registered for this client")
	if err != nil {
		return TokenResponse{}, err
	}
	now := s.now()
	access := OAuthAccessPrefix + engine.RandomToken(30)
	at := OAuthToken{ID: engine.NewID(engine.PrefixOAuthToken, now), Kind: OAuthAccess, Hash: HashToken(access),
		GrantID: engine.NewID(engine.PrefixOAuthGrant, now), TenantID: client.TenantID, ClientID: client.ID, Scopes: scopes,
		RateLimit: client.RateLimit, CreatedAt: now, ExpiresAt: now.Add(OAuthAccessTTL)}
	if err := ids.CreateOAuthTokens(ctx, at); err != nil {
		return TokenResponse{}, err
	}
	return TokenResponse{AccessToken: access, TokenType: "Bearer", ExpiresIn: int(OAuthAccessTTL / time.Second),
		Scope: ScopeString(scopes)}, nil
}

// Introspection is a token introspection answer (RFC 7662 §2.2). An
// inactive token has Active false and nothing else.
type Introspection struct {
	Active    bool   `json:"active"`
	Scope     string `json:"scope,omitempty"`
	ClientID  string `json:"client_id,omitempty"`
	TokenType string `json:"token_type,omitempty"`
	Exp       int64  `json:"exp,omitempty"`
	Iat       int64  `json:"iat,omitempty"`
	// Sub is the user the token acts for; absent for a client credentials
	// token.
	Sub string `json:"sub,omitempty"`
}

// IntrospectToken tells an authenticated client (a resource server of its
// tenant) whether a token is active and what it grants (RFC 7662). Bearer
// tokens (OAuth access tokens and personal access tokens) of the client's
// tenant are described with the scopes authentication would give them now;
// a refresh token only to the client it was issued to. Anything unknown,
// expired, revoked, spent or of another tenant is {active: false}, the
// same answer for all. invalid_client; invalid_request for a missing token.
func (s *Service) IntrospectToken(ctx context.Context, cc ClientCredentials, token string) (Introspection, error) {
	ids, err := s.identity()
	if err != nil {
		return Introspection{}, err
	}
	client, err := s.authenticateClient(ctx, ids, cc)
	if err != nil {
		return Introspection{}, err
	}
	if token == "" {
		return Introspection{}, engine.Errorf(engine.CodeInvalidRequest, "token is required")
	}
	inactive := Introspection{}
	switch {
	case len(token) > 200:
		return inactive, nil
	case strings.HasPrefix(token, OAuthRefreshPrefix):
		t, err := ids.GetOAuthTokenByHash(ctx, HashToken(token))
		if engine.IsNotFound(err) {
			return inactive, nil
		}
		if err != nil {
			return Introspection{}, err
		}
		if t.Kind != OAuthRefresh || t.ClientID != client.ID || t.RevokedAt != nil || t.UsedAt != nil || !s.now().Before(t.ExpiresAt) {
			return inactive, nil
		}
		return describeOAuthToken(t, "refresh_token", t.Scopes), nil
	case strings.HasPrefix(token, OAuthAccessPrefix), strings.HasPrefix(token, TokenPrefix):
		p, err := s.Authenticate(ctx, token)
		if engine.ErrorCode(err) == engine.CodeUnauthorized || (err == nil && p.TenantID != client.TenantID) {
			return inactive, nil
		}
		if err != nil {
			return Introspection{}, err
		}
		if strings.HasPrefix(token, TokenPrefix) {
			return Introspection{Active: true, Scope: ScopeString(p.Scopes), TokenType: "Bearer", Sub: p.UserID}, nil
		}
		t, err := ids.GetOAuthTokenByHash(ctx, HashToken(token))
		if engine.IsNotFound(err) {
			return inactive, nil
		}
		if err != nil {
			return Introspection{}, err
		}
		return describeOAuthToken(t, "Bearer", p.Scopes), nil
	}
	return inactive, nil
}

func describeOAuthToken(t OAuthToken, tokenType string, scopes []engine.Scope) Introspection {
	return Introspection{Active: true, Scope: ScopeString(scopes), ClientID: t.ClientID, TokenType: tokenType,
		Exp: t.ExpiresAt.Unix(), Iat: t.CreatedAt.Unix(), Sub: t.UserID}
}
