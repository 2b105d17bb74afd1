-- Answers kept for Idempotency-Key replays are now sealed with the server
-- key (engine/idempotency.go): an answer may carry a secret shown once (a
-- personal access token, a webhook signing secret, an OAuth client
-- secret). Answers kept in clear by earlier builds are dropped rather than
-- left at rest for the rest of their day; a retry of one of those requests
-- runs again (issue 28).
-- +goose Up
DELETE FROM idempotency_keys WHERE done;
-- +goose Down
SELECT 1;
