-- Finding snapshots: one row per finding per completed audit, never updated.
--
-- The order key puts one snapshot in one contiguous key range and follows
-- the engine's list order inside it: sev_order = 5 - severity rank (0 is
-- critical), then id. DESIGN.md names (tenant_id, audit_id, id); adding the
-- severity is a deliberate refinement so that a keyset page is a key range.
--
-- Partitions are months of the write time (written_at is one value per
-- snapshot), so a snapshot's batches never fan out over partitions, the
-- partition count stays small whatever the number of tenants, and retention
-- can drop whole months instantly (DROP PARTITION). A single snapshot is
-- dropped with an asynchronous ALTER … DELETE.
--
-- The small index granularity keeps point lookups and short key ranges to a
-- small read per part on these wide rows.
CREATE TABLE IF NOT EXISTS findings (
    tenant_id     String,
    audit_id      String,
    sev_order     UInt8,
    id            String,
    severity      Enum8('info' = 1, 'low' = 2, 'medium' = 3, 'high' = 4, 'critical' = 5),
    dimension     Enum8('security' = 1, 'cost' = 2, 'architecture' = 3, 'compliance' = 4),
    status        Enum8('open' = 1, 'resolved' = 2),
    resolution    String,
    resource_id   String,
    rule_id       String,
    resource_type String,
    provider      String,
    account       String,
    region        String,
    title         String,
    description   String,
    remediation   String,
    evidence      String,
    compliance    Array(String),
    first_seen_at DateTime('UTC'),
    last_seen_at  DateTime('UTC'),
    resolved_at   DateTime('UTC'),
    written_at    DateTime('UTC')
) ENGINE = MergeTree
PARTITION BY toYYYYMM(written_at)
ORDER BY (tenant_id, audit_id, sev_order, id)
SETTINGS index_granularity = 1024;

-- Per-snapshot counts by every field findings can be grouped or filtered by
-- except resource_id, written once right after the snapshot's rows. Counts
-- and the page-size estimates of ListFindings read this instead of the
-- snapshot.
CREATE TABLE IF NOT EXISTS finding_counts (
    tenant_id     String,
    audit_id      String,
    severity      Enum8('info' = 1, 'low' = 2, 'medium' = 3, 'high' = 4, 'critical' = 5),
    dimension     Enum8('security' = 1, 'cost' = 2, 'architecture' = 3, 'compliance' = 4),
    status        Enum8('open' = 1, 'resolved' = 2),
    resource_type String,
    account       String,
    region        String,
    rule_id       String,
    n             UInt64,
    written_at    DateTime('UTC')
) ENGINE = MergeTree
PARTITION BY toYYYYMM(written_at)
ORDER BY (tenant_id, audit_id, severity, dimension, status, resource_type, account, region, rule_id);

-- One row per fully written snapshot, inserted last: its presence says the
-- snapshot is complete (a failed write leaves rows but no marker, and is
-- cleaned up before a retry).
CREATE TABLE IF NOT EXISTS finding_snapshots (
    tenant_id  String,
    audit_id   String,
    findings   UInt64,
    written_at DateTime('UTC')
) ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(written_at)
ORDER BY (tenant_id, audit_id);
