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

// TestFirstSeenRange (issue 33 §3): a first-seen filter outside the
// snapshot's range of first_seen_at answers without a read of the
// snapshot (no probe, no pass: a page of a filter keeping nothing cost a
// probe plus a pass, 37/42 ms at 10M), and one covering the range reads
// as an unfiltered page (no probe); the pages, with cursors across pages,
// and the counts are the reference's and the reads' without the ranges,
// at the range's very edges (a DateTime holds whole seconds). Tenant B's
// snapshot under the same audit id, first seen long before, never shows
// nor widens tenant A's range.
func TestFirstSeenRange(t *testing.T) {
	s := chtest.New(t)
	ctx := context.Background()
	aud := engine.NewID(engine.PrefixAudit, testNow)
	a := mustWriteSnapshot(t, s, "ten_a", aud, 2000)
	var b []engine.Finding
	for f := range genFindings("ten_b", 500, testNow) {
		f.FirstSeenAt = f.FirstSeenAt.Add(-1000 * time.Hour)
		b = append(b, f)
	}
	if _, err := s.WriteSnapshot(ctx, "ten_b", aud, sliceSeq(b)); err != nil {
		t.Fatal(err)
	}
	lo, hi := a.findings[0].FirstSeenAt, a.findings[0].FirstSeenAt
	for _, f := range a.findings {
		lo, hi = minTime(lo, f.FirstSeenAt), maxTime(hi, f.FirstSeenAt)
	}
	gotLo, gotHi, ok, err := s.FirstSeenRange(ctx, "ten_a", aud)
	if err != nil || !ok || !gotLo.Equal(lo.Truncate(time.Second)) || !gotHi.Equal(hi.Truncate(time.Second)) {
		t.Fatalf("ten_a's range %v–%v (%v, %v), want %v–%v", gotLo, gotHi, ok, err, lo, hi)
	}
	lo, hi = lo.Truncate(time.Second), hi.Truncate(time.Second)
	ns := time.Nanosecond
	for i, c := range []struct {
		f engine.FindingFilter
		// reads: whether the page reads the snapshot under row filters
		// (probes or a pass) with the ranges; none: it keeps nothing.
		reads, none bool
	}{
		{engine.FindingFilter{FirstSeenBefore: lo}, false, true},
		{engine.FindingFilter{FirstSeenBefore: lo.Add(-500 * time.Hour)}, false, true}, // tenant B's rows
		{engine.FindingFilter{FirstSeenAfter: hi.Add(ns)}, false, true},
		{engine.FindingFilter{FirstSeenAfter: hi.Add(time.Hour), FirstSeenBefore: hi.Add(2 * time.Hour)}, false, true},
		{engine.FindingFilter{FirstSeenAfter: lo}, false, false},
		{engine.FindingFilter{FirstSeenAfter: lo.Add(-2000 * time.Hour), Severity: engine.SeverityLow}, false, false},
		{engine.FindingFilter{FirstSeenBefore: hi.Add(ns), Status: engine.StatusOpen}, false, false},
		{engine.FindingFilter{FirstSeenAfter: lo, FirstSeenBefore: hi.Add(time.Second)}, false, false},
		{engine.FindingFilter{FirstSeenAfter: lo.Add(ns)}, true, false},  // all but the first second
		{engine.FindingFilter{FirstSeenBefore: hi}, true, false},         // all but the last
		{engine.FindingFilter{FirstSeenAfter: hi}, true, false},          // the last second only
		{engine.FindingFilter{FirstSeenBefore: lo.Add(ns)}, true, false}, // the first only
		{engine.FindingFilter{FirstSeenAfter: hi.Add(-36 * time.Hour)}, true, false},
		{engine.FindingFilter{FirstSeenAfter: lo, Compliance: "CIS-AWS-4.0.1:1.1"}, true, false}, // a row filter stays
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			q := engine.FindingQuery{Filter: c.f}
			var want []engine.Finding
			for _, f := range a.findings {
				if keeps(q, f) {
					want = append(want, f)
				}
			}
			if (len(want) == 0) != c.none {
				t.Fatalf("the reference keeps %d findings: the case is not what it says", len(want))
			}
			for _, ranges := range []bool{true, false} {
				restore := clickhouse.SetFirstSeenRanges(ranges)
				for _, limit := range []int{61, 700} {
					probes, passes := clickhouse.RowFilterProbes(), clickhouse.RowFilterPasses()
					got := pageAllQuery(t, s, "ten_a", aud, q, limit)
					reads := clickhouse.RowFilterProbes()-probes+clickhouse.RowFilterPasses()-passes > 0
					if diff := gocmp.Diff(want, got); diff != "" {
						t.Errorf("ranges %v, limit %d: pages (-want +got):\n%s", ranges, limit, diff)
					}
					if ranges && reads != c.reads {
						t.Errorf("limit %d: the pages read the snapshot under row filters: %v, want %v", limit, reads, c.reads)
					}
					if !ranges && !reads {
						t.Errorf("limit %d: without the ranges the pages read under no row filter", limit)
					}
				}
				f := c.f
				f.AuditID = aud
				total, err := s.CountFindings(ctx, engine.FindingCountQuery{TenantID: "ten_a", Filter: f})
				if err != nil || len(total) != 1 || total[0].Count != int64(len(want)) {
					t.Errorf("ranges %v: count %+v (%v), want %d", ranges, total, err, len(want))
				}
				bySev, err := s.CountFindings(ctx, engine.FindingCountQuery{TenantID: "ten_a", Filter: f, GroupBy: []engine.GroupBy{engine.GroupBySeverity}})
				var sum int64
				for _, g := range bySev {
					sum += g.Count
				}
				if err != nil || sum != int64(len(want)) || (c.none && len(bySev) != 0) {
					t.Errorf("ranges %v: by severity %+v (%v), want %d in all", ranges, bySev, err, len(want))
				}
				restore()
			}
		})
	}
}

