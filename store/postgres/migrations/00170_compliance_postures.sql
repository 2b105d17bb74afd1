-- The compliance trend (issue 33 §4): each completed audit's posture per
-- framework, recorded by the engine when the audit completes, so that a
-- trend is one indexed read. Gone with its audit.

-- +goose Up
CREATE TABLE compliance_postures (
    tenant_id         text COLLATE "C" NOT NULL,
    audit_id          text COLLATE "C" NOT NULL,
    framework_id      text COLLATE "C" NOT NULL,
    completed_at      timestamptz NOT NULL,
    controls          integer NOT NULL,
    passed            integer NOT NULL,
    failed            integer NOT NULL,
    insufficient_data integer NOT NULL,
    not_applicable    integer NOT NULL,
    manual            integer NOT NULL,
    not_assessed      integer NOT NULL,
    PRIMARY KEY (tenant_id, framework_id, completed_at, audit_id),
    UNIQUE (tenant_id, audit_id, framework_id),
    FOREIGN KEY (tenant_id, audit_id) REFERENCES audits (tenant_id, id) ON DELETE CASCADE
);

-- +goose Down
DROP TABLE compliance_postures;
