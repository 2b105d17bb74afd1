package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/identity"
)

const clientColumns = `id, tenant_id, name, redirect_uris, secret_hash, rate_limit, created_at, revoked_at, scopes`

func scanClient(row pgx.Row) (identity.OAuthClient, error) {
	var c identity.OAuthClient
	var scopes []string
	err := row.Scan(&c.ID, &c.TenantID, &c.Name, &c.RedirectURIs, &c.SecretHash, &c.RateLimit, &c.CreatedAt, &c.RevokedAt, &scopes)
	c.Scopes = fromStrings[engine.Scope](scopes)
	if c.RedirectURIs == nil {
		c.RedirectURIs = []string{}
	}
	c.CreatedAt, c.RevokedAt = utc(c.CreatedAt), utcp(c.RevokedAt)
	return c, err
}

// CreateOAuthClient stores a client. conflict when the id exists;
// validation_failed for an unknown tenant.
func (s *Store) CreateOAuthClient(ctx context.Context, c identity.OAuthClient) (err error) {
	defer wrap(&err, "CreateOAuthClient(%q)", c.ID)
	_, err = s.pool.Exec(ctx, `INSERT INTO oauth_clients (`+clientColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		c.ID, c.TenantID, c.Name, toStrings(c.RedirectURIs), c.SecretHash, c.RateLimit, c.CreatedAt, c.RevokedAt, toStrings(c.Scopes))
	return err
}

// GetOAuthClient returns a client by id, revoked or not, whatever its
// tenant (client ids are global); not_found otherwise.
func (s *Store) GetOAuthClient(ctx context.Context, id string) (c identity.OAuthClient, err error) {
	defer wrap(&err, "GetOAuthClient(%q)", id)
	if !lookupKey(id) {
		return identity.OAuthClient{}, engine.ErrNotFound("oauth client", id)
	}
	c, err = scanClient(s.pool.QueryRow(ctx, `SELECT `+clientColumns+` FROM oauth_clients WHERE id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return identity.OAuthClient{}, engine.ErrNotFound("oauth client", id)
	}
	return c, err
}

// ListOAuthClients returns the tenant's live clients, newest first.
func (s *Store) ListOAuthClients(ctx context.Context, tenantID string) (cs []identity.OAuthClient, err error) {
	defer wrap(&err, "ListOAuthClients(%q)", tenantID)
	rows, err := s.pool.Query(ctx, `SELECT `+clientColumns+` FROM oauth_clients
		WHERE tenant_id = $1 AND revoked_at IS NULL ORDER BY id DESC`, tenantID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (identity.OAuthClient, error) { return scanClient(r) })
}

// RevokeOAuthClient marks a live client of the tenant revoked and revokes
// its live tokens, in one transaction; not_found for a missing, revoked or
// other tenant's client.
func (s *Store) RevokeOAuthClient(ctx context.Context, tenantID, id string, at time.Time) (err error) {
	defer wrap(&err, "RevokeOAuthClient(%q, %q)", tenantID, id)
	if !lookupKey(id) {
		return engine.ErrNotFound("oauth client", id)
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE oauth_clients SET revoked_at = $3
			WHERE tenant_id = $1 AND id = $2 AND revoked_at IS NULL`, tenantID, id, at)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return engine.ErrNotFound("oauth client", id)
		}
		_, err = tx.Exec(ctx, `UPDATE oauth_tokens SET revoked_at = $2 WHERE client_id = $1 AND revoked_at IS NULL`, id, at)
		return err
	})
}

const codeColumns = `hash, grant_id, tenant_id, client_id, user_id, redirect_uri, scopes, code_challenge, created_at, expires_at, used_at`

func scanCode(row pgx.Row) (identity.OAuthCode, error) {
	var c identity.OAuthCode
	var scopes []string
	err := row.Scan(&c.Hash, &c.GrantID, &c.TenantID, &c.ClientID, &c.UserID, &c.RedirectURI, &scopes,
		&c.CodeChallenge, &c.CreatedAt, &c.ExpiresAt, &c.UsedAt)
	c.Scopes = fromStrings[engine.Scope](scopes)
	c.CreatedAt, c.ExpiresAt, c.UsedAt = utc(c.CreatedAt), utc(c.ExpiresAt), utcp(c.UsedAt)
	return c, err
}

// CreateOAuthCode stores an authorization code; validation_failed when the
// client or user is not in the tenant.
func (s *Store) CreateOAuthCode(ctx context.Context, c identity.OAuthCode) (err error) {
	defer wrap(&err, "CreateOAuthCode")
	_, err = s.pool.Exec(ctx, `INSERT INTO oauth_codes (`+codeColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
		c.Hash, c.GrantID, c.TenantID, c.ClientID, c.UserID, c.RedirectURI, toStrings(c.Scopes), c.CodeChallenge,
		c.CreatedAt, c.ExpiresAt, c.UsedAt)
	return err
}

// UseOAuthCode marks a code used and returns it; first is false for a code
// used before (it keeps its first use time). The UPDATE … WHERE used_at IS
// NULL makes concurrent exchanges of one code agree on a single winner.
// not_found when no code has the hash.
func (s *Store) UseOAuthCode(ctx context.Context, hash string, at time.Time) (c identity.OAuthCode, first bool, err error) {
	defer wrap(&err, "UseOAuthCode")
	notFound := engine.Errorf(engine.CodeNotFound, "no such authorization code")
	if !lookupKey(hash) {
		return identity.OAuthCode{}, false, notFound
	}
	c, err = scanCode(s.pool.QueryRow(ctx, `UPDATE oauth_codes SET used_at = $2
		WHERE hash = $1 AND used_at IS NULL RETURNING `+codeColumns, hash, at))
	if err == nil {
		return c, true, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return identity.OAuthCode{}, false, err
	}
	c, err = scanCode(s.pool.QueryRow(ctx, `SELECT `+codeColumns+` FROM oauth_codes WHERE hash = $1`, hash))
	if errors.Is(err, pgx.ErrNoRows) {
		return identity.OAuthCode{}, false, notFound
	}
	return c, false, err
}
