-- The resources carrying each tag (issue 33 §3), cheaper to write than
-- resource_tag_index (0017), whose view ran in every INSERT into resources
-- and doubled the server's work on a first import (issue 30 §2): the
-- writer now sends these rows itself (resource_tags.go), in large INSERTs
-- already in the key's order, before the resources they index. The tenant
-- and the tag are cityHash64 keys, not strings, and the key holds no id:
-- 18.16 sorts an unsorted block of these rows at 4-5 times the cost of
-- writing a sorted one, and by (tenant, tag, id) the writer's sort compares
-- strings. Readers keep the candidates whose latest version in resources
-- (tenant_id, id) still carries the tag, so a hash shared by two tags or
-- tenants adds candidates, never an answer. tenant is
-- cityHash64(tenant_id), the resources' sharding key in cluster mode; tag
-- is cityHash64(concat(key, '\0', value)).
CREATE TABLE IF NOT EXISTS resource_tags (
    tenant UInt64,
    tag    UInt64,
    id     String
) ENGINE = MergeTree
ORDER BY (tenant, tag)
SETTINGS index_granularity = 1024;

-- The old index's view stops; its table stays, unread by this build, for a
-- build before it during a rolling upgrade (docs/operations.md).
DROP TABLE IF EXISTS resource_tag_index_mv;

-- Every resource version written before (one written meanwhile by an older
-- build is indexed here or by the view).
INSERT INTO resource_tags (tenant, tag, id)
SELECT cityHash64(tenant_id), cityHash64(concat(tag_key, '\0', tag_value)), id
FROM resources ARRAY JOIN tags.key AS tag_key, tags.value AS tag_value;
