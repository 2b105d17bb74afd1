package clickhouse_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ClickHouse/clickhouse-go/v2/lib/column"

	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// The presizing of String columns relies on the driver's layout: this
// fails when a driver upgrade changes it, instead of losing the speed
// silently. It also checks that a presized column holds exactly what was
// appended.
func TestPresizeStringColumns(t *testing.T) {
	if !clickhouse.CanPresize {
		t.Fatal("column.String's layout is not the one presizeStrings knows: update stringColumnLayout")
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
	clickhouse.PresizeStrings(b, 0, len(vals), 600)
	clickhouse.PresizeStrings(b, 1, 3, 3) // not a String column: nothing happens
	clickhouse.PresizeStrings(b, 7, 3, 3) // no such column: nothing happens
	if got := clickhouse.StringColumnCap(b.Columns()[0].(*column.String)); got < 600 {
		t.Fatalf("presized buffer holds %d bytes, want ≥ 600", got)
	}
	if err := b.Column(0).Append(vals); err != nil {
		t.Fatal(err)
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
