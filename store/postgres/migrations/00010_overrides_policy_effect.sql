-- Manual decisions on findings, and what a policy does when it matches.

-- +goose Up
-- A person's decision on a finding: accepted as a known risk (resolution
-- 'accepted_risk', held across audits until it expires or is reopened) or
-- reopened (resolution '', which undoes an accepted risk that the latest
-- snapshot already holds). One row per finding: the latest decision wins.
CREATE TABLE finding_overrides (
    tenant_id  text COLLATE "C" NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    finding_id text COLLATE "C" NOT NULL,
    resolution text NOT NULL CHECK (resolution IN ('accepted_risk', '')),
    note       text NOT NULL DEFAULT '',
    created_by text NOT NULL DEFAULT '',
    created_at timestamptz NOT NULL,
    expires_at timestamptz,
    PRIMARY KEY (tenant_id, finding_id)
);

ALTER TABLE policies ADD COLUMN effect text NOT NULL DEFAULT 'raise'
    CHECK (effect IN ('raise', 'severity_at_least', 'severity_at_most'));

-- +goose Down
ALTER TABLE policies DROP COLUMN effect;
DROP TABLE finding_overrides;
