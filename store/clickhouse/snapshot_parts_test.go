package clickhouse_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// A snapshot reaches the server in runs of up to BatchSize rows, an INSERT
// each, sent bucket by bucket as blocks, and the server writes each INSERT
// as one part (it squashes the blocks): with merges stopped, the parts
// show it; the rows read back whole and in order.
func TestSnapshotBatchesSquashedIntoParts(t *testing.T) {
	if chtest.Cluster() != "" {
		t.Skip("the parts of one INSERT are a single server's layout: on a cluster the Distributed table forwards the blocks")
	}
	s := chtest.NewWithConfig(t, clickhouse.Config{BatchSize: 1000})
	ctx := context.Background()
	for _, stmt := range []string{"SYSTEM STOP MERGES snapshot_findings", "SYSTEM STOP MERGES snapshot_finding_index"} {
		if err := s.Exec(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	aud := engine.NewID(engine.PrefixAudit, testNow)
	// A first run of 1000 rows in one bucket, then runs of five buckets of
	// up to 200 rows, handed off when one is full: over 22 runs, under 40.
	a := mustWriteSnapshot(t, s, "ten_a", aud, 22500)
	for _, table := range []string{"snapshot_findings", "snapshot_finding_index"} {
		got, err := s.QueryStrings(ctx, `SELECT concat(toString(count()), ' ', toString(sum(rows)), ' ', toString(max(rows)))
FROM system.parts WHERE database = currentDatabase() AND table = '`+table+`' AND active`)
		if err != nil {
			t.Fatal(err)
		}
		var parts, rows, most int
		if len(got) != 1 {
			t.Fatalf("%s: %q", table, got)
		}
		if _, err := fmt.Sscan(got[0], &parts, &rows, &most); err != nil {
			t.Fatal(err)
		}
		if parts <= 22 || parts >= 40 || rows != 22500 || most > 1000 {
			t.Errorf("%s: %d parts of %d rows, the largest %d; want 23 to 39 parts (one per run) of 22500, none over 1000",
				table, parts, rows, most)
		}
	}
	got := pageAll(t, s, "ten_a", engine.FindingFilter{AuditID: aud}, 500)
	if diff := gocmp.Diff(a.findings, got); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
	f := a.findings[len(a.findings)/2]
	var want []engine.Finding
	for _, g := range a.findings {
		if g.ResourceID == f.ResourceID {
			want = append(want, g)
		}
	}
	if diff := gocmp.Diff(want, pageAll(t, s, "ten_a", engine.FindingFilter{AuditID: aud, ResourceID: f.ResourceID}, 7)); diff != "" {
		t.Errorf("the findings of %s (-want +got):\n%s", f.ResourceID, diff)
	}
}

// Snapshot writes hold connections for their open INSERTs. Six at once
// and reads beside them get theirs, from the default pool and from a pool
// too small for more than one write: unbounded, the writes' senders each
// held a connection and waited for another until the driver gave up
// (acquire conn timeout), which this test showed before snapshotSlots.
func TestConcurrentSnapshotWritesShareThePool(t *testing.T) {
	for _, conns := range []int{0, 5} {
		t.Run(fmt.Sprintf("MaxOpenConns=%d", conns), func(t *testing.T) {
			s := chtest.NewWithConfig(t, clickhouse.Config{BatchSize: 500, MaxOpenConns: conns})
			ctx := context.Background()
			base := engine.NewID(engine.PrefixAudit, testNow.Add(-time.Hour))
			mustWriteSnapshot(t, s, "ten_b", base, 700)
			errs := make(chan error, 6)
			audits := make([]string, 6)
			for i := range audits {
				audits[i] = engine.NewID(engine.PrefixAudit, testNow.Add(time.Duration(i)*time.Minute))
				go func() {
					_, err := s.WriteSnapshot(ctx, "ten_a", audits[i], genFindings("ten_a", 20000, testNow))
					errs <- err
				}()
			}
			for range 20 {
				page, err := s.ListFindings(ctx, engine.FindingQuery{TenantID: "ten_b", Filter: engine.FindingFilter{AuditID: base}, Limit: 50})
				if err != nil || len(page) != 50 {
					t.Errorf("a read beside the writes: %d findings, %v", len(page), err)
				}
			}
			for range audits {
				if err := <-errs; err != nil {
					t.Fatal(err)
				}
			}
			for _, aud := range audits {
				if n := total(t, s, "ten_a", aud); n != 20000 {
					t.Errorf("%s counts %d findings, want 20000", aud, n)
				}
			}
		})
	}
}

// The server gives up on a client silent for longer than its
// receive_timeout (300 s by default; 1 s here): when a sender kept its
// INSERTs open for the next batch, an audit whose findings come slowly
// (few findings over a large inventory, costly policies) failed with
// "Timeout exceeded while receiving data from client". A sender's INSERTs
// are open only while it sends a run; the snapshot reads back whole.
func TestSlowSnapshotProducerOutlastsReceiveTimeout(t *testing.T) {
	ctx := context.Background()
	db := "t_slow_" + fmt.Sprint(time.Now().UnixNano())
	chtest.CreateDatabase(t, db)
	t.Cleanup(func() { chtest.DropDatabase(t, db) })
	s, err := clickhouse.Open(ctx, clickhouse.Config{URL: chtest.WithDatabase(t, chtest.URL(), db) + "?receive_timeout=1", BatchSize: 100})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	aud := engine.NewID(engine.PrefixAudit, testNow)
	const n = 700
	var i int
	paused := func(yield func(engine.Finding, error) bool) {
		for f, err := range genFindings("ten_slow", n, testNow) {
			// Pauses longer than receive_timeout with INSERTs open.
			if i++; i == 201 || i == 401 {
				time.Sleep(1500 * time.Millisecond)
			}
			if !yield(f, err) {
				return
			}
		}
	}
	got, err := s.WriteSnapshot(ctx, "ten_slow", aud, paused)
	if err != nil {
		t.Fatalf("WriteSnapshot: %v", err)
	}
	if got != n {
		t.Fatalf("WriteSnapshot wrote %d, want %d", got, n)
	}
	var want []engine.Finding
	for f := range genFindings("ten_slow", n, testNow) {
		f.AuditID = aud
		want = append(want, f)
	}
	slices.SortFunc(want, listOrder)
	if diff := gocmp.Diff(want, pageAll(t, s, "ten_slow", engine.FindingFilter{AuditID: aud}, 500)); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
}
