package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/fourd-dev/fourd/engine"
)

// ClaimIdempotencyKey inserts rec, or replaces an expired record of its key,
// in one statement; when an unexpired record holds the key it returns it.
// Expired records of the tenant are swept first.
func (s *Store) ClaimIdempotencyKey(ctx context.Context, rec engine.IdempotencyRecord) (existing engine.IdempotencyRecord, claimed bool, err error) {
	defer wrap(&err, "ClaimIdempotencyKey")
	if _, err := s.pool.Exec(ctx, `DELETE FROM idempotency_keys WHERE tenant_id = $1 AND expires_at < $2`,
		rec.TenantID, rec.CreatedAt); err != nil {
		return existing, false, err
	}
	var one int
	err = s.pool.QueryRow(ctx, `INSERT INTO idempotency_keys (tenant_id, scope, key, request, created_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (tenant_id, scope, key) DO UPDATE SET request = EXCLUDED.request, body_hash = NULL, done = false,
			answer = NULL, status = 0, content_type = '', location = '', body = NULL,
			created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
		WHERE idempotency_keys.expires_at < EXCLUDED.created_at
		RETURNING 1`, rec.TenantID, rec.Scope, rec.Key, rec.Request, rec.CreatedAt, rec.ExpiresAt).Scan(&one)
	if err == nil {
		return existing, true, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return existing, false, err
	}
	// A row the previous build completed (it sets status, never answer,
	// migration 00190) has no answer of this build's: its answer column may
	// be left from an earlier, expired use of the key, so it is not read.
	err = s.pool.QueryRow(ctx, `SELECT tenant_id, scope, key, request, body_hash, done,
		CASE WHEN status = 0 THEN answer END, created_at, expires_at
		FROM idempotency_keys WHERE tenant_id = $1 AND scope = $2 AND key = $3`,
		rec.TenantID, rec.Scope, rec.Key).Scan(&existing.TenantID, &existing.Scope, &existing.Key, &existing.Request,
		&existing.BodyHash, &existing.Done, &existing.Answer, &existing.CreatedAt, &existing.ExpiresAt)
	if errors.Is(err, pgx.ErrNoRows) {
		// Released between the two statements: claim again.
		return s.ClaimIdempotencyKey(ctx, rec)
	}
	return existing, false, err
}

// CompleteIdempotencyKey stores the answer of the request holding the key
// (opaque to the store: the API adapter's encoding, sealed by engine).
func (s *Store) CompleteIdempotencyKey(ctx context.Context, rec engine.IdempotencyRecord) (err error) {
	defer wrap(&err, "CompleteIdempotencyKey")
	_, err = s.pool.Exec(ctx, `UPDATE idempotency_keys SET body_hash = $4, done = true, answer = $5, expires_at = $6
		WHERE tenant_id = $1 AND scope = $2 AND key = $3`,
		rec.TenantID, rec.Scope, rec.Key, rec.BodyHash, rec.Answer, rec.ExpiresAt)
	return err
}

// ReleaseIdempotencyKey forgets a key.
func (s *Store) ReleaseIdempotencyKey(ctx context.Context, tenantID, scope, key string) (err error) {
	defer wrap(&err, "ReleaseIdempotencyKey")
	_, err = s.pool.Exec(ctx, `DELETE FROM idempotency_keys WHERE tenant_id = $1 AND scope = $2 AND key = $3`, tenantID, scope, key)
	return err
}
