-- The resources carrying each tag (issue 33 §3): one row per tag of every
-- resource version written, kept by a materialized view on resources, so
-- that the tag filter finds its candidates in a range of the key
-- (tenant_id, tag_key, tag_value) instead of scanning every resource of
-- the tenant. A version's tags may have changed since: readers keep the
-- candidates whose latest version still carries the tag (latestMatching),
-- which reads only the candidates' granules of resources. Rows are never
-- deleted, as resources' are not.
CREATE TABLE IF NOT EXISTS resource_tag_index (
    tenant_id String,
    tag_key   String,
    tag_value String,
    id        String,
    version   UInt64
) ENGINE = MergeTree
ORDER BY (tenant_id, tag_key, tag_value, id)
SETTINGS index_granularity = 1024;

CREATE MATERIALIZED VIEW IF NOT EXISTS resource_tag_index_mv TO resource_tag_index AS
SELECT tenant_id, tags.key AS tag_key, tags.value AS tag_value, id, version FROM resources ARRAY JOIN tags;

-- The resources written before the view (a version written meanwhile is
-- indexed twice, which changes no candidate set).
INSERT INTO resource_tag_index (tenant_id, tag_key, tag_value, id, version)
SELECT tenant_id, tags.key, tags.value, id, version FROM resources ARRAY JOIN tags;
