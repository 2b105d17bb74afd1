package clickhouse_test

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse"
)

// killWriteFindings is the size of the snapshot written while a replica is
// killed: FOURD_TEST_KILL_FINDINGS, 1,000,000 by default (about two
// minutes with the retry and the catch-up on a loaded 2-core machine).
func killWriteFindings(t *testing.T) int {
	if v := os.Getenv("FOURD_TEST_KILL_FINDINGS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1000 {
			t.Fatalf("FOURD_TEST_KILL_FINDINGS=%q: want a number of findings, at least 1000", v)
		}
		return n
	}
	return 1_000_000
}

// testKillDuringWrite kills -9 the replica a large snapshot is being
// written to (the first replica of the snapshot's shard) once rows have
// reached it: the write completes or fails as unavailable, is retried as
// the worker pool retries an audit, and once it has succeeded every
// finding is there exactly once on the surviving replica, and on the
// killed one once it is back and has caught up. Part of TestClusterFaults.
func testKillDuringWrite(t *testing.T, s *clickhouse.Store) {
	ctx := context.Background()
	n := killWriteFindings(t)
	tenant := tenantOn(t, s, 1, "ten_kill")
	audit := auditOn(t, s, tenant, 1, 50)
	first, second := shardNodes[1][0], shardNodes[1][1]
	// Node 4 fetches nothing until node 3 is killed, so that every row
	// node 3 acknowledges is on node 3 alone.
	nodeSQL(t, second, "SYSTEM STOP FETCHES")
	defer nodeSQL(t, second, "SYSTEM START FETCHES")
	done := make(chan error, 1)
	start := time.Now()
	go func() {
		_, err := s.WriteSnapshot(ctx, tenant, audit, genFindings(tenant, n, testNow))
		done <- err
	}()
	killOnceRowsReach(t, s, first, clickhouse.SnapshotKey(tenant, audit), done)
	t.Logf("killed node 3 %.1f s into the write of %d findings", time.Since(start).Seconds(), n)
	nodeSQL(t, second, "SYSTEM START FETCHES")
	defer clusterScript(t, "start")
	err := <-done
	for tries := 1; err != nil; tries++ {
		// The worker pool retries a failed audit; a retry deletes what the
		// failed write left.
		if code := engine.ErrorCode(err); code != engine.CodeUnavailable || tries > 20 {
			t.Fatalf("the write after node 3 was killed: %v (code %q, try %d)", err, code, tries)
		}
		t.Logf("try %d: %v", tries, err)
		time.Sleep(time.Second)
		_, err = s.WriteSnapshot(ctx, tenant, audit, genFindings(tenant, n, testNow))
	}
	t.Logf("snapshot of %d findings written %.1f s after the write began", n, time.Since(start).Seconds())
	key := clickhouse.SnapshotKey(tenant, audit)
	// A write that succeeded waited for node 4 to hold every row, even
	// those node 3 took before it was killed (awaitReplicas): a read
	// served by node 4 finds the snapshot whole while node 3 is down.
	exactlyOnce(t, s, second, key, n)
	if got := pageAll(t, s, tenant, engine.FindingFilter{AuditID: audit}, 10000); len(got) != n {
		t.Errorf("with node 3 down, read %d findings through the API's paging, want %d", len(got), n)
	}
	clusterScript(t, "start")
	caughtUp(t, s, key, n, first, second)
	exactlyOnce(t, s, first, key, n)
	exactlyOnce(t, s, second, key, n)
	if got := pageAll(t, s, tenant, engine.FindingFilter{AuditID: audit}, 10000); len(got) != n {
		t.Errorf("read %d findings through the API's paging, want %d", len(got), n)
	}
}

// killOnceRowsReach kills -9 node 3 (at addr) once rows of the snapshot
// with key have reached it, failing if the write (done) ends first.
func killOnceRowsReach(t *testing.T, s *clickhouse.Store, addr string, key uint64, done <-chan error) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for remoteCountWhere(t, s, addr, "snapshot_findings_local", "snapshot = "+strconv.FormatUint(key, 10)) == "0" {
		select {
		case err := <-done:
			t.Fatalf("the write ended (%v) before a row reached %s", err, addr)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no row of the snapshot reached %s in 5 minutes", addr)
		}
		time.Sleep(50 * time.Millisecond)
	}
	pid, err := os.ReadFile("../../.data/cluster/node3.pid")
	if err != nil {
		t.Fatal(err)
	}
	p, err := strconv.Atoi(strings.TrimSpace(string(pid)))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(p, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
}

// exactlyOnce checks that the node at addr holds the snapshot with key
// whole: n rows of n distinct findings, and their n keys in the resource
// index.
func exactlyOnce(t *testing.T, s *clickhouse.Store, addr string, key uint64, n int) {
	t.Helper()
	where := "snapshot = " + strconv.FormatUint(key, 10)
	rows := remoteCountWhere(t, s, addr, "snapshot_findings_local", where)
	keys := remoteCountWhere(t, s, addr, "snapshot_finding_index_local", where)
	ids, err := s.QueryStrings(context.Background(), "SELECT toString(uniqExact(id)) FROM remote('"+addr+"', "+s.Database()+", snapshot_findings_local) WHERE "+where)
	if err != nil {
		t.Fatal(err)
	}
	if want := strconv.Itoa(n); rows != want || ids[0] != want || keys != want {
		t.Errorf("%s holds %s rows, %s distinct findings and %s index keys of the snapshot, want %s of each", addr, rows, ids[0], keys, want)
	}
}

// caughtUp waits (up to 3 minutes) until every node of addrs holds n rows
// of the snapshot with key and n keys in the resource index (a node back
// from the dead fetches the parts it lacks and deletes, as the mutations
// queued meanwhile say, those of a failed attempt).
func caughtUp(t *testing.T, s *clickhouse.Store, key uint64, n int, addrs ...string) {
	t.Helper()
	where := "snapshot = " + strconv.FormatUint(key, 10)
	deadline := time.Now().Add(3 * time.Minute)
	for _, addr := range addrs {
		for _, table := range []string{"snapshot_findings_local", "snapshot_finding_index_local"} {
			for time.Now().Before(deadline) && remoteCountWhere(t, s, addr, table, where) != strconv.Itoa(n) {
				time.Sleep(time.Second)
			}
		}
	}
}

// nodeSQL runs a statement on the node at addr with clickhouse-client
// (installed with the cluster).
func nodeSQL(t *testing.T, addr, stmt string) {
	t.Helper()
	_, port, _ := strings.Cut(addr, ":")
	if out, err := exec.Command("clickhouse-client", "--port", port, "-q", stmt).CombinedOutput(); err != nil {
		t.Fatalf("%s on %s: %v\n%s", stmt, addr, err, out)
	}
}
