-- Finding snapshots, keyed by the snapshot's 8-byte key instead of the two
-- 31-byte ids. snapshot = snapshotKey(tenant_id, audit_id) =
-- cityHash64(concat(tenant_id, '\0', audit_id)), as in
-- finding_resource_index. The ids, the same in every row of a snapshot,
-- were a quarter of a findings row and the first two columns of every key
-- comparison the server makes sorting and merging a snapshot: without them
-- a 10M-finding snapshot costs ClickHouse 27–28 s of CPU instead of 40–42 s
-- (docs/benchmarks.md, issue 2). Readers know the tenant and audit they
-- read; a snapshot's key is checked against every other complete snapshot's
-- before it is written (findings_write.go), so that no two share one.
--
-- Rule texts are in finding_texts (0005): the inline text columns are
-- aliases of nothing, for readers that select them.
CREATE TABLE IF NOT EXISTS finding_rows (
    snapshot      UInt64,
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
    text_id       UInt64,
    evidence      String,
    first_seen_at DateTime('UTC'),
    last_seen_at  DateTime('UTC'),
    resolved_at   DateTime('UTC'),
    written_at    DateTime('UTC'),
    title         String ALIAS '',
    description   String ALIAS '',
    remediation   String ALIAS '',
    compliance    Array(String) ALIAS emptyArrayString()
) ENGINE = MergeTree
PARTITION BY toYYYYMM(written_at)
ORDER BY (snapshot, sev_order, id)
SETTINGS index_granularity = 1024;

-- The snapshots written before move over. Nothing else writes finding_rows
-- before this migration is recorded, so a run cut short is run again from
-- an empty table. Texts still inline (rows older than 0005) move to
-- finding_texts under an id of their own (never 0); the old table is left
-- as it was.
TRUNCATE TABLE finding_rows;

INSERT INTO finding_texts (tenant_id, text_id, title, description, remediation, compliance, written_at)
SELECT tenant_id, bitOr(sipHash64(title, description, remediation, arrayStringConcat(compliance, '\n')), toUInt64(1)),
    title, description, remediation, compliance, min(written_at)
FROM findings WHERE text_id = 0
GROUP BY tenant_id, title, description, remediation, compliance;

INSERT INTO finding_rows (snapshot, sev_order, id, severity, dimension, status, resolution, resource_id, rule_id,
    resource_type, provider, account, region, text_id, evidence, first_seen_at, last_seen_at, resolved_at, written_at)
SELECT cityHash64(concat(tenant_id, '\0', audit_id)), sev_order, id, severity, dimension, status, resolution,
    resource_id, rule_id, resource_type, provider, account, region,
    if(text_id = 0, bitOr(sipHash64(title, description, remediation, arrayStringConcat(compliance, '\n')), toUInt64(1)), text_id),
    evidence, first_seen_at, last_seen_at, resolved_at, written_at
FROM findings;
