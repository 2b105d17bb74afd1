package clickhouse_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

func total(t *testing.T, s *clickhouse.Store, tenant, audit string) int64 {
	t.Helper()
	c, err := s.CountFindings(context.Background(), engine.FindingCountQuery{TenantID: tenant, Filter: engine.FindingFilter{AuditID: audit}})
	if err != nil {
		t.Fatal(err)
	}
	return c[0].Count
}

func TestDropMonthsBefore(t *testing.T) {
	now := time.Date(2025, 1, 20, 0, 0, 0, 0, time.UTC)
	s := chtest.NewWithConfig(t, clickhouse.Config{Now: func() time.Time { return now }})
	ctx := context.Background()
	jan := engine.NewID(engine.PrefixAudit, now)
	mustWriteSnapshot(t, s, "ten_a", jan, 300)
	now = time.Date(2025, 3, 2, 0, 0, 0, 0, time.UTC)
	mar := engine.NewID(engine.PrefixAudit, now)
	a := mustWriteSnapshot(t, s, "ten_a", mar, 200)

	dropped, err := s.DropMonthsBefore(ctx, time.Date(2025, 2, 15, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if diff := gocmp.Diff([]string{"202501"}, dropped); diff != "" {
		t.Errorf("dropped (-want +got):\n%s", diff)
	}
	if n := total(t, s, "ten_a", jan); n != 0 {
		t.Errorf("January's snapshot still counts %d findings", n)
	}
	if got := pageAll(t, s, "ten_a", engine.FindingFilter{AuditID: jan}, 50); len(got) != 0 {
		t.Errorf("January's snapshot still lists %d findings", len(got))
	}
	if n := indexRows(t, s, "ten_a", jan); n != 0 {
		t.Errorf("January's snapshot still has %d keys in the resource index", n)
	}
	if got := pageAll(t, s, "ten_a", engine.FindingFilter{AuditID: mar}, 50); !gocmp.Equal(a.findings, got) {
		t.Errorf("March's snapshot changed: %d findings, want %d", len(got), len(a.findings))
	}
}

func TestDropSnapshot(t *testing.T) {
	s := chtest.New(t)
	ctx := context.Background()
	keep := engine.NewID(engine.PrefixAudit, testNow)
	drop := engine.NewID(engine.PrefixAudit, testNow.Add(time.Minute))
	mustWriteSnapshot(t, s, "ten_a", keep, 100)
	mustWriteSnapshot(t, s, "ten_a", drop, 100)
	if err := s.DropSnapshot(ctx, "ten_a", drop); err != nil {
		t.Fatal(err)
	}
	// The deletion is asynchronous: wait for it.
	deadline := time.Now().Add(30 * time.Second)
	for total(t, s, "ten_a", drop) != 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	for {
		var rows uint64
		mustQueryRow(t, s, fmt.Sprintf("SELECT count() FROM snapshot_findings WHERE snapshot = %d", clickhouse.SnapshotKey("ten_a", drop)), &rows)
		if rows == 0 || time.Now().After(deadline) {
			if rows != 0 {
				t.Fatalf("%d rows of the dropped snapshot remain", rows)
			}
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if n := total(t, s, "ten_a", keep); n != 100 {
		t.Errorf("the kept snapshot counts %d, want 100", n)
	}
	if err := s.WaitForMutations(ctx); err != nil {
		t.Fatal(err)
	}
	for audit, want := range map[string]uint64{keep: 100, drop: 0} {
		if got := indexRows(t, s, "ten_a", audit); got != want {
			t.Errorf("the resource index holds %d keys of %s, want %d", got, audit, want)
		}
	}
	// The tables of before migrations 0012 and 0013 are left alone (no
	// mutation rewrites them); snapshot_findings had one (in cluster mode
	// on the snapshot's shard only: read on every shard).
	for table, want := range map[string]bool{"findings": false, "finding_rows": false, "finding_resource_index": false, "snapshot_findings": true} {
		var n uint64
		mustQueryRow(t, s, "SELECT count() FROM "+s.SystemTable("mutations")+" WHERE database = '"+s.Database()+"' AND table = '"+s.LocalTable(table)+"'", &n)
		if (n > 0) != want {
			t.Errorf("%d mutations of %s; want some: %v", n, table, want)
		}
	}
	// The dropped audit can be written again, and filtered by resource.
	again := mustWriteSnapshot(t, s, "ten_a", drop, 10)
	f := again.findings[0]
	if got := pageAll(t, s, "ten_a", engine.FindingFilter{AuditID: drop, ResourceID: f.ResourceID}, 50); len(got) == 0 || got[0].ResourceID != f.ResourceID {
		t.Errorf("the rewritten snapshot's resource filter gave %d findings", len(got))
	}
}

// indexRows counts a snapshot's keys in the resource index.
func indexRows(t *testing.T, s *clickhouse.Store, tenant, audit string) uint64 {
	t.Helper()
	var n uint64
	mustQueryRow(t, s, fmt.Sprintf("SELECT count() FROM snapshot_finding_index WHERE snapshot = %d",
		clickhouse.SnapshotKey(tenant, audit)), &n)
	return n
}
