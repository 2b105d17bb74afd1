// Package chtest gives tests a ClickHouse store of their own: a fresh,
// migrated database on the test server, dropped when the test ends.
package chtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"

	"github.com/fourd-dev/fourd/store/clickhouse"
)

// DefaultURL is the test server when FOURD_TEST_CLICKHOUSE_URL is unset.
const DefaultURL = "clickhouse://127.0.0.1:19000/default"

// URL returns the test server's address from FOURD_TEST_CLICKHOUSE_URL.
func URL() string {
	if u := os.Getenv("FOURD_TEST_CLICKHOUSE_URL"); u != "" {
		return u
	}
	return DefaultURL
}

// Cluster returns the cluster the tests run on, from
// FOURD_TEST_CLICKHOUSE_CLUSTER: empty for one server (make test-cluster
// sets it, with FOURD_TEST_CLICKHOUSE_URL pointing at one of its nodes).
func Cluster() string { return os.Getenv("FOURD_TEST_CLICKHOUSE_CLUSTER") }

// onCluster is the ON CLUSTER clause of the test cluster's DDL.
func onCluster() string {
	if c := Cluster(); c != "" {
		return " ON CLUSTER `" + c + "`"
	}
	return ""
}

// New creates a database t_<random> on the test server (on every node of
// the test cluster when there is one), migrates it and
// returns a store on it; the database is dropped in t.Cleanup. When the
// server is unreachable the test is skipped, or fails when CI=true.
func New(t testing.TB) *clickhouse.Store {
	t.Helper()
	return NewWithConfig(t, clickhouse.Config{})
}

// NewWithConfig is New with a config whose URL is set to the new database.
func NewWithConfig(t testing.TB, cfg clickhouse.Config) *clickhouse.Store {
	t.Helper()
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	db := "t_" + hex.EncodeToString(b[:])
	CreateDatabase(t, db)
	t.Cleanup(func() { DropDatabase(t, db) })
	cfg.URL = WithDatabase(t, URL(), db)
	if cfg.Cluster == "" {
		cfg.Cluster = Cluster()
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := clickhouse.Open(ctx, cfg)
	if err != nil {
		t.Fatalf("chtest: open %s: %v", db, err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.Migrate(ctx); err != nil {
		t.Fatalf("chtest: migrate %s: %v", db, err)
	}
	return s
}

// WithDatabase returns the server URL u pointing at database db.
func WithDatabase(t testing.TB, u, db string) string {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatalf("chtest: FOURD_TEST_CLICKHOUSE_URL: %v", err)
	}
	p.Path = "/" + db
	return p.String()
}

// CreateDatabase creates db on the test server if it does not exist,
// skipping (or failing under CI=true) when the server is unreachable.
func CreateDatabase(t testing.TB, db string) {
	t.Helper()
	exec(t, "CREATE DATABASE IF NOT EXISTS `"+db+"`"+onCluster(), true)
}

// DropDatabase drops db from the test server. On a cluster it first waits
// (up to 30 s) for the database's mutations to finish on every node: an
// 18.16 replica that is finishing a mutation of a table being dropped can
// crash (a segfault in ReplicatedMergeTreeQueue::tryFinalizeMutations).
func DropDatabase(t testing.TB, db string) {
	t.Helper()
	if Cluster() != "" {
		waitForMutations(t, db)
	}
	exec(t, "DROP DATABASE IF EXISTS `"+db+"`"+onCluster(), false)
}

// waitForMutations waits until no node of the test cluster has an
// unfinished mutation in db.
func waitForMutations(t testing.TB, db string) {
	t.Helper()
	opts, err := ch.ParseDSN(URL())
	if err != nil {
		t.Fatalf("chtest: FOURD_TEST_CLICKHOUSE_URL: %v", err)
	}
	opts.Auth.Database = "default"
	conn, err := ch.Open(opts)
	if err != nil {
		return
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var hosts []string
	rows, err := conn.Query(ctx, "SELECT concat(host_address, ':', toString(port)) FROM system.clusters WHERE cluster = ?", Cluster())
	if err != nil {
		return
	}
	for rows.Next() {
		var h string
		if rows.Scan(&h) == nil {
			hosts = append(hosts, h)
		}
	}
	rows.Close()
	for _, h := range hosts {
		for ctx.Err() == nil {
			var n uint64
			q := "SELECT count() FROM remote('" + h + "', system, mutations) WHERE database = ? AND is_done = 0"
			if err := conn.QueryRow(ctx, q, db).Scan(&n); err != nil || n == 0 {
				break
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
}

// exec runs one statement on the test server's default database.
func exec(t testing.TB, stmt string, skipIfDown bool) {
	t.Helper()
	opts, err := ch.ParseDSN(URL())
	if err != nil {
		t.Fatalf("chtest: FOURD_TEST_CLICKHOUSE_URL: %v", err)
	}
	opts.Auth.Database = "default"
	opts.DialTimeout = 3 * time.Second
	conn, err := ch.Open(opts)
	if err == nil {
		defer conn.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err = conn.Ping(ctx); err == nil {
			if err = conn.Exec(ctx, stmt); err != nil {
				t.Fatalf("chtest: %s: %v", stmt, err)
			}
			return
		}
	}
	msg := fmt.Sprintf("chtest: ClickHouse at %s is unreachable (start it with `make services`): %v", URL(), err)
	if !skipIfDown || os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// Strings runs query on s's database and returns its rows' first column,
// which must be a String: for tests to look at what a store wrote where
// the store has no read for it (the event log).
func Strings(t testing.TB, s *clickhouse.Store, query string, args ...any) []string {
	t.Helper()
	opts, err := ch.ParseDSN(URL())
	if err != nil {
		t.Fatalf("chtest: FOURD_TEST_CLICKHOUSE_URL: %v", err)
	}
	opts.Auth.Database = s.Database()
	conn, err := ch.Open(opts)
	if err != nil {
		t.Fatalf("chtest: %v", err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rows, err := conn.Query(ctx, query, args...)
	if err != nil {
		t.Fatalf("chtest: %s: %v", query, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			t.Fatalf("chtest: %s: %v", query, err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("chtest: %s: %v", query, err)
	}
	return out
}

// Find returns "table.column" for every String column of s's database
// (plain, FixedString, Nullable, LowCardinality, or an Array of those) in
// which some row holds needle. The columns come from system.columns, so a
// table added later is searched too. For tests that prove a secret is not
// kept in clear.
func Find(t testing.TB, s *clickhouse.Store, needle string) []string {
	t.Helper()
	type column struct{ table, name, typ string }
	var cols []column
	for _, line := range Strings(t, s, `SELECT concat(table, '\t', name, '\t', type) FROM system.columns
		WHERE database = currentDatabase() AND position(type, 'String') > 0 ORDER BY table, name`) {
		f := strings.SplitN(line, "\t", 3)
		cols = append(cols, column{f[0], f[1], f[2]})
	}
	if len(cols) == 0 {
		t.Fatal("chtest: Find saw no String columns")
	}
	var found []string
	for _, c := range cols {
		cond := "position(toString(`" + c.name + "`), ?) > 0"
		if strings.HasPrefix(c.typ, "Array(") {
			cond = "arrayExists(x -> position(toString(x), ?) > 0, `" + c.name + "`)"
		}
		q := "SELECT toString(count()) FROM `" + c.table + "` WHERE " + cond
		if n := Strings(t, s, q, needle); len(n) != 1 || n[0] != "0" {
			found = append(found, c.table+"."+c.name)
		}
	}
	return found
}
