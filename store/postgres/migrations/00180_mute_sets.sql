-- Materialised mute sets (issue 33 §1, docs/design/mute-rules.md): for a
-- snapshot and one set of active rule versions (set_key, a hash of the
-- ordered "<rule id>:<version>" list), which build of its muted findings
-- (ClickHouse mute_sets and mute_set_counts, rows tagged with build) reads
-- use. A row is claimed (built_at null) by the one replica that builds it;
-- a claim older than the build timeout may be taken over with a new build
-- id. Completing a build notifies the read caches ('overrides'), so every
-- replica starts reading it.

-- +goose Up
CREATE TABLE mute_sets (
    tenant_id  text COLLATE "C" NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    audit_id   text COLLATE "C" NOT NULL,
    set_key    text COLLATE "C" NOT NULL,
    build      text COLLATE "C" NOT NULL,
    muted      bigint,
    claimed_at timestamptz NOT NULL,
    built_at   timestamptz,
    PRIMARY KEY (tenant_id, audit_id, set_key)
);

CREATE TRIGGER mute_sets_notify AFTER UPDATE ON mute_sets
    FOR EACH ROW WHEN (NEW.built_at IS NOT NULL AND OLD.built_at IS NULL)
    EXECUTE FUNCTION fourd_notify_change('overrides');

-- +goose Down
DROP TABLE mute_sets;
