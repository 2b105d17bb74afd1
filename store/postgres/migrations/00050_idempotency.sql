-- Idempotency keys of mutating POSTs (engine/idempotency.go): one row per
-- (tenant, caller, key), under way until done, kept until expires_at (a
-- lease while under way, a day once done). An expired row is replaced by
-- the next use of its key and swept by the claims of its tenant.

-- +goose Up
CREATE TABLE idempotency_keys (
    tenant_id    text COLLATE "C" NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    scope        text COLLATE "C" NOT NULL,
    key          text COLLATE "C" NOT NULL CHECK (key <> ''),
    request      text NOT NULL,
    body_hash    bytea,
    done         boolean NOT NULL DEFAULT false,
    status       integer NOT NULL DEFAULT 0,
    content_type text NOT NULL DEFAULT '',
    location     text NOT NULL DEFAULT '',
    body         bytea,
    created_at   timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, scope, key)
);
CREATE INDEX idempotency_keys_expiry_idx ON idempotency_keys (tenant_id, expires_at);

-- +goose Down
DROP TABLE idempotency_keys;
