-- A finding's rule text (title, description, remediation, compliance) is the
-- same for every finding of a rule or policy version, yet made up half of
-- every findings row (589 bytes uncompressed in the bench snapshot) and of
-- the server's work to write and merge a snapshot (docs/benchmarks.md,
-- issue 2). It is now kept once per tenant, keyed by a hash of its content,
-- and findings carry the 8-byte key. Rows written before keep their text
-- inline with text_id 0, and readers take it from there.
CREATE TABLE IF NOT EXISTS finding_texts (
    tenant_id   String,
    text_id     UInt64,
    title       String,
    description String,
    remediation String,
    compliance  Array(String),
    written_at  DateTime('UTC')
) ENGINE = ReplacingMergeTree
ORDER BY (tenant_id, text_id);

ALTER TABLE findings ADD COLUMN text_id UInt64 DEFAULT 0;
