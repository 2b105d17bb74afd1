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

// TestMemoRows is the differential test of pages and counts from the
// memo's rows of a selective filter (filter_memo_rows.go): after a first
// page by key has had the memo read the filter's rows, every query of
// TestKeyedTagPages (ordinary filters, a status under people's decisions
// and mutes, other row filters, cursors across pages and severity
// buckets) pages through the same findings and counts the same, grouped
// by status and severity too, as computed from the findings written and
// as the reads by key without the rows (which it is checked against);
// tenant B's snapshot under the same audit id, its resources tagged
// alike, answers its own findings from its own rows.
func TestMemoRows(t *testing.T) {
	s, aud, queries, wantOf := keyedFixture(t)
	ctx := context.Background()
	count := func(tenant string, q engine.FindingQuery, groupBy ...engine.GroupBy) []engine.FindingCount {
		t.Helper()
		cq := engine.FindingCountQuery{TenantID: tenant, Filter: q.Filter, ForceResolved: q.ForceResolved, ForceOpen: q.ForceOpen,
			Mutes: q.Mutes, GroupBy: groupBy, Rows: true}
		cq.Filter.AuditID = aud
		got, err := s.CountFindings(ctx, cq)
		if err != nil {
			t.Fatalf("CountFindings: %v", err)
		}
		return got
	}
	warm := func(tenant string, q engine.FindingQuery) {
		t.Helper()
		q.TenantID, q.Filter.AuditID, q.Limit = tenant, aud, 5
		if _, err := s.ListFindings(ctx, q); err != nil {
			t.Fatal(err)
		}
		s.WaitMemoFills(t)
	}
	for i, q := range queries {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			want := wantOf(t, q)
			restore := clickhouse.SetMemoRows(false)
			wantByStatus := count("ten_a", q, engine.GroupByStatus, engine.GroupBySeverity)
			wantB := pageAllQuery(t, s, "ten_b", aud, q, 200)
			restore()
			fills := clickhouse.MemoRowFills()
			warm("ten_a", q)
			keyed := len(want) > 0 // every query here is read by key (its filter lists resources)
			if n := clickhouse.MemoRowFills() - fills; n > 1 {
				t.Errorf("the memo read the rows %d times, want at most once (an earlier query of the same tag and q may have)", n)
			}
			reads := clickhouse.MemoRowReads()
			for _, limit := range []int{9, 200} {
				if diff := gocmp.Diff(want, pageAllQuery(t, s, "ten_a", aud, q, limit)); diff != "" {
					t.Errorf("limit %d: pages (-want +got):\n%s", limit, diff)
				}
			}
			if got := count("ten_a", q); len(got) != 1 || got[0].Count != int64(len(want)) {
				t.Errorf("count %+v, want %d", got, len(want))
			}
			if diff := gocmp.Diff(wantByStatus, count("ten_a", q, engine.GroupByStatus, engine.GroupBySeverity)); diff != "" {
				t.Errorf("count by status and severity (-without the rows +with):\n%s", diff)
			}
			if n := clickhouse.MemoRowReads() - reads; keyed && n < 4 {
				t.Errorf("%d reads from the memo's rows, want every page and count", n)
			}
			warm("ten_b", q)
			if diff := gocmp.Diff(wantB, pageAllQuery(t, s, "ten_b", aud, q, 200)); diff != "" {
				t.Errorf("tenant B (-without the rows +with):\n%s", diff)
			}
		})
	}
}

