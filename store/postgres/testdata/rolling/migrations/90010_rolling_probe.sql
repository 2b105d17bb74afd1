-- A migration only a build with the fourd_rolling_migration tag carries
-- (migrate_rolling.go): cmd/fourd TestSeveralReplicas rolls two serve
-- processes from a build without it to one with it, and checks that both
-- builds keep serving, and the old one keeps writing audits, over the
-- migrated table. The shape of a release's online change: a nullable column
-- without a default (a catalog change only) and an index built
-- CONCURRENTLY (no lock that stops writes, so outside a transaction).
-- Never in a release.
-- +goose NO TRANSACTION
-- +goose Up
ALTER TABLE audits ADD COLUMN IF NOT EXISTS rolling_probe text;
CREATE INDEX CONCURRENTLY IF NOT EXISTS audits_rolling_probe_idx ON audits (tenant_id, rolling_probe)
	WHERE rolling_probe IS NOT NULL;
-- +goose Down
DROP INDEX CONCURRENTLY IF EXISTS audits_rolling_probe_idx;
ALTER TABLE audits DROP COLUMN IF EXISTS rolling_probe;
