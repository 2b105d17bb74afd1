package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fourd-dev/fourd/engine"
)

// EnsureTenant returns the tenant with the slug, creating it (named name)
// if needed. Concurrent calls with the same slug return the same tenant.
func (s *Store) EnsureTenant(ctx context.Context, slug, name string) (t engine.Tenant, err error) {
	defer s.metrics.Observe("tenants", "EnsureTenant", time.Now(), &err)
	defer wrap(&err, "EnsureTenant(%q)", slug)
	if slug == "" {
		return engine.Tenant{}, engine.FieldErrorf("slug", "tenant slug is required")
	}
	now := s.now()
	// ON CONFLICT DO NOTHING waits for a concurrent insert of the slug to
	// commit; the SELECT after it (a new snapshot) then sees that row.
	_, err = s.pool.Exec(ctx, `INSERT INTO tenants (id, slug, name, created_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (slug) DO NOTHING`, engine.NewID(engine.PrefixTenant, now), slug, name, now)
	if err != nil {
		return engine.Tenant{}, err
	}
	return s.GetTenantBySlug(ctx, slug)
}

// GetTenantBySlug returns the tenant with the slug; not_found when none.
func (s *Store) GetTenantBySlug(ctx context.Context, slug string) (t engine.Tenant, err error) {
	defer s.metrics.Observe("tenants", "GetTenantBySlug", time.Now(), &err)
	defer wrap(&err, "GetTenantBySlug(%q)", slug)
	if !lookupKey(slug) {
		return engine.Tenant{}, engine.Errorf(engine.CodeNotFound, "no tenant with slug %q", slug)
	}
	err = s.pool.QueryRow(ctx, `SELECT id, slug, name, created_at FROM tenants WHERE slug = $1`, slug).
		Scan(&t.ID, &t.Slug, &t.Name, &t.CreatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return engine.Tenant{}, engine.Errorf(engine.CodeNotFound, "no tenant with slug %q", slug)
	}
	t.CreatedAt = utc(t.CreatedAt)
	return t, err
}

// EnsureUser returns the user with the email (compared case-insensitively)
// in the tenant, creating it with the role if needed; an existing user keeps
// its role. validation_failed for an unknown role or tenant.
func (s *Store) EnsureUser(ctx context.Context, tenantID, email string, role engine.Role) (u engine.User, err error) {
	defer s.metrics.Observe("tenants", "EnsureUser", time.Now(), &err)
	defer wrap(&err, "EnsureUser(%q, %q)", tenantID, email)
	if email == "" {
		return engine.User{}, engine.FieldErrorf("email", "email is required")
	}
	now := s.now()
	_, err = s.pool.Exec(ctx, `INSERT INTO users (id, tenant_id, email, role, created_at) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (tenant_id, lower(email)) DO NOTHING`,
		engine.NewID(engine.PrefixUser, now), tenantID, email, string(role), now)
	if err != nil {
		return engine.User{}, err
	}
	u, err = scanUser(s.pool.QueryRow(ctx, `SELECT `+userColumns+`
		FROM users WHERE tenant_id = $1 AND lower(email) = lower($2)`, tenantID, email))
	if err != nil {
		return engine.User{}, err // no rows cannot happen: the row exists or was just made
	}
	return u, nil
}

const tokenColumns = `id, tenant_id, user_id, name, hash, scopes, rate_limit, created_at, expires_at, last_used_at, revoked_at`

func scanToken(row pgx.Row, extra ...any) (engine.Token, error) {
	var t engine.Token
	var scopes []string
	err := row.Scan(append([]any{&t.ID, &t.TenantID, &t.UserID, &t.Name, &t.Hash, &scopes, &t.RateLimit,
		&t.CreatedAt, &t.ExpiresAt, &t.LastUsedAt, &t.RevokedAt}, extra...)...)
	t.Scopes = fromStrings[engine.Scope](scopes)
	t.CreatedAt, t.ExpiresAt, t.LastUsedAt, t.RevokedAt = utc(t.CreatedAt), utcp(t.ExpiresAt), utcp(t.LastUsedAt), utcp(t.RevokedAt)
	return t, err
}

