-- Finding snapshots and their resource index with finding ids as the 16
-- bytes their text encodes (engine.ParseID) instead of 30 characters. The
-- text's alphabet sorts like the bytes, so the order (and every keyset
-- cursor) is the same; the store turns ids into bytes for its queries and
-- back when it reads (idkey.go). A String id was a third of what the server
-- sorted, compressed and wrote of a snapshot, twice (rows and index):
-- with FixedString(16) ids the server's CPU for a 10M-finding snapshot
-- write fell from 23–25 s to 16–19 s, and the loadgen's rate from 469k to
-- 572k rows/s (docs/benchmarks.md, issue 2, session 12).
--
-- The tables of before (finding_rows, finding_resource_index, and the
-- resource keys of snapshots older than those, finding_resource_keys and
-- finding_resources) are copied here, their ids decoded by the server, and
-- left as they were; nothing reads them since. A run cut short starts again
-- from empty tables.
CREATE TABLE IF NOT EXISTS snapshot_findings (
    snapshot      UInt64,
    sev_order     UInt8,
    id            FixedString(16),
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

CREATE TABLE IF NOT EXISTS snapshot_finding_index (
    snapshot      UInt64,
    resource_hash UInt64,
    sev_order     UInt8,
    id            FixedString(16),
    written_at    DateTime('UTC')
) ENGINE = MergeTree
PARTITION BY toYYYYMM(written_at)
ORDER BY (snapshot, resource_hash, sev_order, id)
SETTINGS index_granularity = 1024;

TRUNCATE TABLE snapshot_findings;

TRUNCATE TABLE snapshot_finding_index;

-- id_hi and id_lo are the id's two halves, decoded from its 26 characters
-- (the first holds 3 bits, each other 5); the bytes are their big-endian
-- hex, zero-padded to 16 digits each.
INSERT INTO snapshot_findings (snapshot, sev_order, id, severity, dimension, status, resolution, resource_id, rule_id,
    resource_type, provider, account, region, text_id, evidence, first_seen_at, last_seen_at, resolved_at, written_at)
SELECT snapshot, sev_order, toFixedString(unhex(concat(substring(concat('0000000000000000', hex(id_hi)), length(hex(id_hi)) + 1, 16), substring(concat('0000000000000000', hex(id_lo)), length(hex(id_lo)) + 1, 16))), 16), severity, dimension, status, resolution, resource_id, rule_id,
    resource_type, provider, account, region, text_id, evidence, first_seen_at, last_seen_at, resolved_at, written_at
FROM (SELECT snapshot, sev_order, severity, dimension, status, resolution, resource_id, rule_id, resource_type, provider, account, region, text_id, evidence, first_seen_at, last_seen_at, resolved_at, written_at, id, arraySum(arrayMap(i -> bitShiftLeft(toUInt64(position('0123456789abcdefghjkmnpqrstvwxyz', substring(id, 5 + i, 1)) - 1), toUInt8(61 - 5 * i)), range(13)))
        + bitShiftRight(toUInt64(position('0123456789abcdefghjkmnpqrstvwxyz', substring(id, 18, 1)) - 1), 4) AS id_hi,
        arraySum(arrayMap(i -> bitShiftLeft(toUInt64(position('0123456789abcdefghjkmnpqrstvwxyz', substring(id, 19 + i, 1)) - 1), toUInt8(55 - 5 * i)), range(12)))
        + bitShiftLeft(bitAnd(toUInt64(position('0123456789abcdefghjkmnpqrstvwxyz', substring(id, 18, 1)) - 1), 15), 60) AS id_lo
    FROM finding_rows);

INSERT INTO snapshot_finding_index (snapshot, resource_hash, sev_order, id, written_at)
SELECT snapshot, resource_hash, sev_order, toFixedString(unhex(concat(substring(concat('0000000000000000', hex(id_hi)), length(hex(id_hi)) + 1, 16), substring(concat('0000000000000000', hex(id_lo)), length(hex(id_lo)) + 1, 16))), 16), written_at
FROM (SELECT snapshot, resource_hash, sev_order, id, written_at, arraySum(arrayMap(i -> bitShiftLeft(toUInt64(position('0123456789abcdefghjkmnpqrstvwxyz', substring(id, 5 + i, 1)) - 1), toUInt8(61 - 5 * i)), range(13)))
        + bitShiftRight(toUInt64(position('0123456789abcdefghjkmnpqrstvwxyz', substring(id, 18, 1)) - 1), 4) AS id_hi,
        arraySum(arrayMap(i -> bitShiftLeft(toUInt64(position('0123456789abcdefghjkmnpqrstvwxyz', substring(id, 19 + i, 1)) - 1), toUInt8(55 - 5 * i)), range(12)))
        + bitShiftLeft(bitAnd(toUInt64(position('0123456789abcdefghjkmnpqrstvwxyz', substring(id, 18, 1)) - 1), 15), 60) AS id_lo
    FROM finding_resource_index);

INSERT INTO snapshot_finding_index (snapshot, resource_hash, sev_order, id, written_at)
SELECT cityHash64(concat(tenant_id, '\0', audit_id)), resource_hash, sev_order, toFixedString(unhex(concat(substring(concat('0000000000000000', hex(id_hi)), length(hex(id_hi)) + 1, 16), substring(concat('0000000000000000', hex(id_lo)), length(hex(id_lo)) + 1, 16))), 16), written_at
FROM (SELECT tenant_id, audit_id, resource_hash, sev_order, id, written_at, arraySum(arrayMap(i -> bitShiftLeft(toUInt64(position('0123456789abcdefghjkmnpqrstvwxyz', substring(id, 5 + i, 1)) - 1), toUInt8(61 - 5 * i)), range(13)))
        + bitShiftRight(toUInt64(position('0123456789abcdefghjkmnpqrstvwxyz', substring(id, 18, 1)) - 1), 4) AS id_hi,
        arraySum(arrayMap(i -> bitShiftLeft(toUInt64(position('0123456789abcdefghjkmnpqrstvwxyz', substring(id, 19 + i, 1)) - 1), toUInt8(55 - 5 * i)), range(12)))
        + bitShiftLeft(bitAnd(toUInt64(position('0123456789abcdefghjkmnpqrstvwxyz', substring(id, 18, 1)) - 1), 15), 60) AS id_lo
    FROM finding_resource_keys);

INSERT INTO snapshot_finding_index (snapshot, resource_hash, sev_order, id, written_at)
SELECT cityHash64(concat(tenant_id, '\0', audit_id)), cityHash64(resource_id), sev_order, toFixedString(unhex(concat(substring(concat('0000000000000000', hex(id_hi)), length(hex(id_hi)) + 1, 16), substring(concat('0000000000000000', hex(id_lo)), length(hex(id_lo)) + 1, 16))), 16), written_at
FROM (SELECT tenant_id, audit_id, resource_id, sev_order, id, written_at, arraySum(arrayMap(i -> bitShiftLeft(toUInt64(position('0123456789abcdefghjkmnpqrstvwxyz', substring(id, 5 + i, 1)) - 1), toUInt8(61 - 5 * i)), range(13)))
        + bitShiftRight(toUInt64(position('0123456789abcdefghjkmnpqrstvwxyz', substring(id, 18, 1)) - 1), 4) AS id_hi,
        arraySum(arrayMap(i -> bitShiftLeft(toUInt64(position('0123456789abcdefghjkmnpqrstvwxyz', substring(id, 19 + i, 1)) - 1), toUInt8(55 - 5 * i)), range(12)))
        + bitShiftLeft(bitAnd(toUInt64(position('0123456789abcdefghjkmnpqrstvwxyz', substring(id, 18, 1)) - 1), 15), 60) AS id_lo
    FROM finding_resources);
