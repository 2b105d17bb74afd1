package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/fourd-dev/fourd/engine"
)

// ResetSchemaForTest drops every table, migration bookkeeping included, so
// that a test can migrate from scratch.
func ResetSchemaForTest(ctx context.Context, s *Store) error {
	_, err := s.pool.Exec(ctx, "DROP SCHEMA public CASCADE; CREATE SCHEMA public")
	return err
}

// EventsForTest returns the tenant's outbox in id order.
func EventsForTest(ctx context.Context, s *Store, tenantID string) ([]engine.Event, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, tenant_id, type, created_at, data FROM events WHERE tenant_id = $1 ORDER BY id`, tenantID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (engine.Event, error) {
		var e engine.Event
		err := r.Scan(&e.ID, &e.TenantID, &e.Type, &e.CreatedAt, &e.Data)
		e.CreatedAt = e.CreatedAt.UTC()
		return e, err
	})
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
