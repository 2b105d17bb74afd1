package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/identity"
)

var _ identity.Store = (*Store)(nil)

const userColumns = `id, tenant_id, email, role, COALESCE(password_hash, ''), created_at, disabled_at`

func scanUser(row pgx.Row) (engine.User, error) {
	var u engine.User
	err := row.Scan(&u.ID, &u.TenantID, &u.Email, &u.Role, &u.PasswordHash, &u.CreatedAt, &u.DisabledAt)
	u.CreatedAt, u.DisabledAt = utc(u.CreatedAt), utcp(u.DisabledAt)
	return u, err
}

// userRoleNow is a scalar subquery for the current role of the user of the
// row being selected (a token's), or ” when the user is disabled or gone:
// what the engine bounds the token's scopes with.
const userRoleNow = `COALESCE((SELECT u.role FROM users u
	WHERE u.tenant_id = t.tenant_id AND u.id = t.user_id AND u.disabled_at IS NULL), '')`

// UpsertUser creates the user (by tenant and email, compared
// case-insensitively) or updates its role and password hash and enables it,
// and returns the stored user (an existing user keeps its id and email).
// validation_failed for an unknown tenant or role.
func (s *Store) UpsertUser(ctx context.Context, u engine.User) (out engine.User, err error) {
	defer wrap(&err, "UpsertUser(%q, %q)", u.TenantID, u.Email)
	return scanUser(s.pool.QueryRow(ctx, `INSERT INTO users (id, tenant_id, email, role, password_hash, created_at)
		VALUES ($1, $2, $3, $4, NULLIF($5, ''), $6)
		ON CONFLICT (tenant_id, lower(email)) DO UPDATE SET role = EXCLUDED.role, password_hash = EXCLUDED.password_hash,
			disabled_at = NULL
		RETURNING `+userColumns, u.ID, u.TenantID, u.Email, string(u.Role), u.PasswordHash, u.CreatedAt))
}

// GetUser returns a user of the tenant by id; not_found otherwise.
func (s *Store) GetUser(ctx context.Context, tenantID, id string) (u engine.User, err error) {
	defer wrap(&err, "GetUser(%q, %q)", tenantID, id)
	if !lookupKey(id) {
		return engine.User{}, engine.ErrNotFound("user", id)
	}
	u, err = scanUser(s.pool.QueryRow(ctx, `SELECT `+userColumns+` FROM users WHERE tenant_id = $1 AND id = $2`, tenantID, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return engine.User{}, engine.ErrNotFound("user", id)
	}
	return u, err
}

// GetUserByEmail returns a user of the tenant by email (compared
// case-insensitively); not_found otherwise.
func (s *Store) GetUserByEmail(ctx context.Context, tenantID, email string) (u engine.User, err error) {
	defer wrap(&err, "GetUserByEmail(%q)", tenantID)
	notFound := engine.Errorf(engine.CodeNotFound, "no user with this email")
	if !lookupKey(email) {
		return engine.User{}, notFound
	}
	u, err = scanUser(s.pool.QueryRow(ctx, `SELECT `+userColumns+` FROM users
		WHERE tenant_id = $1 AND lower(email) = lower($2)`, tenantID, email))
	if errors.Is(err, pgx.ErrNoRows) {
		return engine.User{}, notFound
	}
	return u, err
}

// DisableUser marks the user of the tenant with the email (compared
// case-insensitively) disabled at the given time; one disabled before keeps
// its first time. not_found when there is no such user.
func (s *Store) DisableUser(ctx context.Context, tenantID, email string, at time.Time) (u engine.User, err error) {
	defer wrap(&err, "DisableUser(%q)", tenantID)
	notFound := engine.Errorf(engine.CodeNotFound, "no user with this email")
	if !lookupKey(email) {
		return engine.User{}, notFound
	}
	u, err = scanUser(s.pool.QueryRow(ctx, `UPDATE users SET disabled_at = COALESCE(disabled_at, $3)
		WHERE tenant_id = $1 AND lower(email) = lower($2) RETURNING `+userColumns, tenantID, email, at))
	if errors.Is(err, pgx.ErrNoRows) {
		return engine.User{}, notFound
	}
	return u, err
}
