-- Which findings of a snapshot are on which resource: a narrow copy of the
-- findings' keys ordered by resource, kept by a materialized view as the
-- snapshot's rows are inserted. A resource filter (the one selective filter
-- that the per-snapshot counts cannot answer) reads its keys here, then the
-- findings by key, instead of scanning the snapshot.
CREATE TABLE IF NOT EXISTS finding_resources (
    tenant_id   String,
    audit_id    String,
    resource_id String,
    sev_order   UInt8,
    id          String,
    written_at  DateTime('UTC')
) ENGINE = MergeTree
PARTITION BY toYYYYMM(written_at)
ORDER BY (tenant_id, audit_id, resource_id, sev_order, id)
SETTINGS index_granularity = 1024;

CREATE MATERIALIZED VIEW IF NOT EXISTS finding_resources_mv TO finding_resources AS
SELECT tenant_id, audit_id, resource_id, sev_order, id, written_at FROM findings;
