package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fourd-dev/fourd/engine"
)

// ResetSchemaForTest drops every table, migration bookkeeping included, so
// that a test can migrate from scratch.
func ResetSchemaForTest(ctx context.Context, s *Store) error {
	_, err := s.pool.Exec(ctx, "DROP SCHEMA public CASCADE; CREATE SCHEMA public")
	return err
}

// EventsForTest returns the tenant's outbox in id order: its rows and its
// batches' events, read straight from the tables (not as ListEvents does).
func EventsForTest(ctx context.Context, s *Store, tenantID string) ([]engine.Event, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, tenant_id, type, created_at, data::text, 0 FROM events WHERE tenant_id = $1
		UNION ALL
		SELECT id, tenant_id, type, created_at, data::text, count FROM event_batches WHERE tenant_id = $1`, tenantID)
	if err != nil {
		return nil, err
	}
	var evs []engine.Event
	for rows.Next() {
		var e engine.Event
		var count int
		if err := rows.Scan(&e.ID, &e.TenantID, &e.Type, &e.CreatedAt, &e.Data, &count); err != nil {
			return nil, err
		}
		e.CreatedAt = e.CreatedAt.UTC()
		if count == 0 {
			evs = append(evs, e)
			continue
		}
		var data []json.RawMessage
		if err := json.Unmarshal(e.Data, &data); err != nil {
			return nil, err
		}
		if len(data) != count {
			return nil, fmt.Errorf("batch %s: %d events, count %d", e.ID, len(data), count)
		}
		first, _ := parseEventID(e.ID)
		for i, d := range data {
			be := e
			be.ID, be.Data = first.add(uint64(i)).String(), d
			evs = append(evs, be)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	slices.SortFunc(evs, func(a, b engine.Event) int { return strings.Compare(a.ID, b.ID) })
	return evs, nil
}

// EventBatchesForTest returns, per stored batch of the tenant, its number
// of events, and the number of the tenant's event rows.
func EventBatchesForTest(ctx context.Context, s *Store, tenantID string) (batches []int, rows int, err error) {
	r, err := s.pool.Query(ctx, `SELECT count FROM event_batches WHERE tenant_id = $1 ORDER BY id`, tenantID)
	if err != nil {
		return nil, 0, err
	}
	if batches, err = pgx.CollectRows(r, pgx.RowTo[int]); err != nil {
		return nil, 0, err
	}
	err = s.pool.QueryRow(ctx, `SELECT count(*) FROM events WHERE tenant_id = $1`, tenantID).Scan(&rows)
	return batches, rows, err
}

// DeleteTenantForTest deletes a tenant (no API does yet), with what
// cascades from it.
func DeleteTenantForTest(ctx context.Context, s *Store, tenantID string) error {
	_, err := s.pool.Exec(ctx, `DELETE FROM tenants WHERE id = $1`, tenantID)
	return err
}

// TerminateChangeFeedForTest ends the server side of every change feed
// connection to the store's database (as a failover or an administrator
// would) and returns how many it ended.
func TerminateChangeFeedForTest(ctx context.Context, s *Store) (int, error) {
	var n int
	err := s.pool.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE datname = current_database() AND application_name = $1`, changesApplication).Scan(&n)
	return n, err
}

// InsertDeliveryForTest inserts a test delivery of an event (in the batch
// batchID, or a row when "") to an endpoint.
func InsertDeliveryForTest(ctx context.Context, s *Store, tenantID, eventID, batchID, endpointID string, now time.Time) (err error) {
	defer wrap(&err, "InsertDeliveryForTest")
	_, err = insertDeliveries(ctx, s.pool, []newDeliveryRow{{id: engine.NewID(engine.PrefixDelivery, now), tenantID: tenantID,
		eventID: eventID, batchID: batchID, endpointID: endpointID, origin: "test"}}, now)
	return err
}

// CompleteIdempotencyKeyAsBeforeForTest completes a key as the build before
// migration 00190 did: the answer's status and body in their own columns,
// the answer column untouched.
func CompleteIdempotencyKeyAsBeforeForTest(ctx context.Context, s *Store, rec engine.IdempotencyRecord, status int, body []byte) error {
	_, err := s.pool.Exec(ctx, `UPDATE idempotency_keys SET body_hash = $4, done = true, status = $5, content_type = 'application/json',
		location = '', body = $6, expires_at = $7 WHERE tenant_id = $1 AND scope = $2 AND key = $3`,
		rec.TenantID, rec.Scope, rec.Key, rec.BodyHash, status, body, rec.ExpiresAt)
	return err
}

// ClaimIdempotencyKeyAsBeforeForTest claims a key as the build before
// migration 00190 did: an expired record's answer column is left as it was.
func ClaimIdempotencyKeyAsBeforeForTest(ctx context.Context, s *Store, rec engine.IdempotencyRecord) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO idempotency_keys (tenant_id, scope, key, request, created_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (tenant_id, scope, key) DO UPDATE SET request = EXCLUDED.request, body_hash = NULL, done = false,
			status = 0, content_type = '', location = '', body = NULL, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
		WHERE idempotency_keys.expires_at < EXCLUDED.created_at`, rec.TenantID, rec.Scope, rec.Key, rec.Request, rec.CreatedAt, rec.ExpiresAt)
	return err
}
