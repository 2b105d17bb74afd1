package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/identity"
)

// oauthTokenColumns read a NULL user_id as the empty string: a client
// credentials token has no user (UserID "").
const oauthTokenColumns = `id, kind, hash, grant_id, tenant_id, client_id, COALESCE(user_id, ''), scopes, rate_limit,
	created_at, expires_at, used_at, revoked_at`

const oauthTokenInsertColumns = `id, kind, hash, grant_id, tenant_id, client_id, user_id, scopes, rate_limit,
	created_at, expires_at, used_at, revoked_at`

func scanOAuthToken(row pgx.Row, extra ...any) (identity.OAuthToken, error) {
	var t identity.OAuthToken
	var scopes []string
	err := row.Scan(append([]any{&t.ID, &t.Kind, &t.Hash, &t.GrantID, &t.TenantID, &t.ClientID, &t.UserID, &scopes, &t.RateLimit,
		&t.CreatedAt, &t.ExpiresAt, &t.UsedAt, &t.RevokedAt}, extra...)...)
	t.Scopes = fromStrings[engine.Scope](scopes)
	t.CreatedAt, t.ExpiresAt, t.UsedAt, t.RevokedAt = utc(t.CreatedAt), utc(t.ExpiresAt), utcp(t.UsedAt), utcp(t.RevokedAt)
	return t, err
}

// CreateOAuthTokens stores tokens in one transaction. conflict when an id
// or hash exists; validation_failed when the client or user is not in the
// tenant.
func (s *Store) CreateOAuthTokens(ctx context.Context, ts ...identity.OAuthToken) (err error) {
	defer wrap(&err, "CreateOAuthTokens")
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		for _, t := range ts {
			_, err := tx.Exec(ctx, `INSERT INTO oauth_tokens (`+oauthTokenInsertColumns+`)
				VALUES ($1, $2, $3, $4, $5, $6, NULLIF($7, ''), $8, $9, $10, $11, $12, $13)`,
				t.ID, string(t.Kind), t.Hash, t.GrantID, t.TenantID, t.ClientID, t.UserID, toStrings(t.Scopes), t.RateLimit,
				t.CreatedAt, t.ExpiresAt, t.UsedAt, t.RevokedAt)
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// GetOAuthTokenByHash returns a token by the hash of its secret, whatever
// its state, with its user's role now in UserRole (empty when the user is
// disabled); not_found when no token has the hash.
func (s *Store) GetOAuthTokenByHash(ctx context.Context, hash string) (t identity.OAuthToken, err error) {
	defer wrap(&err, "GetOAuthTokenByHash")
	notFound := engine.Errorf(engine.CodeNotFound, "no such token")
	if !lookupKey(hash) {
		return identity.OAuthToken{}, notFound
	}
	var role string
	t, err = scanOAuthToken(s.pool.QueryRow(ctx, `SELECT `+oauthTokenColumns+`, `+userRoleNow+`
		FROM oauth_tokens t WHERE hash = $1`, hash), &role)
	t.UserRole = engine.Role(role)
	if errors.Is(err, pgx.ErrNoRows) {
		return identity.OAuthToken{}, notFound
	}
	return t, err
}

// UseRefreshToken marks a refresh token spent and returns it; first is
// false when it was spent before. Like UseOAuthCode, concurrent rotations
// of one token agree on a single winner. not_found when no refresh token
// has the hash.
func (s *Store) UseRefreshToken(ctx context.Context, hash string, at time.Time) (t identity.OAuthToken, first bool, err error) {
	defer wrap(&err, "UseRefreshToken")
	notFound := engine.Errorf(engine.CodeNotFound, "no such token")
	if !lookupKey(hash) {
		return identity.OAuthToken{}, false, notFound
	}
	t, err = scanOAuthToken(s.pool.QueryRow(ctx, `UPDATE oauth_tokens SET used_at = $2
		WHERE hash = $1 AND kind = 'refresh' AND used_at IS NULL RETURNING `+oauthTokenColumns, hash, at))
	if err == nil {
		return t, true, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return identity.OAuthToken{}, false, err
	}
	t, err = scanOAuthToken(s.pool.QueryRow(ctx, `SELECT `+oauthTokenColumns+` FROM oauth_tokens
		WHERE hash = $1 AND kind = 'refresh'`, hash))
	if errors.Is(err, pgx.ErrNoRows) {
		return identity.OAuthToken{}, false, notFound
	}
	return t, false, err
}

// RevokeOAuthGrant revokes every live token of a grant; a grant without
// live tokens is not an error (a replayed code may have issued none).
func (s *Store) RevokeOAuthGrant(ctx context.Context, grantID string, at time.Time) (err error) {
	defer wrap(&err, "RevokeOAuthGrant(%q)", grantID)
	_, err = s.pool.Exec(ctx, `UPDATE oauth_tokens SET revoked_at = $2 WHERE grant_id = $1 AND revoked_at IS NULL`, grantID, at)
	return err
}

// RevokeOAuthToken revokes one token; one revoked before keeps its first
// revocation time. not_found when the token does not exist.
func (s *Store) RevokeOAuthToken(ctx context.Context, id string, at time.Time) (err error) {
	defer wrap(&err, "RevokeOAuthToken(%q)", id)
	if !lookupKey(id) {
		return engine.ErrNotFound("token", id)
	}
	tag, err := s.pool.Exec(ctx, `UPDATE oauth_tokens SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1`, id, at)
	if err == nil && tag.RowsAffected() == 0 {
		return engine.ErrNotFound("token", id)
	}
	return err
}
