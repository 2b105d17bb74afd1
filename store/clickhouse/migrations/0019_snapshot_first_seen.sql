-- The range of first_seen_at in each snapshot (issue 33 §3): a
-- first_seen_after/before filter outside it matches nothing and one
-- covering it matches every row, which a reader then knows without
-- reading the snapshot (first_seen_range.go). Written with the snapshot,
-- before its marker; a snapshot may have more than one row (a retried
-- write whose failed attempt's row is not deleted yet), and readers take
-- the least lo and the greatest hi, a range that holds every row's. A
-- snapshot without a row (written by an older build during a rolling
-- upgrade) is read as before. Keyed and sharded like snapshot_findings.
CREATE TABLE IF NOT EXISTS snapshot_first_seen (
    snapshot   UInt64,
    lo         DateTime('UTC'),
    hi         DateTime('UTC'),
    written_at DateTime('UTC')
) ENGINE = MergeTree
PARTITION BY toYYYYMM(written_at)
ORDER BY snapshot;

-- Every snapshot written before: one read of two narrow columns.
INSERT INTO snapshot_first_seen (snapshot, lo, hi, written_at)
SELECT snapshot, min(first_seen_at), max(first_seen_at), any(written_at)
FROM snapshot_findings
GROUP BY snapshot;
