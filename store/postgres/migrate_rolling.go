//go:build fourd_rolling_migration

package postgres

import (
	"embed"
	"io/fs"
)

// A build with the fourd_rolling_migration tag has one more PostgreSQL
// migration than the release (testdata/rolling/migrations), as it has one
// more ClickHouse migration (store/clickhouse/migrate_rolling.go): the "new
// build" of the rolling restart in cmd/fourd TestSeveralReplicas, which has
// to show that a real schema change of both stores between two builds
// loses no request while both builds serve.

//go:embed testdata/rolling/migrations/*.sql
var rollingFS embed.FS

func init() {
	sub, err := fs.Sub(rollingFS, "testdata/rolling/migrations")
	if err != nil {
		panic("postgres: the rolling test migration: " + err.Error()) // cannot happen: the folder is embedded
	}
	extraMigrations = sub
}
