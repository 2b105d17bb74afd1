-- Mute set upkeep (issue 33 §1): superseded_at is when another set of the
-- same snapshot became the one reads use (or no rule applied to it any
-- more). A sweep deletes sets superseded longer ago than a grace period
-- that outlasts any read cache still naming their build, the row first
-- (so that the set, if it becomes current again, is built anew), then the
-- build's rows in ClickHouse. Deleting a row notifies the read caches.

-- +goose Up
ALTER TABLE mute_sets ADD COLUMN superseded_at timestamptz;
CREATE INDEX mute_sets_superseded ON mute_sets (superseded_at) WHERE superseded_at IS NOT NULL;
CREATE TRIGGER mute_sets_notify_delete AFTER DELETE ON mute_sets
    FOR EACH ROW WHEN (OLD.built_at IS NOT NULL)
    EXECUTE FUNCTION fourd_notify_change('overrides');
-- The sweep asks which tenants' rules expired since it last looked.
CREATE INDEX mute_rules_expires ON mute_rules (expires_at) WHERE deleted_at IS NULL AND enabled;

-- +goose Down
DROP INDEX mute_rules_expires;
DROP TRIGGER mute_sets_notify_delete ON mute_sets;
DROP INDEX mute_sets_superseded;
ALTER TABLE mute_sets DROP COLUMN superseded_at;
