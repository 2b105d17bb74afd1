-- fourd control-plane schema: what people configure and what must change
-- atomically. Analytics (inventory, finding snapshots, the event log) live in
-- ClickHouse. Later features add their own migrations (00002+): webhook
-- endpoints and deliveries, OAuth clients, codes and refresh tokens.
--
-- Conventions:
-- * Ids are time-sortable ULIDs with a prefix (aud_01h…). They are stored as
--   text COLLATE "C" so that ORDER BY id is byte order, i.e. creation order,
--   whatever the database's default collation is.
-- * Every tenant-owned table has UNIQUE (tenant_id, id): it is the keyset
--   index of "newest first" lists (ORDER BY id DESC) and the target of
--   composite foreign keys, so a row can never refer to another tenant's row.
-- * Enums are text with CHECK constraints (cheap to extend in a migration).
-- * Work queues (audits, reports, the event outbox) carry claim columns for
--   workers using FOR UPDATE SKIP LOCKED: claimed_by, claimed_until (a lease
--   that another worker may take over once expired) and attempts.

-- +goose Up
CREATE TABLE tenants (
    id         text COLLATE "C" PRIMARY KEY,
    slug       text NOT NULL UNIQUE CHECK (slug <> ''),
    name       text NOT NULL,
    created_at timestamptz NOT NULL
);

CREATE TABLE users (
    id            text COLLATE "C" PRIMARY KEY,
    tenant_id     text COLLATE "C" NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    email         text NOT NULL CHECK (email <> ''),
    role          text NOT NULL CHECK (role IN ('admin', 'member', 'viewer')),
    password_hash text,
    created_at    timestamptz NOT NULL,
    UNIQUE (tenant_id, id)
);
-- One user per email and tenant, whatever the case of the address.
CREATE UNIQUE INDEX users_tenant_email_key ON users (tenant_id, lower(email));

