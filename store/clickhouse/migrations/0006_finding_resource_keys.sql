-- The resource index of a snapshot (which findings a resource has) keyed by
-- cityHash64(resource_id) instead of the 30-byte id: that index is a second
-- row per finding, and sending and merging its string key cost the server
-- as much as the findings themselves (docs/benchmarks.md, issue 2).
-- Snapshots written before keep their keys in finding_resources; readers
-- look in both, and filter the findings on the real resource id, so a hash
-- collision can never show another resource's findings.
CREATE TABLE IF NOT EXISTS finding_resource_keys (
    tenant_id     String,
    audit_id      String,
    resource_hash UInt64,
    sev_order     UInt8,
    id            String,
    written_at    DateTime('UTC')
) ENGINE = MergeTree
PARTITION BY toYYYYMM(written_at)
ORDER BY (tenant_id, audit_id, resource_hash, sev_order, id)
SETTINGS index_granularity = 1024;
