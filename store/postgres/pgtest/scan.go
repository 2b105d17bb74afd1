package pgtest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/store/postgres"
	"github.com/jackc/pgx/v5"
)

// storeURLs maps a Store made by Open to its database's URL, for Find.
var storeURLs sync.Map

// URL returns the URL of s's database (a Store from New or Open).
func URL(t testing.TB, s *postgres.Store) string {
	t.Helper()
	u, ok := storeURLs.Load(s)
	if !ok {
		t.Fatal("pgtest: URL needs a Store made by pgtest.New or pgtest.Open")
	}
	return u.(string)
}

// Find returns "table.column" for every column of s's database (a Store
// from New or Open) in which some row holds needle: text, character,
// json, jsonb and array columns as their text, bytea columns as bytes.
// The columns come from information_schema, so a table added later is
// searched too. For tests that prove a secret is not kept in clear.
func Find(t testing.TB, s *postgres.Store, needle string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := pgx.Connect(ctx, URL(t, s))
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	defer c.Close(context.Background())
	rows, err := c.Query(ctx, `SELECT table_schema, table_name, column_name, data_type
		FROM information_schema.columns
		WHERE table_schema NOT IN ('pg_catalog', 'information_schema')
		  AND table_name IN (SELECT table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE')
		  AND data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'bytea', 'ARRAY', 'USER-DEFINED')
		ORDER BY table_name, ordinal_position`)
	if err != nil {
		t.Fatalf("pgtest: listing columns: %v", err)
	}
	type column struct{ schema, table, name, typ string }
	cols, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (column, error) {
		var c column
		return c, r.Scan(&c.schema, &c.table, &c.name, &c.typ)
	})
	if err != nil {
		t.Fatalf("pgtest: listing columns: %v", err)
	}
	if len(cols) == 0 {
		t.Fatal("pgtest: Find saw no columns")
	}
	var found []string
	for _, col := range cols {
		ident := pgx.Identifier{col.schema, col.table}.Sanitize()
		name := pgx.Identifier{col.name}.Sanitize()
		cond := fmt.Sprintf("strpos(%s::text, $1) > 0", name)
		if col.typ == "bytea" {
			cond = fmt.Sprintf("position(convert_to($1, 'UTF8') in %s) > 0", name)
		}
		var hit bool
		q := fmt.Sprintf("SELECT EXISTS (SELECT 1 FROM %s WHERE %s)", ident, cond)
		if err := c.QueryRow(ctx, q, needle).Scan(&hit); err != nil {
			t.Fatalf("pgtest: %s: %v", q, err)
		}
		if hit {
			found = append(found, col.table+"."+col.name)
		}
	}
	return found
}
