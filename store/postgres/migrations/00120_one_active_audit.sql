-- At most one audit per tenant is queued or running (issue 28): a second
-- start is conflict. Enforced here, by a partial unique index, because two
-- starts racing through the engine's check could both queue. It replaces
-- audits_one_running_per_tenant (one running per tenant), which it implies.
-- Tenants that queued several audits before keep the running one, or else
-- the oldest waiting one; the others are canceled.

-- +goose Up
UPDATE audits a SET status = 'canceled', completed_at = COALESCE(a.completed_at, now()),
    error = 'canceled by migration 00120: another audit of the tenant was queued or running',
    claimed_by = NULL, claimed_until = NULL
WHERE a.status IN ('queued', 'running') AND a.id <> (
    SELECT k.id FROM audits k WHERE k.tenant_id = a.tenant_id AND k.status IN ('queued', 'running')
    ORDER BY k.status = 'running' DESC, k.id LIMIT 1);
CREATE UNIQUE INDEX audits_one_active_per_tenant ON audits (tenant_id) WHERE status IN ('queued', 'running');
DROP INDEX audits_one_running_per_tenant;

-- +goose Down
CREATE UNIQUE INDEX audits_one_running_per_tenant ON audits (tenant_id) WHERE status = 'running';
DROP INDEX audits_one_active_per_tenant;
