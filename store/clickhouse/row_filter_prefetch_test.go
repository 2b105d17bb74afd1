package clickhouse_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse"
)

// TestTagKeysReadWithLatestVersions: the first page of a selective tag
// reads its candidates' keys while their latest versions are checked (the
// check waits here until the keys read has begun: one after the other, it
// would wait in vain), and the page then reads no keys of its own. The
// memo keeps the keys of the resources that still carry the tag only: 5 of
// the 20 candidates lost it in a later version. Pages and counts are those
// of the reads without the prefetch, and of tenant B (the same resources
// tagged alike) none.
func TestTagKeysReadWithLatestVersions(t *testing.T) {
	s, _, f := fewOwnersFixture(t)
	var moved []int
	for i := 0; i < 24_000 && len(moved) < 5; i += 1200 * 4 {
		moved = append(moved, i) // 5 of the 20 tagged owner=few
	}
	var rs []engine.Resource
	for _, i := range moved { // a later version without the tag
		native := "arn:" + strconv.Itoa(i)
		rs = append(rs, engine.Resource{ID: engine.ResourceID("ten_a", "aws", native), TenantID: "ten_a", Provider: "aws",
			Account: "acct-1", Region: "region-1", Type: "aws_instance", NativeID: native, Name: "name-" + strconv.Itoa(i),
			Tags: engine.TagsFromMap(map[string]string{"owner": "other"}), FirstSeenAt: testNow, LastSeenAt: testNow.Add(time.Hour)})
	}
	mustWriteResources(t, s, "ten_a", rs)
	all := func() []engine.Finding {
		var out []engine.Finding
		q := engine.FindingQuery{TenantID: "ten_a", Filter: f, Limit: 7}
		for {
			got, err := s.ListFindings(context.Background(), q)
			if err != nil {
				t.Fatalf("ListFindings: %v", err)
			}
			out = append(out, got...)
			if len(got) < q.Limit {
				return out
			}
			last := got[len(got)-1]
			q.After = &engine.FindingKey{SeverityRank: last.Severity.Rank(), ID: last.ID}
		}
	}
	restore := clickhouse.SetPrefetchKeys(false)
	want := all()
	wantCount := countAll(t, s, "ten_a", f)
	restore()
	if len(want) != 75 || wantCount != 75 {
		t.Fatalf("without the prefetch: %d findings, count %d; want 75 (15 resources)", len(want), wantCount)
	}

	started := make(chan struct{})
	waited := make(chan time.Duration, 4)
	defer clickhouse.SetPrefetchHooks(func() { close(started) }, func() {
		t0 := time.Now()
		select {
		case <-started:
		case <-time.After(10 * time.Second):
		}
		waited <- time.Since(t0)
	})()
	prefetched, keyReads := clickhouse.PrefetchedKeys(), clickhouse.RowFilterKeyedReads()
	first, err := s.ListFindings(context.Background(), engine.FindingQuery{TenantID: "ten_a", Filter: f, Limit: 7})
	if err != nil || len(first) != 7 {
		t.Fatalf("first page: %d findings, %v", len(first), err)
	}
	select {
	case d := <-waited:
		if d >= 10*time.Second {
			t.Errorf("the latest versions' check waited %v for the keys read to begin: not at once", d)
		}
	default:
		t.Errorf("no check of the latest versions beside a keys read")
	}
	if n := clickhouse.PrefetchedKeys() - prefetched; n != 1 {
		t.Errorf("%d key sets prefetched, want 1", n)
	}
	if n := clickhouse.RowFilterKeyedReads() - keyReads; n != 1 {
		t.Errorf("the first page read keys %d times, want once (with the latest versions)", n)
	}
	if n, ok := s.MemoKeys("ten_a", f); !ok || n != 75 {
		t.Errorf("the memo keeps %d keys (%v), want 75: those of the 15 resources that still carry the tag", n, ok)
	}
	if d := gocmp.Diff(want[:7], first); d != "" {
		t.Errorf("first page (-without prefetch +with):\n%s", d)
	}
	if d := gocmp.Diff(want, all()); d != "" {
		t.Errorf("pages (-without prefetch +with):\n%s", d)
	}
	if n := countAll(t, s, "ten_a", f); n != wantCount {
		t.Errorf("count %d, want %d", n, wantCount)
	}
	if got, err := s.ListFindings(context.Background(), engine.FindingQuery{TenantID: "ten_b", Filter: f, Limit: 7}); err != nil || len(got) != 0 {
		t.Errorf("tenant B: %d findings, %v; want none", len(got), err)
	}
}