// TestFirstSeenRangeWritten: the audits' path (AppendSnapshot,
// FinalizeSnapshot) records a snapshot's range as WriteSnapshot does; a
// snapshot without a range (an older build's) is read as before, a pass
// for a filter keeping nothing; migration 0019 records the ranges of the
// snapshots written before it, after which that filter reads nothing.
func TestFirstSeenRangeWritten(t *testing.T) {
	s := chtest.New(t)
	ctx := context.Background()
	const tenant = "ten_fsr"
	aud := engine.NewID(engine.PrefixAudit, testNow)
	var fs []engine.Finding
	for f := range genFindings(tenant, 400, testNow) {
		f.AuditID = aud
		fs = append(fs, f)
	}
	if _, err := s.AppendSnapshot(ctx, tenant, aud, sliceSeq(fs)); err != nil {
		t.Fatal(err)
	}
	if err := s.FinalizeSnapshot(ctx, tenant, aud); err != nil {
		t.Fatal(err)
	}
	lo, hi, ok, err := s.FirstSeenRange(ctx, tenant, aud)
	if err != nil || !ok || !lo.Equal(testNow.Add(-71*time.Hour).Truncate(time.Second)) || !hi.Equal(testNow.Truncate(time.Second)) {
		t.Fatalf("range %v–%v (%v, %v), want the last 71 hours before %v", lo, hi, ok, err, testNow)
	}
	old := engine.NewID(engine.PrefixAudit, testNow.Add(time.Minute))
	mustWriteSnapshot(t, s, tenant, old, 400)
	if err := s.AlterLocal(ctx, "snapshot_first_seen", fmt.Sprintf("DELETE WHERE snapshot = %d", clickhouse.SnapshotKey(tenant, old))); err != nil {
		t.Fatal(err)
	}
	if err := s.WaitForMutations(ctx); err != nil {
		t.Fatal(err)
	}
	if _, _, ok, err := s.FirstSeenRange(ctx, tenant, old); err != nil || ok {
		t.Fatalf("the range of a snapshot without one: %v, %v", ok, err)
	}
	none := engine.FindingFilter{AuditID: old, FirstSeenBefore: testNow.Add(-100 * time.Hour)}
	probes, passes := clickhouse.RowFilterProbes(), clickhouse.RowFilterPasses()
	page, err := s.ListFindings(ctx, engine.FindingQuery{TenantID: tenant, Filter: none, Limit: 10})
	if n := clickhouse.RowFilterProbes() - probes + clickhouse.RowFilterPasses() - passes; err != nil || len(page) != 0 || n == 0 {
		t.Fatalf("without a range: %d findings (%v) from %d row-filtered reads, want none from some", len(page), err, n)
	}
	mustExec(t, s, "ALTER TABLE schema_migrations DELETE WHERE version = '0019_snapshot_first_seen'")
	if err := s.WaitForMutations(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if lo2, hi2, ok, err := s.FirstSeenRange(ctx, tenant, old); err != nil || !ok || !lo2.Equal(lo) || !hi2.Equal(hi) {
		t.Fatalf("after the backfill: %v–%v (%v, %v), want %v–%v", lo2, hi2, ok, err, lo, hi)
	}
	probes, passes = clickhouse.RowFilterProbes(), clickhouse.RowFilterPasses()
	page, err = s.ListFindings(ctx, engine.FindingQuery{TenantID: tenant, Filter: none, Limit: 10})
	if n := clickhouse.RowFilterProbes() - probes + clickhouse.RowFilterPasses() - passes; err != nil || len(page) != 0 || n != 0 {
		t.Fatalf("backfilled: %d findings (%v) from %d row-filtered reads, want none from none", len(page), err, n)
	}
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
