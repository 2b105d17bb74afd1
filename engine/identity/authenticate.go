package identity

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// TokenPrefix marks fourd personal access tokens, so secret scanners and
// people recognize them.
const TokenPrefix = "fdp_"

// HashToken returns the stored form of a token secret.
func HashToken(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// Authenticate turns a bearer token (a personal access token, fdp_, or an
// OAuth access token, fdo_) into a Principal. Any failure, whether
// malformed, unknown, expired or revoked, is unauthorized with the same
// message, so tokens cannot be probed; so is a token of a disabled or
// deleted user. The Principal's scopes are the token's scopes that its
// user's role allows now (EffectiveScopes). Outcomes are cached for at most
// Config.TokenCacheTTL, so the hot path is not a database round trip: a
// change of role or state through this Service applies on its next request,
// through another process at the change feed's notification, and within
// TokenCacheTTL (5 s) even without one.
func (s *Service) Authenticate(ctx context.Context, bearer string) (engine.Principal, error) {
	if len(bearer) < len(TokenPrefix)+20 || len(bearer) > 200 {
		return engine.Principal{}, errUnauthenticated
	}
	prefix := bearer[:len(TokenPrefix)]
	if prefix != TokenPrefix && prefix != OAuthAccessPrefix {
		return engine.Principal{}, errUnauthenticated
	}
	hash := HashToken(bearer)
	if p, ok, found := s.tokens.get(hash); found {
		if !ok {
			return engine.Principal{}, errUnauthenticated
		}
		return p, nil
	}
	var p engine.Principal
	var expires time.Time
	var err error
	if prefix == OAuthAccessPrefix {
		p, expires, err = s.lookupOAuthAccess(ctx, hash)
	} else {
		p, expires, err = s.lookupPersonalToken(ctx, hash)
	}
	if err == errUnauthenticated {
		s.tokens.put(hash, engine.Principal{}, false, time.Time{})
		return engine.Principal{}, err
	}
	if err != nil {
		return engine.Principal{}, err
	}
	s.tokens.put(hash, p, true, expires)
	return p, nil
}

// errUnauthenticated is the one answer for every bad token.
var errUnauthenticated = engine.Errorf(engine.CodeUnauthorized, "the access token is missing, malformed, expired or revoked")

// lookupPersonalToken reads a personal access token from the store and
// records its use; errUnauthenticated when it is unknown, revoked or expired.
func (s *Service) lookupPersonalToken(ctx context.Context, hash string) (engine.Principal, time.Time, error) {
	t, err := s.cfg.Tenants.GetTokenByHash(ctx, hash)
	if err != nil {
		if engine.IsNotFound(err) {
			return engine.Principal{}, time.Time{}, errUnauthenticated
		}
		return engine.Principal{}, time.Time{}, err
	}
	now := s.now()
	if t.RevokedAt != nil || (t.ExpiresAt != nil && !now.Before(*t.ExpiresAt)) || t.UserRole == "" {
		return engine.Principal{}, time.Time{}, errUnauthenticated
	}
	if t.LastUsedAt == nil || now.Sub(*t.LastUsedAt) > time.Minute {
		// Recorded at most once a minute per token: last-used is for people,
		// and a write per request would put the database on the hot path.
		if err := s.cfg.Tenants.TouchToken(ctx, t.ID, now); err != nil {
			s.log.WarnContext(ctx, "recording token use", "token_id", t.ID, "err", err)
		}
	}
	var expires time.Time
	if t.ExpiresAt != nil {
		expires = *t.ExpiresAt
	}
	return engine.Principal{TenantID: t.TenantID, UserID: t.UserID, TokenID: t.ID, Scopes: engine.EffectiveScopes(t.Scopes, t.UserRole),
		RateLimit: t.RateLimit}, expires, nil
}

// IssueTokenInput is what an operator gives to create a personal access
// token from the command line.
type IssueTokenInput struct {
	TenantSlug string
	Email      string
	Role       engine.Role    // for a user created on the way; default admin
	Scopes     []engine.Scope // default: every scope of the user's role
	Name       string
	ExpiresAt  *time.Time
	// RateLimit is the token's requests a minute; 0 is the default.
	RateLimit int
}

// IssuedToken is a created token with its secret, shown this once.
type IssuedToken struct {
	Token  engine.Token
	Secret string
	Tenant engine.Tenant
	User   engine.User
}

// IssueToken creates the tenant and user when missing and a personal access
// token for the user. It is an operator action (the CLI), not an API call.
func (o *Operator) IssueToken(ctx context.Context, in IssueTokenInput) (IssuedToken, error) {
	s := o.s
	if in.TenantSlug == "" || in.Email == "" {
		return IssuedToken{}, engine.FieldErrorf("tenant", "tenant and email are required")
	}
	if in.Role == "" {
		in.Role = engine.RoleAdmin
	}
	if in.RateLimit < 0 {
		return IssuedToken{}, engine.FieldErrorf("rate_limit", "rate_limit must not be negative")
	}
	if !slices.Contains(engine.Roles, in.Role) {
		return IssuedToken{}, engine.FieldErrorf("role", "role must be admin, member or viewer; got %s", quote(string(in.Role)))
	}
	ten, err := s.cfg.Tenants.EnsureTenant(ctx, in.TenantSlug, in.TenantSlug)
	if err != nil {
		return IssuedToken{}, err
	}
	u, err := s.cfg.Tenants.EnsureUser(ctx, ten.ID, in.Email, in.Role)
	if err != nil {
		return IssuedToken{}, err
	}
	if u.DisabledAt != nil {
		return IssuedToken{}, engine.FieldErrorf("email", "user %s is disabled; `fourd user create` enables it again", in.Email)
	}
	allowed := u.Role.Scopes()
	scopes := in.Scopes
	if len(scopes) == 0 {
		scopes = allowed
	}
	for _, sc := range scopes {
		if !slices.Contains(allowed, sc) {
			return IssuedToken{}, engine.FieldErrorf("scopes", "scope %s is not allowed for role %s", sc, u.Role)
		}
	}
	secret := TokenPrefix + engine.RandomToken(30)
	now := s.now()
	t := engine.Token{ID: engine.NewID(engine.PrefixToken, now), TenantID: ten.ID, UserID: u.ID, Name: in.Name,
		Hash: HashToken(secret), Scopes: scopes, RateLimit: in.RateLimit, CreatedAt: now, ExpiresAt: in.ExpiresAt}
	if err := s.cfg.Tenants.CreateToken(ctx, t); err != nil {
		return IssuedToken{}, err
	}
	return IssuedToken{Token: t, Secret: secret, Tenant: ten, User: u}, nil
}

// ParseScopes validates a comma-separated scope list.
func ParseScopes(s string) ([]engine.Scope, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []engine.Scope
	for _, part := range strings.Split(s, ",") {
		sc := engine.Scope(strings.TrimSpace(part))
		if !slices.Contains(engine.AllScopes, sc) {
			return nil, engine.FieldErrorf("scopes", "unknown scope %s", quote(part))
		}
		out = append(out, sc)
	}
	return out, nil
}
