package clickhouse_test

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ClickHouse/clickhouse-go/v2/lib/column"
	"github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
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

// The snapshot writer points FixedString id columns at its own bytes.
func TestRawFixedColumn(t *testing.T) {
	if !clickhouse.CanRawFixed {
		t.Fatal("column.FixedString's layout is not the one rawFixedColumn knows: update fixedStringColumnLayout")
	}
	s := chtest.New(t)
	ctx := context.Background()
	if err := s.Exec(ctx, "CREATE TABLE raw_fixed (n UInt8, id FixedString(4)) ENGINE = Memory"); err != nil {
		t.Fatal(err)
	}
	b, err := s.PrepareBatch(ctx, "INSERT INTO raw_fixed (n, id)")
	if err != nil {
		t.Fatal(err)
	}
	if clickhouse.SetRawFixedColumn(b, 0, nil) || clickhouse.SetRawFixedColumn(b, 5, nil) {
		t.Fatal("a raw FixedString buffer for a UInt8 column or a column that does not exist")
	}
	if !clickhouse.SetRawFixedColumn(b, 1, []byte("abcd\x00\x01\x02\x03wxyz")) {
		t.Fatal("no raw buffer for a FixedString column")
	}
	if err := b.Column(0).Append([]uint8{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	if err := b.Send(); err != nil {
		t.Fatal(err)
	}
	got, err := s.QueryStrings(ctx, "SELECT hex(id) FROM raw_fixed ORDER BY n")
	if err != nil {
		t.Fatal(err)
	}
	if want := "61626364|00010203|7778797A"; strings.Join(got, "|") != want {
		t.Fatalf("read back %q, want %s", got, want)
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

// An inserter's INSERTs take turns with the same String column buffers:
// the second INSERT, of fewer, shorter and different values, must write
// its own values only, none of the first's left in the buffers.
func TestInsertReusesColumnBuffers(t *testing.T) {
	s := chtest.New(t)
	ctx := context.Background()
	res := func(i int, width int) engine.Resource {
		r := genResource("ten_lend", i, testNow)
		r.Name = strings.Repeat(strconv.Itoa(i), width)
		r.Tags = engine.Tags{}
		for k := range width % 5 {
			r.Tags = append(r.Tags, engine.Tag{Key: "k" + strconv.Itoa(k), Value: strings.Repeat("v", width+k)})
		}
		r.Attributes = json.RawMessage(`{"pad":"` + strings.Repeat("p", 10*width) + `"}`)
		return r
	}
	var first, second []engine.Resource
	for i := range 300 {
		first = append(first, res(i, 40+i%7))
	}
	for i := 1000; i < 1100; i++ {
		second = append(second, res(i, i%4))
	}
	var sc clickhouse.ResourceScratch
	if err := s.InsertResources(ctx, &sc, "ten_lend", first); err != nil {
		t.Fatal(err)
	}
	held := sc.StringBuffers()
	if n := len(held) - countNil(held); clickhouse.CanPresize && n < 9 {
		t.Fatalf("%d String buffers held after an INSERT, want at least the 9 String columns'", n)
	}
	if err := s.InsertResources(ctx, &sc, "ten_lend", second); err != nil {
		t.Fatal(err)
	}
	if again := sc.StringBuffers(); !slices.Equal(held, again) {
		t.Errorf("the second INSERT did not take the first's buffers (%v, then %v)", held, again)
	}
	all := append(slices.Clone(first), second...)
	var ids []string
	for _, r := range all {
		ids = append(ids, r.ID)
	}
	got, err := s.GetResources(ctx, "ten_lend", ids)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]engine.Resource{}
	for _, r := range got {
		byID[r.ID] = r
	}
	if len(byID) != len(all) {
		t.Fatalf("read back %d resources, want %d", len(byID), len(all))
	}
	for _, want := range all {
		r := byID[want.ID]
		if r.Name != want.Name || r.NativeID != want.NativeID || r.Account != want.Account ||
			string(r.Attributes) != string(want.Attributes) || !slices.Equal(r.Tags, want.Tags) {
			t.Fatalf("resource %s read back as %+v, want %+v", want.ID, r, want)
		}
	}
}

func countNil[T any](ps []*T) int {
	n := 0
	for _, p := range ps {
		if p == nil {
			n++
		}
	}
	return n
}
