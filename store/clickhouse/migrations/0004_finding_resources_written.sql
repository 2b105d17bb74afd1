-- finding_resources is written by the snapshot writer itself, each batch
-- sorted by the table's key, instead of by a materialized view: the view
-- handed the server unsorted blocks, and sorting them cost 18.16 about three
-- times the rest of a snapshot insert (docs/benchmarks.md, issue 2).
DROP TABLE IF EXISTS finding_resources_mv;
