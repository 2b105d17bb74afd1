package clickhouse_test

import (
	"context"
	"iter"
	"strconv"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// genRange yields the synthetic findings lo..hi-1 of a tenant.
func genRange(tenantID string, lo, hi int, seen time.Time) iter.Seq2[engine.Finding, error] {
	return func(yield func(engine.Finding, error) bool) {
		for i := lo; i < hi; i++ {
			if !yield(genFinding(tenantID, i, seen), nil) {
				return
			}
		}
	}
}

// writeAuditSnapshot writes an audit's snapshot the way the audit engine
// does (engine/audit/run.go): AppendSnapshot, CarryForward from prevID,
// FinalizeSnapshot; a retry (the worker pool's) first drops what the
// failed attempt left.
func writeAuditSnapshot(ctx context.Context, s *clickhouse.Store, tenant, prevID, auditID string, n int, retry bool) error {
	if retry {
		if err := s.DropSnapshot(ctx, tenant, auditID); err != nil {
			return err
		}
		if _, err := s.AppendSnapshot(ctx, tenant, auditID, genFindings(tenant, n, testNow)); err != nil {
			return err
		}
	}
	if err := s.CarryForward(ctx, tenant, prevID, auditID, testNow, testNow.Add(-365*24*time.Hour)); err != nil {
		return err
	}
	return s.FinalizeSnapshot(ctx, tenant, auditID)
}

// testKillDuringAudit is testKillDuringWrite on the audit's own write
// path: node 3 is killed -9 while AppendSnapshot writes a large snapshot
// to it, with node 4 fetching nothing until then, so that every row node 3
// acknowledged is on node 3 alone. The audit then carries forward the
// findings of a previous snapshot that it lacks and is finalized, or fails
// as unavailable and is retried as the worker pool retries it (drop, then
// the whole write again, with the very same blocks). Once it has succeeded
// the snapshot is whole on node 4 while node 3 is down — the findings it
// wrote and those it carried, each exactly once, and the marker counts
// them all — and on node 3 too once it is back. Before AppendSnapshot and
// CarryForward waited for the shard's live replicas, CarryForward read the
// snapshot from node 4 without node 3's rows and carried those findings a
// second time (resolved), and a retry's blocks that node 3 had taken were
// dropped by the replicas' block deduplication. Part of TestClusterFaults.
func testKillDuringAudit(t *testing.T, s *clickhouse.Store) {
	ctx := context.Background()
	n := killWriteFindings(t)
	// The previous snapshot has the findings n-overlap..n+gone-1: overlap
	// are found again, gone are carried forward (resolved).
	const overlap, gone = 10_000, 10_000
	total := n + gone
	resolvedNow := 0 // the gone findings open in the previous snapshot
	for i := n; i < n+gone; i++ {
		if genFinding("t", i, testNow).Status == engine.StatusOpen {
			resolvedNow++
		}
	}
	tenant := tenantOn(t, s, 1, "ten_killaudit")
	prev := auditOn(t, s, tenant, 0, 60)
	audit := auditOn(t, s, tenant, 1, 70)
	if _, err := s.WriteSnapshot(ctx, tenant, prev, genRange(tenant, n-overlap, n+gone, testNow)); err != nil {
		t.Fatal(err)
	}
	first, second := shardNodes[1][0], shardNodes[1][1]
	nodeSQL(t, second, "SYSTEM STOP FETCHES")
	defer nodeSQL(t, second, "SYSTEM START FETCHES")
	done := make(chan error, 1)
	start := time.Now()
	go func() {
		_, err := s.AppendSnapshot(ctx, tenant, audit, genFindings(tenant, n, testNow))
		done <- err
	}()
	key := clickhouse.SnapshotKey(tenant, audit)
	killOnceRowsReach(t, s, first, key, done)
	t.Logf("killed node 3 %.1f s into the audit's write of %d findings", time.Since(start).Seconds(), n)
	nodeSQL(t, second, "SYSTEM START FETCHES")
	defer clusterScript(t, "start")
	err := <-done
	if err == nil {
		t.Logf("AppendSnapshot completed %.1f s after it began", time.Since(start).Seconds())
		err = writeAuditSnapshot(ctx, s, tenant, prev, audit, n, false)
	}
	for tries := 1; err != nil; tries++ {
		if code := engine.ErrorCode(err); code != engine.CodeUnavailable || tries > 20 {
			t.Fatalf("the audit's write after node 3 was killed: %v (code %q, try %d)", err, code, tries)
		}
		t.Logf("try %d: %v", tries, err)
		time.Sleep(time.Second)
		err = writeAuditSnapshot(ctx, s, tenant, prev, audit, n, true)
	}
	t.Logf("audit snapshot of %d findings (%d carried) complete %.1f s after the write began", total, gone, time.Since(start).Seconds())

	complete := func(addr string) {
		t.Helper()
		exactlyOnce(t, s, addr, key, total)
		marker, err := s.QueryStrings(ctx, "SELECT toString(sum(findings)) FROM remote('"+addr+"', "+s.Database()+
			", finding_snapshots_local) WHERE tenant_id = '"+tenant+"' AND audit_id = '"+audit+"'")
		if err != nil {
			t.Fatal(err)
		}
		if marker[0] != strconv.Itoa(total) {
			t.Errorf("%s: the snapshot's marker counts %s findings, want %d", addr, marker[0], total)
		}
		resolved := remoteCountWhere(t, s, addr, "snapshot_findings_local",
			"snapshot = "+strconv.FormatUint(key, 10)+" AND resolution = 'fixed' AND resolved_at = toDateTime("+strconv.FormatInt(testNow.Unix(), 10)+")")
		if want := strconv.Itoa(resolvedNow); resolved != want {
			t.Errorf("%s: %s findings resolved by the carry-forward, want %s", addr, resolved, want)
		}
	}
	complete(second)
	if got := pageAll(t, s, tenant, engine.FindingFilter{AuditID: audit}, 10000); len(got) != total {
		t.Errorf("with node 3 down, read %d findings through the API's paging, want %d", len(got), total)
	}
	clusterScript(t, "start")
	caughtUp(t, s, key, total, first, second)
	complete(first)
	complete(second)
	if got := pageAll(t, s, tenant, engine.FindingFilter{AuditID: audit}, 10000); len(got) != total {
		t.Errorf("read %d findings through the API's paging, want %d", len(got), total)
	}
}

// TestClusterRetriedAuditRewritesSameBlocks: an audit whose write failed
// after its findings were sent is retried as the worker pool retries it:
// the failed attempt's rows are dropped and the very same findings are
// written again, block for block. On a cluster the replicated tables
// remembered those blocks' checksums and dropped them as duplicates, so
// the retry wrote nothing (no deduplication on snapshot inserts now); on
// one server there is no deduplication and the test holds as well.
func TestClusterRetriedAuditRewritesSameBlocks(t *testing.T) {
	s := chtest.New(t)
	ctx := context.Background()
	const n = 3000
	tenant := "ten_retry"
	audit := engine.NewID(engine.PrefixAudit, testNow)
	if _, err := s.AppendSnapshot(ctx, tenant, audit, genFindings(tenant, n, testNow)); err != nil {
		t.Fatal(err)
	}
	// The attempt fails here (a lost worker, a replica down); the retry:
	if err := s.DropSnapshot(ctx, tenant, audit); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AppendSnapshot(ctx, tenant, audit, genFindings(tenant, n, testNow)); err != nil {
		t.Fatal(err)
	}
	if err := s.FinalizeSnapshot(ctx, tenant, audit); err != nil {
		t.Fatal(err)
	}
	if got := pageAll(t, s, tenant, engine.FindingFilter{AuditID: audit}, 1000); len(got) != n {
		t.Errorf("read %d findings of the retried audit, want %d", len(got), n)
	}
	if chtest.Cluster() == "" {
		return
	}
	key := clickhouse.SnapshotKey(tenant, audit)
	nodes := shardNodes[s.ShardOf(tenant, audit)]
	caughtUp(t, s, key, n, nodes...)
	for _, addr := range nodes {
		exactlyOnce(t, s, addr, key, n)
	}
}
