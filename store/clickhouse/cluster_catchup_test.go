package clickhouse_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse"
)

// readSnapshot counts a snapshot (its counts) and pages it whole (its
// rows) through the store, as the API does, and returns both totals.
func readSnapshot(t *testing.T, s *clickhouse.Store, tenant, audit string) (counted int64, paged int) {
	t.Helper()
	counts, err := s.CountFindings(context.Background(), engine.FindingCountQuery{TenantID: tenant, Filter: engine.FindingFilter{AuditID: audit}})
	if err != nil {
		t.Fatalf("CountFindings: %v", err)
	}
	for _, c := range counts {
		counted += c.Count
	}
	return counted, len(pageAll(t, s, tenant, engine.FindingFilter{AuditID: audit}, 1000))
}

// testCatchingUpReplica: a replica that was down while a snapshot was
// written comes back and catches up, one table at a time, while the
// snapshot is read. Node 3, the replica of shard 2 that reads go to first
// (load_balancing in_order), is stopped and the snapshot is written to
// node 4; then node 4 is stopped, node 3 started with its fetches stopped,
// and node 4 started again: node 3 answers and lacks the snapshot. It
// fetches the marker and the counts first, the state a catching-up replica
// passes through, and every read must see the whole snapshot meanwhile
// (before replicaFreshness, node 3 answered and pages came back empty),
// and still while node 3 fetches the rows. Part of TestClusterFaults.
// (18.16's SYSTEM STOP REPLICATED SENDS on node 4 would be simpler, but
// its START does not undo it until node 4 restarts.)
func testCatchingUpReplica(t *testing.T, s *clickhouse.Store) {
	ctx := context.Background()
	const n = 20_000
	tenant := tenantOn(t, s, 0, "ten_catchup")
	audit := auditOn(t, s, tenant, 1, 80)
	behind, ahead := shardNodes[1][0], shardNodes[1][1]
	db := s.Database()

	defer clusterScript(t, "start")
	clusterScript(t, "stop-node", "3")
	s.Degraded(ctx) // the router sees node 3 down
	if _, err := s.WriteSnapshot(ctx, tenant, audit, genFindings(tenant, n, testNow)); err != nil {
		t.Fatal(err)
	}
	clusterScript(t, "stop-node", "4")
	clusterScript(t, "start-node", "3")
	nodeSQL(t, behind, "SYSTEM STOP FETCHES")
	defer nodeSQL(t, behind, "SYSTEM START FETCHES")
	clusterScript(t, "start-node", "4")
	s.Degraded(ctx)
	for _, table := range []string{"finding_snapshots_local", "finding_counts_local"} {
		nodeSQL(t, behind, "SYSTEM START FETCHES "+db+"."+table)
	}
	where := "tenant_id = '" + tenant + "' AND audit_id = '" + audit + "'"
	deadline := time.Now().Add(time.Minute)
	for remoteCountWhere(t, s, behind, "finding_snapshots_local", where) != "1" ||
		remoteCountWhere(t, s, behind, "finding_counts_local", where) != remoteCountWhere(t, s, ahead, "finding_counts_local", where) {
		if time.Now().After(deadline) {
			t.Fatal("node 3 did not fetch the snapshot's marker and counts in a minute")
		}
		time.Sleep(200 * time.Millisecond)
	}
	key := clickhouse.SnapshotKey(tenant, audit)
	rowsOn := func(addr string) string {
		return remoteCountWhere(t, s, addr, "snapshot_findings_local", "snapshot = "+strconv.FormatUint(key, 10))
	}
	if got := rowsOn(behind); got != "0" {
		t.Fatalf("node 3 holds %s rows of the snapshot with its fetches of them stopped", got)
	}
	t.Logf("node 3 holds the marker and the counts of the snapshot, and none of its %d rows", n)
	for i := range 10 {
		if counted, paged := readSnapshot(t, s, tenant, audit); counted != n || paged != n {
			t.Fatalf("read %d with node 3 behind: counts say %d, pages hold %d findings; want %d", i, counted, paged, n)
		}
	}
	// Node 3 catches up while the snapshot is read.
	nodeSQL(t, behind, "SYSTEM START FETCHES")
	reads := 0
	for deadline := time.Now().Add(time.Minute); rowsOn(behind) != strconv.Itoa(n); reads++ {
		if time.Now().After(deadline) {
			t.Fatalf("node 3 holds %s rows a minute after its fetches started, want %d", rowsOn(behind), n)
		}
		if counted, paged := readSnapshot(t, s, tenant, audit); counted != n || paged != n {
			t.Fatalf("read while node 3 catches up: counts say %d, pages hold %d findings; want %d", counted, paged, n)
		}
	}
	t.Logf("%d whole reads while node 3 caught up", reads)
	caughtUp(t, s, key, n, behind)
	exactlyOnce(t, s, behind, key, n)
	if counted, paged := readSnapshot(t, s, tenant, audit); counted != n || paged != n {
		t.Errorf("read after node 3 caught up: counts say %d, pages hold %d findings; want %d", counted, paged, n)
	}
}
