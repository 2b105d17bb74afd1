-- The q index (issue 33 §3), built by ClickHouse itself, never by the
-- writers (a first import's client pays nothing): resource_tokens.go says
-- what a window is and when a tenant's index is built. token is a window
-- of the lower-cased name and native id, 8 bytes big-endian, so that the
-- windows starting with a prefix are one range of the key (0 for a
-- resource with a non-ASCII character, which every indexed q reads);
-- tenant is cityHash64(tenant_id), the resources' shard. Readers check
-- each candidate's latest version, so a window shared by other resources
-- (or tenants) adds candidates, never an answer. A build after a merge
-- indexes the merged part's rows again: the same rows, which the
-- ReplacingMergeTree folds when it merges, so the index does not grow
-- with every build (readers take DISTINCT ids in any case).
CREATE TABLE IF NOT EXISTS resource_tokens (
    tenant UInt64,
    token  UInt64,
    id     String
) ENGINE = ReplacingMergeTree
ORDER BY (tenant, token, id)
SETTINGS index_granularity = 1024;

-- How far each tenant's index goes: every resources row in a block
-- numbered at most upto (the parts' block numbers, which one server gives
-- in commit order) is indexed; rows in a part with a greater max block are
-- scanned by readers. No row: nothing indexed (every part scanned).
CREATE TABLE IF NOT EXISTS resource_tokens_built (
    tenant_id String,
    upto      UInt64,
    built_at  DateTime('UTC')
) ENGINE = ReplacingMergeTree(upto)
ORDER BY tenant_id;
