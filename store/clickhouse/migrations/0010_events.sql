-- The event log: the analytic copy of every event fourd emitted (the
-- PostgreSQL outbox is the durable one that webhooks are delivered from).
-- Ids are time-sortable, so (tenant_id, id) is also time order. A retried
-- copy of the same event folds into one row.
CREATE TABLE IF NOT EXISTS events (
    tenant_id  String,
    id         String,
    type       String,
    created_at DateTime('UTC'),
    data       String
) ENGINE = ReplacingMergeTree
ORDER BY (tenant_id, id);
