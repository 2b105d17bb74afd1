package bulk_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"strings"
	"testing"

	ch "github.com/ClickHouse/clickhouse-go/v2"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
	"github.com/fourd-dev/fourd/store/clickhouse/internal/bulk"
)

// conn opens a connection to a fresh database on the test server (dropped
// when the test ends) and creates table t there: the columns bulk's
// appenders fill.
func conn(t testing.TB) driver.Conn {
	t.Helper()
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	db := "t_" + hex.EncodeToString(b[:])
	chtest.CreateDatabase(t, db)
	t.Cleanup(func() { chtest.DropDatabase(t, db) })
	opts, err := ch.ParseDSN(chtest.WithDatabase(t, chtest.URL(), db))
	if err != nil {
		t.Fatal(err)
	}
	c, err := ch.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Exec(context.Background(), "CREATE TABLE t (n UInt32, s String, a Array(String)) ENGINE = Memory"); err != nil {
		t.Fatal(err)
	}
	return c
}

// row is one row of table t.
type row struct {
	N uint32
	S string
	A []string
}

// insert writes rows into t through bulk's appenders, as blocks of at most
// block rows of one INSERT (the driver reuses its columns' buffers across
// the blocks), and reads them back in order.
func insert(t testing.TB, c driver.Conn, rows []row, block int) []row {
	t.Helper()
	ctx := context.Background()
	b, err := c.PrepareBatch(ctx, "INSERT INTO t (n, s, a)")
	if err != nil {
		t.Fatal(err)
	}
	var strs []string
	var ns []uint32
	var arrays bulk.StringArrays
	for len(rows) > 0 {
		part := rows[:min(block, len(rows))]
		rows = rows[len(part):]
		if err := bulk.Gather(b.Column(0), &ns, len(part), func(j int) uint32 { return part[j].N }); err != nil {
			t.Fatal(err)
		}
		if err := bulk.Strings(b.Column(1), &strs, len(part), func(j int) string { return part[j].S }); err != nil {
			t.Fatal(err)
		}
		for _, r := range part {
			if err := arrays.AppendRow(b.Column(2), len(r.A), func(k int) *string { return &r.A[k] }); err != nil {
				t.Fatal(err)
			}
		}
		if err := b.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Send(); err != nil {
		t.Fatal(err)
	}
	q, err := c.Query(ctx, "SELECT n, s, a FROM t ORDER BY n")
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	var got []row
	for q.Next() {
		var r row
		if err := q.Scan(&r.N, &r.S, &r.A); err != nil {
			t.Fatal(err)
		}
		if len(r.A) == 0 {
			r.A = nil
		}
		got = append(got, r)
	}
	if err := q.Err(); err != nil {
		t.Fatal(err)
	}
	if err := c.Exec(ctx, "TRUNCATE TABLE t"); err != nil {
		t.Fatal(err)
	}
	return got
}

// The appenders write exactly what they are given, across blocks of one
// INSERT whose later blocks are shorter than the first (no value of an
// earlier block may linger in the driver's reused buffers).
func TestAppendersRoundTrip(t *testing.T) {
	c := conn(t)
	var rows []row
	for i := range 50 {
		r := row{N: uint32(i), S: strings.Repeat(strconv.Itoa(i), 50-i)}
		for k := range i % 4 {
			r.A = append(r.A, strings.Repeat("v", (i+k)%7))
		}
		rows = append(rows, r)
	}
	rows = append(rows, row{N: 50}, row{N: 51, S: "é\x00\xff", A: []string{"", "ü", ""}})
	for _, block := range []int{1, 7, len(rows)} {
		if diff := cmp.Diff(rows, insert(t, c, rows, block)); diff != "" {
			t.Fatalf("blocks of %d: (-want +got)\n%s", block, diff)
		}
	}
}

// FuzzAppenders writes fuzzed strings and arrays through the driver and
// reads them back: what the server stores is what was appended.
func FuzzAppenders(f *testing.F) {
	f.Add("", "", uint8(0))
	f.Add("x", "a\x00b", uint8(3))
	f.Add(strings.Repeat("long ", 200), "\xff\xfe", uint8(17))
	c := conn(f)
	f.Fuzz(func(t *testing.T, s, elem string, n uint8) {
		rows := []row{{N: 1, S: s}, {N: 2, S: elem + s}}
		for k := range int(n % 20) {
			rows[0].A = append(rows[0].A, elem[:k%(len(elem)+1)])
		}
		rows[1].A = []string{s}
		if diff := cmp.Diff(rows, insert(t, c, rows, 1)); diff != "" {
			t.Fatalf("(-want +got)\n%s", diff)
		}
	})
}

// FuzzString checks that String views exactly b's bytes.
func FuzzString(f *testing.F) {
	f.Add([]byte(nil))
	f.Add([]byte("abc\x00\xff"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got := bulk.String(b); got != string(b) || len(got) != len(b) {
			t.Fatalf("String(%q) = %q", b, got)
		}
	})
}
