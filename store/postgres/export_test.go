package postgres

import "context"

// ResetSchemaForTest drops every table, migration bookkeeping included, so
// that a test can migrate from scratch.
func ResetSchemaForTest(ctx context.Context, s *Store) error {
	_, err := s.pool.Exec(ctx, "DROP SCHEMA public CASCADE; CREATE SCHEMA public")
	return err
}
