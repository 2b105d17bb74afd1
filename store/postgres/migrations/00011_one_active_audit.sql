-- A tenant has at most one audit queued or running: starting another while
-- one waits is a conflict (the audit engine diffs snapshots in order, and a
-- second queued pass would audit the same inventory twice).

-- +goose Up
CREATE UNIQUE INDEX audits_one_active_per_tenant ON audits (tenant_id) WHERE status IN ('queued', 'running');

-- +goose Down
DROP INDEX audits_one_active_per_tenant;
