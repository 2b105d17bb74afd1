package clickhouse_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse"
)

// The tables of before migration 0013 held finding ids as text; the ones
// read now hold their 16 bytes. A test that builds a database as it was
// before 0013 copies rows with withTextIDs.

// withTextIDs creates the Memory table dst as a copy of what select returns
// from a table with a stored id column, plus tid: the text of that id,
// among the ids of findings.
func withTextIDs(t *testing.T, s *clickhouse.Store, dst, sel string, findings ...[]engine.Finding) {
	t.Helper()
	var hexes, texts []string
	for _, fs := range findings {
		for _, f := range fs {
			b, ok := engine.ParseID(engine.PrefixFinding, f.ID)
			if !ok {
				t.Fatalf("not a finding id: %q", f.ID)
			}
			hexes = append(hexes, fmt.Sprintf("'%X'", b))
			texts = append(texts, "'"+f.ID+"'")
		}
	}
	mustExec(t, s, "DROP TABLE IF EXISTS "+dst)
	mustExec(t, s, "CREATE TABLE "+dst+" ENGINE = Memory AS SELECT *, transform(hex(id), ["+strings.Join(hexes, ", ")+"], ["+
		strings.Join(texts, ", ")+"], '') AS tid FROM ("+sel+")")
	var missing uint64
	mustQueryRow(t, s, "SELECT count() FROM "+dst+" WHERE tid = ''", &missing)
	if missing > 0 {
		t.Fatalf("%d rows of %s have an id outside the findings given", missing, dst)
	}
}

// rerunMigrations runs the migrations from version on again.
func rerunMigrations(t *testing.T, s *clickhouse.Store, versions ...string) {
	t.Helper()
	for _, v := range versions {
		mustExec(t, s, "ALTER TABLE schema_migrations DELETE WHERE version = '"+v+"'")
	}
	if err := s.WaitForMutations(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := s.Migrate(t.Context()); err != nil {
		t.Fatal(err)
	}
}

// keyHex is the stored form of a finding id in hex, for SQL.
func keyHex(t *testing.T, id string) string {
	t.Helper()
	b, ok := engine.ParseID(engine.PrefixFinding, id)
	if !ok {
		t.Fatalf("not a finding id: %q", id)
	}
	return fmt.Sprintf("%X", b)
}