// CreateToken stores a personal access token. conflict when the id or the
// hash exists; validation_failed when the user is not in the tenant.
func (s *Store) CreateToken(ctx context.Context, t engine.Token) (err error) {
	defer s.metrics.Observe("tenants", "CreateToken", time.Now(), &err)
	defer wrap(&err, "CreateToken(%q)", t.ID)
	_, err = s.pool.Exec(ctx, `INSERT INTO tokens (`+tokenColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
		t.ID, t.TenantID, t.UserID, t.Name, t.Hash, toStrings(t.Scopes), t.RateLimit,
		t.CreatedAt, t.ExpiresAt, t.LastUsedAt, t.RevokedAt)
	return err
}

// GetTokenByHash returns a token by the hash of its secret, revoked or
// expired alike (the caller checks), with its user's role now in UserRole
// (empty when the user is disabled); not_found when no token has the hash.
func (s *Store) GetTokenByHash(ctx context.Context, hash string) (t engine.Token, err error) {
	defer s.metrics.Observe("tenants", "GetTokenByHash", time.Now(), &err)
	defer wrap(&err, "GetTokenByHash")
	if !lookupKey(hash) {
		return engine.Token{}, engine.ErrNotFound("token", "")
	}
	var role string
	t, err = scanToken(s.pool.QueryRow(ctx, `SELECT `+tokenColumns+`, `+userRoleNow+` FROM tokens t WHERE hash = $1`, hash), &role)
	t.UserRole = engine.Role(role)
	if errors.Is(err, pgx.ErrNoRows) {
		// The hash is a credential: never echo it.
		return engine.Token{}, engine.Errorf(engine.CodeNotFound, "no such token")
	}
	return t, err
}

// TouchToken records that a token was used at t; a later use already
// recorded is kept. not_found when the token does not exist.
func (s *Store) TouchToken(ctx context.Context, id string, t time.Time) (err error) {
	defer s.metrics.Observe("tenants", "TouchToken", time.Now(), &err)
	defer wrap(&err, "TouchToken(%q)", id)
	if !lookupKey(id) {
		return engine.ErrNotFound("token", id)
	}
	tag, err := s.pool.Exec(ctx, `UPDATE tokens SET last_used_at = GREATEST(last_used_at, $2) WHERE id = $1`, id, t)
	if err == nil && tag.RowsAffected() == 0 {
		return engine.ErrNotFound("token", id)
	}
	return err
}

// ListTokens returns the tenant's tokens of a user (every user's when
// userID is empty), revoked ones included, newest first.
func (s *Store) ListTokens(ctx context.Context, tenantID, userID string) (ts []engine.Token, err error) {
	defer s.metrics.Observe("tenants", "ListTokens", time.Now(), &err)
	defer wrap(&err, "ListTokens(%q, %q)", tenantID, userID)
	rows, err := s.pool.Query(ctx, `SELECT `+tokenColumns+` FROM tokens
		WHERE tenant_id = $1 AND ($2 = '' OR user_id = $2) ORDER BY id DESC`, tenantID, userID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (engine.Token, error) { return scanToken(r) })
}

// RevokeToken marks a token of the tenant revoked at the given time; a token
// revoked before keeps its first revocation time. not_found for a missing
// token or another tenant's.
func (s *Store) RevokeToken(ctx context.Context, tenantID, id string, at time.Time) (err error) {
	defer s.metrics.Observe("tenants", "RevokeToken", time.Now(), &err)
	defer wrap(&err, "RevokeToken(%q, %q)", tenantID, id)
	if !lookupKey(id) {
		return engine.ErrNotFound("token", id)
	}
	tag, err := s.pool.Exec(ctx, `UPDATE tokens SET revoked_at = COALESCE(revoked_at, $3)
		WHERE tenant_id = $1 AND id = $2`, tenantID, id, at)
	if err == nil && tag.RowsAffected() == 0 {
		return engine.ErrNotFound("token", id)
	}
	return err
}
