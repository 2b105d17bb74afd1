package identity

import (
	"context"
	"net/mail"
	"slices"
	"strings"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// MaxAPITokenRateLimit is the highest per-token rate (requests a minute) a
// token created through the API may ask for: the default. Operators raise a
// token's rate with the command line.
const MaxAPITokenRateLimit = 1000

// identity returns the identity store, or unavailable when none is set.
func (s *Service) identity() (Store, error) {
	if s.cfg.Store == nil {
		return nil, engine.Errorf(engine.CodeUnavailable, "sign-in and OAuth are not configured on this server")
	}
	return s.cfg.Store, nil
}

// CreateUserInput is what an operator gives to create or update a user.
type CreateUserInput struct {
	TenantSlug string
	Email      string
	Role       engine.Role
	Password   string
}

// CreateUser creates a user of a tenant (the tenant too, when missing), or
// updates the role and password of the user with that email. It is an
// operator action (the CLI); it enables a disabled user again. What the
// user's tokens may do follows the new role from this replica's next
// request (see Authenticate). validation_failed for a malformed email, an
// unknown role or a password outside MinPasswordLen..MaxPasswordLen.
func (o *Operator) CreateUser(ctx context.Context, in CreateUserInput) (engine.User, engine.Tenant, error) {
	s := o.s
	ids, err := s.identity()
	if err != nil {
		return engine.User{}, engine.Tenant{}, err
	}
	if in.TenantSlug == "" {
		return engine.User{}, engine.Tenant{}, engine.FieldErrorf("tenant", "tenant is required")
	}
	if a, err := mail.ParseAddress(in.Email); err != nil || a.Address != in.Email {
		return engine.User{}, engine.Tenant{}, engine.FieldErrorf("email", "email must be an address like ada@example.com; got %s", quote(in.Email))
	}
	if !slices.Contains(engine.Roles, in.Role) {
		return engine.User{}, engine.Tenant{}, engine.FieldErrorf("role", "role must be admin, member or viewer; got %s", quote(string(in.Role)))
	}
	hash, err := HashPassword(in.Password)
	if err != nil {
		return engine.User{}, engine.Tenant{}, err
	}
	ten, err := s.cfg.Tenants.EnsureTenant(ctx, in.TenantSlug, in.TenantSlug)
	if err != nil {
		return engine.User{}, engine.Tenant{}, err
	}
	now := s.now()
	u, err := ids.UpsertUser(ctx, engine.User{ID: engine.NewID(engine.PrefixUser, now), TenantID: ten.ID, Email: in.Email,
		Role: in.Role, PasswordHash: hash, CreatedAt: now})
	if err != nil {
		return engine.User{}, engine.Tenant{}, err
	}
	// The role (or state) of an existing user may have changed: what its
	// tokens may do changes on this replica's next request.
	s.tokens.purge()
	return u, ten, nil
}

// DisableUser disables the user with the email in a tenant (by slug), an
// operator action (the CLI): the user can no longer sign in, and every one
// of their personal access tokens and OAuth tokens stops working at once on
// this replica and within TokenCacheTTL on the others (at the change
// feed's notification when it runs). CreateUser enables the user again.
// not_found for an unknown tenant or email.
func (o *Operator) DisableUser(ctx context.Context, tenantSlug, email string) (engine.User, error) {
	s := o.s
	ids, err := s.identity()
	if err != nil {
		return engine.User{}, err
	}
	ten, err := s.cfg.Tenants.GetTenantBySlug(ctx, tenantSlug)
	if err != nil {
		return engine.User{}, err
	}
	u, err := ids.DisableUser(ctx, ten.ID, email, s.now())
	if err != nil {
		return engine.User{}, err
	}
	s.tokens.purge()
	return u, nil
}

// CreateTokenInput is what a caller asks for in POST /v1/tokens.
type CreateTokenInput struct {
	Name      string         `json:"name"`
	Scopes    []engine.Scope `json:"scopes"`
	ExpiresAt *time.Time     `json:"expires_at"`
	RateLimit int            `json:"rate_limit"`
}

// ListTokens returns the personal access tokens of the caller's tenant,
// revoked ones included, newest first, in one page. Needs tokens:write:
// unauthorized, insufficient_scope.
func (s *Service) ListTokens(ctx context.Context, p engine.Principal) (engine.Page[engine.Token], error) {
	if err := p.Require(engine.ScopeTokensWrite); err != nil {
		return engine.Page[engine.Token]{}, err
	}
	ts, err := s.cfg.Tenants.ListTokens(ctx, p.TenantID, "")
	if err != nil {
		return engine.Page[engine.Token]{}, err
	}
	return engine.Page[engine.Token]{Items: ts}, nil
}

// CreateToken creates a personal access token for the caller's user. Its
// scopes (default: the caller's) must be within the user's role and the
// caller's own scopes, so a token never grants more than the one that made
// it. Returns the token and its secret, shown this once. unauthorized,
// insufficient_scope, validation_failed.
func (s *Service) CreateToken(ctx context.Context, p engine.Principal, in CreateTokenInput) (IssuedToken, error) {
	if err := p.Require(engine.ScopeTokensWrite); err != nil {
		return IssuedToken{}, err
	}
	ids, err := s.identity()
	if err != nil {
		return IssuedToken{}, err
	}
	in.Name = strings.TrimSpace(in.Name)
	if in.Name == "" || len(in.Name) > 100 {
		return IssuedToken{}, engine.FieldErrorf("name", "name is required, at most 100 characters")
	}
	now := s.now()
	if in.ExpiresAt != nil && !in.ExpiresAt.After(now) {
		return IssuedToken{}, engine.FieldErrorf("expires_at", "expires_at must be in the future")
	}
	if in.RateLimit < 0 || in.RateLimit > MaxAPITokenRateLimit {
		return IssuedToken{}, engine.FieldErrorf("rate_limit", "rate_limit must be from 1 to %d requests a minute (0: the default)", MaxAPITokenRateLimit)
	}
	u, err := ids.GetUser(ctx, p.TenantID, p.UserID)
	if err != nil {
		if engine.IsNotFound(err) {
			return IssuedToken{}, engine.Errorf(engine.CodeInsufficientScope, "this credential does not belong to a user")
		}
		return IssuedToken{}, err
	}
	scopes := in.Scopes
	if len(scopes) == 0 {
		scopes = p.Scopes
	}
	if err := checkGrantable(scopes, u.Role.Scopes(), p.Scopes); err != nil {
		return IssuedToken{}, err
	}
	secret := TokenPrefix + engine.RandomToken(30)
	t := engine.Token{ID: engine.NewID(engine.PrefixToken, now), TenantID: p.TenantID, UserID: u.ID, Name: in.Name,
		Hash: HashToken(secret), Scopes: slices.Clone(scopes), RateLimit: in.RateLimit, CreatedAt: now, ExpiresAt: in.ExpiresAt}
	if err := s.cfg.Tenants.CreateToken(ctx, t); err != nil {
		return IssuedToken{}, err
	}
	return IssuedToken{Token: t, Secret: secret, User: u}, nil
}

// checkGrantable reports validation_failed unless every scope is known, in
// the role's scopes and in the caller's.
func checkGrantable(scopes, role, caller []engine.Scope) error {
	for _, sc := range scopes {
		switch {
		case !slices.Contains(engine.AllScopes, sc):
			return engine.FieldErrorf("scopes", "unknown scope %s", quote(string(sc)))
		case !slices.Contains(role, sc):
			return engine.FieldErrorf("scopes", "scope %s is not allowed for the user's role", sc)
		case !slices.Contains(caller, sc):
			return engine.FieldErrorf("scopes", "scope %s is not held by the token making this one", sc)
		}
	}
	return nil
}

// RevokeToken revokes a personal access token of the caller's tenant. It
// stops working at once on this replica and within TokenCacheTTL on the
// others. unauthorized, insufficient_scope, not_found (also for another
// tenant's token).
func (s *Service) RevokeToken(ctx context.Context, p engine.Principal, id string) error {
	if err := p.Require(engine.ScopeTokensWrite); err != nil {
		return err
	}
	if !engine.ValidID(engine.PrefixToken, id) {
		return engine.ErrNotFound("token", id)
	}
	if err := s.cfg.Tenants.RevokeToken(ctx, p.TenantID, id, s.now()); err != nil {
		return err
	}
	s.tokens.purge()
	return nil
}

// RevokeToken revokes a token of a tenant (by slug) from the
// command line, which has no Principal.
func (o *Operator) RevokeToken(ctx context.Context, tenantSlug, id string) error {
	s := o.s
	ten, err := s.cfg.Tenants.GetTenantBySlug(ctx, tenantSlug)
	if err != nil {
		return err
	}
	if err := s.cfg.Tenants.RevokeToken(ctx, ten.ID, id, s.now()); err != nil {
		return err
	}
	s.tokens.purge()
	return nil
}

// ListTokens lists a tenant's tokens (by slug) for the command
// line.
func (o *Operator) ListTokens(ctx context.Context, tenantSlug string) ([]engine.Token, error) {
	s := o.s
	ten, err := s.cfg.Tenants.GetTenantBySlug(ctx, tenantSlug)
	if err != nil {
		return nil, err
	}
	return s.cfg.Tenants.ListTokens(ctx, ten.ID, "")
}
