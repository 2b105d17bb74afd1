-- A finding workflow (issue 33 §2): besides accepting a risk, people mark a
-- finding false positive (resolved, resolution 'false_positive', held across
-- audits like an accepted risk), in progress (still open), and assign it to
-- a user of the tenant. Every change is kept in finding_activity, which
-- outlives the decision it records.

-- +goose Up
ALTER TABLE finding_overrides DROP CONSTRAINT finding_overrides_resolution_check;
ALTER TABLE finding_overrides ADD CONSTRAINT finding_overrides_resolution_check
    CHECK (resolution IN ('accepted_risk', 'false_positive', ''));
-- state 'in_progress' is only ever set with resolution '' (an open finding).
ALTER TABLE finding_overrides ADD COLUMN state text NOT NULL DEFAULT ''
    CHECK (state IN ('', 'in_progress') AND (state = '' OR resolution = ''));
ALTER TABLE finding_overrides ADD COLUMN assignee text COLLATE "C";

CREATE TABLE finding_activity (
    tenant_id  text COLLATE "C" NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    finding_id text COLLATE "C" NOT NULL,
    seq        bigserial,
    at         timestamptz NOT NULL,
    actor      text NOT NULL DEFAULT '',
    kind       text NOT NULL CHECK (kind IN ('status_changed', 'assigned', 'note')),
    from_value text NOT NULL DEFAULT '',
    to_value   text NOT NULL DEFAULT '',
    note       text NOT NULL DEFAULT '',
    PRIMARY KEY (tenant_id, finding_id, seq)
);

-- +goose Down
DROP TABLE finding_activity;
DELETE FROM finding_overrides WHERE resolution = 'false_positive';
ALTER TABLE finding_overrides DROP COLUMN assignee;
ALTER TABLE finding_overrides DROP COLUMN state;
ALTER TABLE finding_overrides DROP CONSTRAINT finding_overrides_resolution_check;
ALTER TABLE finding_overrides ADD CONSTRAINT finding_overrides_resolution_check
    CHECK (resolution IN ('accepted_risk', ''));