// TestMemoRowsReadNoGranule: once the memo has read a selective tag's
// rows, a page by cursor reads no granule of the snapshot (the reads by
// key before read a granule per key in every part: at 10M ~320 for a page
// of 60, ~80 ms of ClickHouse CPU under load), with the same findings.
func TestMemoRowsReadNoGranule(t *testing.T) {
	if chtest.Cluster() != "" {
		t.Skip("counts the queries in one server's system.query_log")
	}
	s, aud, f := fewOwnersFixture(t)
	ctx := context.Background()
	first, err := s.ListFindings(ctx, engine.FindingQuery{TenantID: "ten_a", Filter: f, Limit: 5})
	if err != nil || len(first) != 5 {
		t.Fatalf("first page: %d findings, %v; want 5", len(first), err)
	}
	s.WaitMemoFills(t)
	last := first[len(first)-1]
	next := engine.FindingQuery{TenantID: "ten_a", Filter: f, Limit: 40, After: &engine.FindingKey{SeverityRank: last.Severity.Rank(), ID: last.ID}}
	marks, pages := map[bool]uint64{}, map[bool][]engine.Finding{}
	for _, rows := range []bool{false, true} {
		restore := clickhouse.SetMemoRows(rows)
		marks[rows] = clickhouse.SelectedMarks(t, s, "ten_a", aud, func() {
			if pages[rows], err = s.ListFindings(ctx, next); err != nil || len(pages[rows]) != 40 {
				t.Errorf("rows %v: %d findings, %v; want 40", rows, len(pages[rows]), err)
			}
		})
		restore()
	}
	t.Logf("granules read by a page by cursor: from the memo's rows %d, by key %d", marks[true], marks[false])
	if marks[true] != 0 || marks[false] == 0 {
		t.Errorf("a page read %d granules from the memo's rows, %d by key: want none and some", marks[true], marks[false])
	}
	if diff := gocmp.Diff(pages[false], pages[true]); diff != "" {
		t.Errorf("the page (-by key +from the rows):\n%s", diff)
	}
}

// TestMemoCountDoesNotWaitForRows: a count asked while the memo reads a
// selective tag's rows (here held until the count is done) counts by key
// at once instead of waiting for that read (at 10M ~0.75 s of ClickHouse
// CPU, 0.7–1.5 s under load, against ~0.3 s by key: issue 33 §3), with
// the same answer; once the rows are kept, the count comes from them.
// Before, the count waited for the read: here, until its own deadline.
func TestMemoCountDoesNotWaitForRows(t *testing.T) {
	s, _, f := fewOwnersFixture(t)
	release, started := make(chan struct{}), make(chan struct{}, 1)
	restore := clickhouse.SetMemoFillHook(func() {
		started <- struct{}{}
		<-release
	})
	defer restore()
	released := false
	defer func() {
		if !released {
			close(release)
		}
	}()
	ctx := context.Background()
	if got, err := s.ListFindings(ctx, engine.FindingQuery{TenantID: "ten_a", Filter: f, Limit: 5}); err != nil || len(got) != 5 {
		t.Fatalf("first page: %d findings, %v; want 5", len(got), err)
	}
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("the first page started no read of the tag's rows")
	}
	cctx, cancel := context.WithTimeout(ctx, 8*time.Second)
	defer cancel()
	reads, start := clickhouse.MemoRowReads(), time.Now()
	got, err := s.CountFindings(cctx, engine.FindingCountQuery{TenantID: "ten_a", Filter: f, GroupBy: []engine.GroupBy{engine.GroupBySeverity}})
	took := time.Since(start)
	var n int64
	for _, g := range got {
		n += g.Count
	}
	if err != nil || n != 100 {
		t.Fatalf("count while the rows are read: %d (%+v), %v after %v; want 100 at once", n, got, err, took)
	}
	if clickhouse.MemoRowReads() != reads {
		t.Errorf("the count came from the memo's rows, which were not read yet")
	}
	close(release)
	released = true
	s.WaitMemoFills(t)
	reads = clickhouse.MemoRowReads()
	again, err := s.CountFindings(ctx, engine.FindingCountQuery{TenantID: "ten_a", Filter: f, GroupBy: []engine.GroupBy{engine.GroupBySeverity}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := gocmp.Diff(got, again); diff != "" {
		t.Errorf("count by severity (-by key +from the rows):\n%s", diff)
	}
	if clickhouse.MemoRowReads() == reads {
		t.Errorf("the count after the rows were kept did not come from them")
	}
}
