-- The findings of a snapshot that each version of a mute rule matched
-- (issue 33 §1, docs/design/mute-rules.md). ref is "<rule id>:<version>";
-- reads honour the refs of the active rules applied to the snapshot
-- (PostgreSQL's mute_rule_applied), so a new version or a disabled rule
-- needs no delete here. The key is the snapshot's, so that a page's
-- anti-join reads only the matches of the page's key range, and the
-- columns of finding_counts are copied so that counts of muted findings
-- read this table alone.
CREATE TABLE IF NOT EXISTS mute_matches (
    snapshot      UInt64,
    sev_order     UInt8,
    id            FixedString(16),
    ref           String,
    severity      Enum8('info' = 1, 'low' = 2, 'medium' = 3, 'high' = 4, 'critical' = 5),
    dimension     Enum8('security' = 1, 'cost' = 2, 'architecture' = 3, 'compliance' = 4),
    status        Enum8('open' = 1, 'resolved' = 2),
    resource_id   String,
    rule_id       String,
    resource_type String,
    account       String,
    region        String,
    written_at    DateTime('UTC')
) ENGINE = MergeTree
PARTITION BY toYYYYMM(written_at)
ORDER BY (snapshot, sev_order, id)
SETTINGS index_granularity = 1024;
