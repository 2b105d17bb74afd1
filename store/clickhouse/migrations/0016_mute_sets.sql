-- The muted findings of a snapshot under one set of active mute rule
-- versions, materialised when the set changes (issue 33 §1,
-- docs/design/mute-rules.md): one row per muted finding, whichever rules
-- match it, with the rule that mutes it (the oldest active one that
-- matches). build names one build of a set (PostgreSQL mute_sets.build):
-- reads use a build only once PostgreSQL records it complete, so rows of
-- a build cut short are never read. A page's anti-join reads the rows of
-- its key range of one build; mute_set_counts holds the build's counts at
-- the grain of finding_counts, so a count of muted findings is a sum of a
-- few rows instead of a count over every match.
CREATE TABLE IF NOT EXISTS mute_sets (
    snapshot      UInt64,
    build         String,
    sev_order     UInt8,
    id            FixedString(16),
    mute_rule     String,
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
ORDER BY (snapshot, build, sev_order, id)
SETTINGS index_granularity = 1024;

CREATE TABLE IF NOT EXISTS mute_set_counts (
    snapshot      UInt64,
    build         String,
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
ORDER BY (snapshot, build, severity, dimension, status, resource_type, account, region, rule_id);
