-- A migration only a build with the fourd_rolling_migration tag carries
-- (migrate_rolling.go): cmd/fourd TestSeveralReplicas rolls two serve
-- processes from a build without it to one with it, and checks that the
-- old build keeps serving over the migrated table. Never in a release.
ALTER TABLE snapshot_findings ADD COLUMN rolling_probe String DEFAULT '';
