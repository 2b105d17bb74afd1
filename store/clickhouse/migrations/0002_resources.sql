-- Inventory observations: every sighting of a resource is a row; the latest
-- (highest version, the observation time in nanoseconds) is the resource's
-- state. ReplacingMergeTree folds old observations away over time, but reads
-- never rely on merges having happened (LIMIT 1 BY id over version DESC).
-- Tags are two parallel arrays (no Map type on 18.16). Small granules keep
-- lookups by id (GetResources, the writer's first-seen check) to 256 rows of
-- the wide attributes per id.
CREATE TABLE IF NOT EXISTS resources (
    tenant_id     String,
    id            String,
    version       UInt64,
    provider      String,
    account       String,
    region        String,
    type          String,
    native_id     String,
    name          String,
    tags          Nested(key String, value String),
    attributes    String,
    first_seen_at DateTime('UTC'),
    last_seen_at  DateTime('UTC')
) ENGINE = ReplacingMergeTree(version)
ORDER BY (tenant_id, id)
SETTINGS index_granularity = 256;
