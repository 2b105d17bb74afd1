package bulk_test

import (
	"context"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/store/clickhouse/internal/bulk"
)

// reserveTable creates table r: a String, a FixedString and a column
// Reserve leaves alone.
func reserveTable(t testing.TB, c driver.Conn) {
	t.Helper()
	if err := c.Exec(context.Background(), "CREATE TABLE r (n UInt32, s String, f FixedString(4)) ENGINE = Memory"); err != nil {
		t.Fatal(err)
	}
}

type reserveRow struct {
	N uint32
	S string
	F string
}

// A reserved INSERT sends exactly what is appended after the reservation:
// no made-up row of the decode that sized the columns, blocks larger and
// smaller than the reservation, empty and long values; a column that
// already holds rows is left as it is.
func TestReserveRoundTrip(t *testing.T) {
	c := conn(t)
	reserveTable(t, c)
	ctx := context.Background()
	var want []reserveRow
	for i := range 300 {
		want = append(want, reserveRow{N: uint32(i), S: strings.Repeat("x", i%40), F: strconv.Itoa(1000 + i)})
	}
	want[7].S, want[8].S = "", strings.Repeat("long", 500)
	b, err := c.PrepareBatch(ctx, "INSERT INTO r (n, s, f)")
	if err != nil {
		t.Fatal(err)
	}
	cols := b.Columns()
	for i, col := range cols {
		if err := bulk.Reserve(col, 100, 1000); err != nil {
			t.Fatalf("column %d: %v", i, err)
		}
	}
	if n := b.Rows(); n != 0 {
		t.Fatalf("%d rows after reserving, want 0", n)
	}
	var ns []uint32
	var ss, fs []string
	for _, block := range [][]reserveRow{want[:150], want[150:160], want[160:]} {
		if err := bulk.Gather(b.Column(0), &ns, len(block), func(j int) uint32 { return block[j].N }); err != nil {
			t.Fatal(err)
		}
		if err := bulk.Strings(b.Column(1), &ss, len(block), func(j int) string { return block[j].S }); err != nil {
			t.Fatal(err)
		}
		if err := bulk.Strings(b.Column(2), &fs, len(block), func(j int) string { return block[j].F }); err != nil {
			t.Fatal(err)
		}
		// A column with rows is not touched.
		if err := bulk.Reserve(b.Columns()[1], 1000, 1000); err != nil {
			t.Fatal(err)
		}
		if err := b.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Send(); err != nil {
		t.Fatal(err)
	}
	q, err := c.Query(ctx, "SELECT n, s, f FROM r ORDER BY n")
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	var got []reserveRow
	for q.Next() {
		var r reserveRow
		if err := q.Scan(&r.N, &r.S, &r.F); err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	if err := q.Err(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("(-want +got)\n%s", diff)
	}
}

// After Reserve, a first block of the reserved size appends without
// growing the driver's buffers; without it, they grow many times. (If a
// driver upgrade stops sizing columns on decode, this says so.)
func TestReserveSparesGrowth(t *testing.T) {
	c := conn(t)
	reserveTable(t, c)
	const rows = 20_000
	vals := make([]string, rows)
	size := 0
	for i := range vals {
		vals[i] = "res_" + strconv.Itoa(i*7919)
		size += len(vals[i])
	}
	allocated := func(reserve bool) uint64 {
		b, err := c.PrepareBatch(context.Background(), "INSERT INTO r (n, s, f)")
		if err != nil {
			t.Fatal(err)
		}
		defer b.Abort()
		col := b.Columns()[1]
		if reserve {
			if err := bulk.Reserve(col, rows, size); err != nil {
				t.Fatal(err)
			}
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if err := b.Column(1).Append(vals); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	grown, reserved := allocated(false), allocated(true)
	// Either way the driver's Append allocates a null mask (a byte a
	// row); grown, the values' bytes and positions (24 bytes a row) are
	// copied over and over.
	if reserved > 2*rows || grown < uint64(size+16*rows) {
		t.Fatalf("appending %d values of %d bytes: %d bytes allocated reserved, %d grown", rows, size, reserved, grown)
	}
}

// BenchmarkReserve is a first block of 100k 30-byte values appended to a
// new INSERT's String column, grown value by value or reserved first. The
// INSERT's round trip is not timed.
func BenchmarkReserve(b *testing.B) {
	c := conn(b)
	reserveTable(b, c)
	const rows = 100_000
	vals := make([]string, rows)
	for i := range vals {
		vals[i] = "res_" + strings.Repeat("0", 20) + strconv.Itoa(100000+i)
	}
	size := rows * len(vals[0])
	for _, reserve := range []bool{false, true} {
		b.Run(map[bool]string{false: "grown", true: "reserved"}[reserve], func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				b.StopTimer()
				batch, err := c.PrepareBatch(context.Background(), "INSERT INTO r (n, s, f)")
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if reserve {
					if err := bulk.Reserve(batch.Columns()[1], rows, size); err != nil {
						b.Fatal(err)
					}
				}
				if err := batch.Column(1).Append(vals); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				batch.Abort()
				b.StartTimer()
			}
		})
	}
}
