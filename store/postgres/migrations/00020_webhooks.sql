-- Webhook endpoints and the deliveries that the outbox's events fan out to.
--
-- Dispatchers (any number, in any replica) share the work:
-- * fan-out claims undispatched events (events.dispatched_at IS NULL) with
--   FOR UPDATE SKIP LOCKED and inserts one delivery per subscribed enabled
--   endpoint in the same transaction that marks them dispatched. It selects
--   by that flag, not by an id watermark: ids are time-sortable but commit
--   order is not id order, so a watermark would skip a late-committing event.
-- * a delivery is due when next_attempt_at <= now and its status is pending,
--   or delivering with an expired lease (its dispatcher died): claiming sets
--   status delivering, counts the attempt and moves next_attempt_at to the
--   lease's end, so one partial index serves both cases.

-- +goose Up
CREATE TABLE webhook_endpoints (
    id                     text COLLATE "C" PRIMARY KEY,
    tenant_id              text COLLATE "C" NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
    url                    text NOT NULL CHECK (url <> ''),
    event_types            text[] NOT NULL CHECK (cardinality(event_types) > 0),
    description            text NOT NULL DEFAULT '',
    enabled                boolean NOT NULL DEFAULT true,
    disabled_reason        text NOT NULL DEFAULT '',
    disabled_at            timestamptz,
    failing_since          timestamptz,
    -- AES-GCM under a key derived from FOURD_SECRET (webhook.SealSecret);
    -- the clear secret is never stored.
    secret_sealed          text NOT NULL CHECK (secret_sealed <> ''),
    previous_secret_sealed text,
    previous_expires_at    timestamptz,
    created_at             timestamptz NOT NULL,
    updated_at             timestamptz NOT NULL,
    -- Deleted endpoints are kept: their deliveries stay readable.
    deleted_at             timestamptz,
    UNIQUE (tenant_id, id)
);
-- Fan-out: the live, enabled endpoints of a tenant.
CREATE INDEX webhook_endpoints_live_idx ON webhook_endpoints (tenant_id) WHERE enabled AND deleted_at IS NULL;

CREATE TABLE webhook_deliveries (
    id               text COLLATE "C" PRIMARY KEY,
    tenant_id        text COLLATE "C" NOT NULL,
    event_id         text COLLATE "C" NOT NULL,
    endpoint_id      text COLLATE "C" NOT NULL,
    origin           text NOT NULL CHECK (origin IN ('fanout', 'redeliver', 'recover', 'test')),
    status           text NOT NULL CHECK (status IN ('pending', 'delivering', 'delivered', 'failed')),
    attempts         integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at  timestamptz,
    first_attempt_at timestamptz,
    claimed_by       text,
    last_status_code integer NOT NULL DEFAULT 0,
    last_error       text NOT NULL DEFAULT '',
    created_at       timestamptz NOT NULL,
    updated_at       timestamptz NOT NULL,
    delivered_at     timestamptz,
    UNIQUE (tenant_id, id),
    FOREIGN KEY (tenant_id, event_id) REFERENCES events (tenant_id, id) ON DELETE CASCADE,
    FOREIGN KEY (tenant_id, endpoint_id) REFERENCES webhook_endpoints (tenant_id, id) ON DELETE CASCADE,
    CHECK (status NOT IN ('pending', 'delivering') OR next_attempt_at IS NOT NULL)
);
-- Claiming: due deliveries in time order.
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status IN ('pending', 'delivering');
-- A fan-out creates one delivery per event and endpoint, even if retried.
CREATE UNIQUE INDEX webhook_deliveries_fanout_key ON webhook_deliveries (event_id, endpoint_id) WHERE origin = 'fanout';
-- The inspection lists, newest first.
CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (tenant_id, event_id, id);
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (tenant_id, endpoint_id, id);

-- The attempt log: one row per attempt started.
CREATE TABLE webhook_delivery_attempts (
    delivery_id     text COLLATE "C" NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    attempt         integer NOT NULL CHECK (attempt >= 1),
    started_at      timestamptz NOT NULL,
    outcome         text NOT NULL CHECK (outcome IN ('success', 'retry', 'gone', 'failed', 'abandoned')),
    status_code     integer NOT NULL DEFAULT 0,
    latency_us      bigint NOT NULL DEFAULT 0,
    error           text NOT NULL DEFAULT '',
    next_attempt_at timestamptz,
    PRIMARY KEY (delivery_id, attempt)
);

-- Events by type for GET /v1/events?type=…, newest first.
CREATE INDEX events_tenant_type_idx ON events (tenant_id, type, id);

-- +goose Down
DROP INDEX events_tenant_type_idx;
DROP TABLE webhook_delivery_attempts;
DROP TABLE webhook_deliveries;
DROP TABLE webhook_endpoints;