-- Personal access tokens. Only the SHA-256 of the secret is stored.
CREATE TABLE tokens (
    id           text COLLATE "C" PRIMARY KEY,
    tenant_id    text COLLATE "C" NOT NULL,
    user_id      text COLLATE "C" NOT NULL,
    name         text NOT NULL DEFAULT '',
    hash         text NOT NULL UNIQUE,
    scopes       text[] NOT NULL DEFAULT '{}',
    rate_limit   integer NOT NULL DEFAULT 0 CHECK (rate_limit >= 0),
    created_at   timestamptz NOT NULL,
    expires_at   timestamptz,
    last_used_at timestamptz,
    revoked_at   timestamptz,
    UNIQUE (tenant_id, id),
    FOREIGN KEY (tenant_id, user_id) REFERENCES users (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX tokens_tenant_user_idx ON tokens (tenant_id, user_id, id);

CREATE TABLE audits (
    id            text COLLATE "C" PRIMARY KEY,
    tenant_id     text COLLATE "C" NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    status        text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed', 'canceled')),
    -- The audit a reanalysis re-evaluated.
    parent_id     text COLLATE "C",
    requested_by  text NOT NULL DEFAULT '', -- a user id, or "system"
    progress      jsonb NOT NULL DEFAULT '{}',
    summary       jsonb,
    error         text NOT NULL DEFAULT '',
    created_at    timestamptz NOT NULL,
    started_at    timestamptz,
    completed_at  timestamptz,
    claimed_by    text,
    claimed_until timestamptz,
    attempts      integer NOT NULL DEFAULT 0,
    UNIQUE (tenant_id, id),
    FOREIGN KEY (tenant_id, parent_id) REFERENCES audits (tenant_id, id) ON DELETE SET NULL (parent_id),
    CHECK (status <> 'completed' OR completed_at IS NOT NULL)
);
-- Several audits may wait in the queue, but a tenant runs at most one at a
-- time: snapshots are diffed against the previous one, in order.
CREATE UNIQUE INDEX audits_one_running_per_tenant ON audits (tenant_id) WHERE status = 'running';
-- LatestCompletedAudit: the current snapshot of a tenant.
CREATE INDEX audits_latest_completed_idx ON audits (tenant_id, completed_at DESC, id DESC) WHERE status = 'completed';
-- The work queue: waiting audits, and running ones whose lease may expire.
CREATE INDEX audits_queue_idx ON audits (id) WHERE status IN ('queued', 'running');

CREATE TABLE policies (
    id             text COLLATE "C" PRIMARY KEY,
    tenant_id      text COLLATE "C" NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    name           text NOT NULL CHECK (name <> ''),
    description    text NOT NULL DEFAULT '',
    expression     text NOT NULL CHECK (expression <> ''),
    dimension      text NOT NULL CHECK (dimension IN ('security', 'cost', 'architecture', 'compliance')),
    severity       text NOT NULL CHECK (severity IN ('info', 'low', 'medium', 'high', 'critical')),
    resource_types text[] NOT NULL DEFAULT '{}',
    title          text NOT NULL DEFAULT '',
    remediation    text NOT NULL DEFAULT '',
    enabled        boolean NOT NULL DEFAULT true,
    version        integer NOT NULL DEFAULT 1 CHECK (version >= 1),
    created_at     timestamptz NOT NULL,
    updated_at     timestamptz NOT NULL,
    -- Deleted policies are kept: findings of past snapshots still name them.
    deleted_at     timestamptz,
    UNIQUE (tenant_id, id)
);
-- A live policy's name is unique in its tenant, whatever its case.
CREATE UNIQUE INDEX policies_tenant_name_key ON policies (tenant_id, lower(name)) WHERE deleted_at IS NULL;

CREATE TABLE reports (
    id            text COLLATE "C" PRIMARY KEY,
    tenant_id     text COLLATE "C" NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    kind          text NOT NULL CHECK (kind IN ('executive_summary', 'remediation_plan', 'compliance_evidence')),
    status        text NOT NULL CHECK (status IN ('pending', 'ready', 'failed')),
    audit_id      text COLLATE "C",
    filters       jsonb,
    error         text NOT NULL DEFAULT '',
    checksum      text NOT NULL DEFAULT '', -- hex SHA-256 of document
    document      bytea,                    -- the JSON document: the report's content
    pdf           bytea,                    -- rendered from document
    created_at    timestamptz NOT NULL,
    completed_at  timestamptz,
    claimed_by    text,
    claimed_until timestamptz,
    attempts      integer NOT NULL DEFAULT 0,
    UNIQUE (tenant_id, id),
    FOREIGN KEY (tenant_id, audit_id) REFERENCES audits (tenant_id, id) ON DELETE SET NULL (audit_id),
    CHECK (status <> 'ready' OR document IS NOT NULL)
);
CREATE INDEX reports_queue_idx ON reports (id) WHERE status = 'pending';

-- The transactional outbox: events are written in the transaction that
-- changes the state they describe, then fanned out to webhook deliveries
-- (their own tables, in a later migration) by a dispatcher.
CREATE TABLE events (
    id            text COLLATE "C" PRIMARY KEY,
    tenant_id     text COLLATE "C" NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    type          text NOT NULL CHECK (type <> ''),
    created_at    timestamptz NOT NULL,
    data          jsonb NOT NULL,
    -- Set once the event has been fanned out to every subscribed endpoint.
    dispatched_at timestamptz,
    -- How many deliveries the fan-out created.
    fanout_count  integer NOT NULL DEFAULT 0,
    claimed_by    text,
    claimed_until timestamptz,
    attempts      integer NOT NULL DEFAULT 0,
    UNIQUE (tenant_id, id)
);
CREATE INDEX events_undispatched_idx ON events (id) WHERE dispatched_at IS NULL;

-- +goose Down
DROP TABLE events;
DROP TABLE reports;
DROP TABLE policies;
DROP TABLE audits;
DROP TABLE tokens;
DROP TABLE users;
DROP TABLE tenants;
