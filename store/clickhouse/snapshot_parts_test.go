package clickhouse_test

import (
	"context"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// Each batch of a snapshot reaches the server as its own block and is
// written as its own part, already sorted: squashed into bigger blocks (as
// the server does with small blocks of one INSERT), they would have to be
// sorted again by the server. With merges stopped, the parts show it; the
// rows read back whole.
func TestSnapshotBatchesWrittenAsParts(t *testing.T) {
	s := chtest.NewWithConfig(t, clickhouse.Config{BatchSize: 1000})
	ctx := context.Background()
	for _, stmt := range []string{"SYSTEM STOP MERGES findings", "SYSTEM STOP MERGES finding_resource_index"} {
		if err := s.Exec(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	aud := engine.NewID(engine.PrefixAudit, testNow)
	a := mustWriteSnapshot(t, s, "ten_a", aud, 5500)
	for _, table := range []string{"findings", "finding_resource_index"} {
		got, err := s.QueryStrings(ctx, `SELECT concat(toString(count()), ' parts of ', toString(sum(rows)), ' rows')
FROM system.parts WHERE database = currentDatabase() AND table = '`+table+`' AND active`)
		if err != nil {
			t.Fatal(err)
		}
		if want := "6 parts of 5500 rows"; len(got) != 1 || got[0] != want {
			t.Errorf("%s: %q, want %q (one part per batch)", table, got, want)
		}
	}
	got := pageAll(t, s, "ten_a", engine.FindingFilter{AuditID: aud}, 200)
	if len(got) != len(a.findings) {
		t.Errorf("read %d findings back, want %d", len(got), len(a.findings))
	}
}
