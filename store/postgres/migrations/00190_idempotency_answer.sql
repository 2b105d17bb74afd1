-- An answer kept for an Idempotency-Key replay is one opaque value: the API
-- adapter's encoding of its status, headers and body (rest), sealed by
-- engine, which neither engine nor this store reads (issue 30). The new
-- column holds it. Adding a nullable column without a default changes only
-- the catalog, so it is safe on a live table.
--
-- status, content_type, location and body stay for the replicas of the
-- previous build during a rolling upgrade: they read and write only those,
-- and a record written by one build cannot be opened by the other (a NULL
-- answer, another seal), so a retry across builds is a conflict, never a
-- second effect. A later migration drops them.
-- +goose Up
ALTER TABLE idempotency_keys ADD COLUMN answer bytea;
-- +goose Down
ALTER TABLE idempotency_keys DROP COLUMN answer;
