package clickhouse_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ClickHouse/clickhouse-go/v2/lib/column"
	"github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// Writing String columns directly relies on the driver's layout: this
// fails when a driver upgrade changes it, instead of losing the speed
// silently. It also checks that the server receives exactly what was
// appended.
func TestRawStringColumn(t *testing.T) {
	if !clickhouse.CanPresize {
		t.Fatal("column.String's layout is not the one rawStringColumn knows: update stringColumnLayout")
	}
	s := chtest.New(t)
	ctx := context.Background()
	if err := s.Exec(ctx, "CREATE TABLE presize (a String, n UInt8) ENGINE = Memory"); err != nil {
		t.Fatal(err)
	}
	b, err := s.PrepareBatch(ctx, "INSERT INTO presize (a, n)")
	if err != nil {
		t.Fatal(err)
	}
	vals := []string{"", "x", strings.Repeat("long ", 100)}
	raw := clickhouse.RawStringColumn(b, 0)
	if raw == nil {
		t.Fatal("no raw buffer for a String column")
	}
	if clickhouse.RawStringColumn(b, 1) != nil || clickhouse.RawStringColumn(b, 7) != nil {
		t.Fatal("a raw String buffer for a UInt8 column or a column that does not exist")
	}
	for _, v := range vals {
		raw.Append(v)
	}
	if got := clickhouse.StringColumnCap(b.Columns()[0].(*column.String)); got < len(vals[2]) {
		t.Fatalf("the column's buffer holds %d bytes, want ≥ %d", got, len(vals[2]))
	}
	if err := b.Column(1).Append([]uint8{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	if err := b.Send(); err != nil {
		t.Fatal(err)
	}
	got, err := s.QueryStrings(ctx, "SELECT a FROM presize ORDER BY n")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, "|") != strings.Join(vals, "|") {
		t.Fatalf("read back %q, want %q", got, vals)
	}
}

func TestRawStringArrayColumn(t *testing.T) {
	if !clickhouse.CanRawArray {
		t.Fatal("column.Array's layout is not the one rawStringArrayColumn knows: update arrayColumnLayout")
	}
	s := chtest.New(t)
	ctx := context.Background()
	if err := s.Exec(ctx, "CREATE TABLE raw_array (n UInt8, a Array(String), s String, i Array(UInt8)) ENGINE = Memory"); err != nil {
		t.Fatal(err)
	}
	b, err := s.PrepareBatch(ctx, "INSERT INTO raw_array (n, a, s, i)")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []int{0, 2, 3, 4} {
		if clickhouse.AppendRawStringArray(b, c, nil) {
			t.Fatalf("raw Array(String) buffers for column %d", c)
		}
	}
	rows := [][]string{{"a", "bc"}, nil, {""}, {strings.Repeat("long ", 100), "x", "y"}, {}}
	for j, r := range rows {
		// Raw appends and the driver's interleave: the offsets run on.
		if j%2 == 0 {
			if !clickhouse.AppendRawStringArray(b, 1, r) {
				t.Fatal("no raw buffers for an Array(String) column")
			}
		} else if err := b.Column(1).AppendRow(r); err != nil {
			t.Fatal(err)
		}
		if err := b.Column(0).AppendRow(uint8(j)); err != nil {
			t.Fatal(err)
		}
		if err := b.Column(2).AppendRow("s"); err != nil {
			t.Fatal(err)
		}
		if err := b.Column(3).AppendRow([]uint8{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Send(); err != nil {
		t.Fatal(err)
	}
	got, err := s.QueryStrings(ctx, "SELECT arrayStringConcat(arrayMap(x -> concat('<', x, '>'), a), ',') FROM raw_array ORDER BY n")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, r := range rows {
		var w []string
		for _, v := range r {
			w = append(w, "<"+v+">")
		}
		want = append(want, strings.Join(w, ","))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("(-want +got)\n%s", diff)
	}
}
