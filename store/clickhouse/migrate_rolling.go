//go:build fourd_rolling_migration

package clickhouse

import (
	"embed"
	"io/fs"
)

// A build with the fourd_rolling_migration tag has one more migration than
// the release (testdata/rolling/migrations): the "new build" of the rolling
// restart in cmd/fourd TestSeveralReplicas, which has to show that a real
// schema change between two builds loses no request while both serve.

//go:embed testdata/rolling/migrations/*.sql
var rollingFS embed.FS

func init() {
	sub, err := fs.Sub(rollingFS, "testdata/rolling")
	if err != nil {
		panic("clickhouse: the rolling test migration: " + err.Error()) // cannot happen: the folder is embedded
	}
	extraMigrations = sub
}
