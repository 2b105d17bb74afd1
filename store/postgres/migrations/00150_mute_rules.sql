-- Mute rules (issue 33 §1): a tenant's CEL expressions that silence the open
-- findings they match, with a reason, an owner and an expiry. A rule is
-- soft-deleted so that its history stays listable. mute_rule_history keeps
-- every change (who, when, the rule before and after, as the API shows it).
-- mute_rule_applied records which version of a rule was evaluated over
-- which audit's snapshot; its matches are in ClickHouse (mute_matches), and
-- reads honour a rule on a snapshot only once its current version's
-- application is recorded here. Both notify the read caches ('overrides':
-- they are decisions on findings, as overrides are).

-- +goose Up
CREATE TABLE mute_rules (
    id         text COLLATE "C" PRIMARY KEY,
    tenant_id  text COLLATE "C" NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    expression text NOT NULL CHECK (expression <> ''),
    reason     text NOT NULL CHECK (reason <> ''),
    owner_id   text COLLATE "C" NOT NULL,
    expires_at timestamptz NOT NULL,
    enabled    boolean NOT NULL,
    version    integer NOT NULL CHECK (version > 0),
    created_by text NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    deleted_at timestamptz
);
CREATE INDEX mute_rules_tenant_idx ON mute_rules (tenant_id, id) WHERE deleted_at IS NULL;

CREATE TABLE mute_rule_history (
    id        bigserial PRIMARY KEY,
    tenant_id text COLLATE "C" NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    rule_id   text COLLATE "C" NOT NULL,
    action    text NOT NULL CHECK (action IN ('created', 'updated', 'deleted')),
    actor     text NOT NULL,
    at        timestamptz NOT NULL,
    before    jsonb,
    after     jsonb
);
CREATE INDEX mute_rule_history_rule_idx ON mute_rule_history (tenant_id, rule_id, id);

CREATE TABLE mute_rule_applied (
    tenant_id  text COLLATE "C" NOT NULL,
    rule_id    text COLLATE "C" NOT NULL REFERENCES mute_rules (id) ON DELETE CASCADE,
    audit_id   text COLLATE "C" NOT NULL,
    version    integer NOT NULL,
    matched    bigint NOT NULL,
    applied_at timestamptz NOT NULL,
    PRIMARY KEY (rule_id, audit_id)
);

CREATE TRIGGER mute_rules_notify AFTER INSERT OR UPDATE OR DELETE ON mute_rules
    FOR EACH ROW EXECUTE FUNCTION fourd_notify_change('overrides');
CREATE TRIGGER mute_rule_applied_notify AFTER INSERT OR UPDATE OR DELETE ON mute_rule_applied
    FOR EACH ROW EXECUTE FUNCTION fourd_notify_change('overrides');

-- +goose Down
DROP TABLE mute_rule_applied;
DROP TABLE mute_rule_history;
DROP TABLE mute_rules;
