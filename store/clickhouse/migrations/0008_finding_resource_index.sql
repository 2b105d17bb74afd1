-- The resource index of a snapshot (which findings a resource has), keyed
-- by the snapshot's 8-byte key, snapshotKey(tenant_id, audit_id) =
-- cityHash64(concat(tenant_id, '\0', audit_id)), instead of the two 31-byte
-- ids. The index is a second row per finding, and those two strings, the
-- same in every row of a snapshot, were 60 % of its bytes: copying 10M keys
-- into this table costs the server half of what finding_resource_keys did
-- (docs/benchmarks.md, issue 2). Snapshots written before keep their keys
-- in finding_resource_keys or finding_resources; readers look in all three
-- and filter the findings on tenant, audit and the real resource id, so
-- neither a resource hash nor a snapshot key shared by chance can show
-- another resource's or snapshot's findings.
CREATE TABLE IF NOT EXISTS finding_resource_index (
    snapshot      UInt64,
    resource_hash UInt64,
    sev_order     UInt8,
    id            String,
    written_at    DateTime('UTC')
) ENGINE = MergeTree
PARTITION BY toYYYYMM(written_at)
ORDER BY (snapshot, resource_hash, sev_order, id)
SETTINGS index_granularity = 1024;
