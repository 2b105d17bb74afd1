package clickhouse_test

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// clusterScript runs scripts/cluster.sh with args (stop-node 2, …).
func clusterScript(t *testing.T, args ...string) {
	t.Helper()
	out, err := exec.Command("bash", append([]string{"../../scripts/cluster.sh"}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("cluster.sh %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// TestClusterFaults stops parts of the local cluster (make cluster) and
// checks what fourd's store does: with one replica of each shard down,
// snapshots are written and read and the replicas catch up when back;
// with ZooKeeper down, reads work and writes and migrations fail as
// unavailable, naming ZooKeeper; with a whole shard down, what needs that shard is
// unavailable (never a partial answer) and the rest works (testShardDown);
// a replica killed -9 during a large snapshot write loses and duplicates
// nothing, written in one call (testKillDuringWrite) or by an audit's
// steps (testKillDuringAudit); reads pass over a replica back from the
// dead while it catches up (testCatchingUpReplica); a replica killed
// exactly at the counts or the marker insert leaves neither a marker over
// missing counts nor an audit that cannot complete (testKillAtFinalize).
// It stops nodes that every other test on the cluster uses, so it runs
// only when asked:
// FOURD_TEST_CLUSTER_FAULTS=1 (make test-cluster-faults).
func TestClusterFaults(t *testing.T) {
	if chtest.Cluster() == "" || os.Getenv("FOURD_TEST_CLUSTER_FAULTS") != "1" {
		t.Skip("needs the local cluster to itself: FOURD_TEST_CLUSTER_FAULTS=1 (make test-cluster-faults)")
	}
	s := chtest.New(t)
	ctx := context.Background()
	t.Cleanup(func() { clusterScript(t, "start") })
	before := mustWriteSnapshot(t, s, "ten_a", engine.NewID(engine.PrefixAudit, testNow), 300)

	t.Run("one replica per shard down", func(t *testing.T) {
		if d := s.Degraded(ctx); len(d) != 0 {
			t.Errorf("degraded with every node up: %q", d)
		}
		clusterScript(t, "stop-node", "2")
		clusterScript(t, "stop-node", "4")
		want := []string{"clickhouse shard 1: replica 2 of 2 does not answer", "clickhouse shard 2: replica 2 of 2 does not answer"}
		if d := s.Degraded(ctx); !slices.Equal(d, want) {
			t.Errorf("degraded with nodes 2 and 4 down: %q, want %q", d, want)
		}
		var written []snapshot
		for i := range 4 {
			tenant := []string{"ten_a", "ten_b"}[i%2]
			written = append(written, mustWriteSnapshot(t, s, tenant, engine.NewID(engine.PrefixAudit, testNow.Add(time.Duration(i+1)*time.Minute)), 200))
		}
		for _, w := range append(written, before) {
			if got := pageAll(t, s, w.tenantID, engine.FindingFilter{AuditID: w.auditID}, 70); len(got) != len(w.findings) {
				t.Errorf("%s: read %d findings, want %d", w.auditID, len(got), len(w.findings))
			}
		}
		clusterScript(t, "start-node", "2")
		clusterScript(t, "start-node", "4")
		// Back, each replica catches up with its shard's other replica.
		for _, pair := range [][2]string{{"127.0.0.1:19101", "127.0.0.1:19102"}, {"127.0.0.1:19103", "127.0.0.1:19104"}} {
			deadline := time.Now().Add(30 * time.Second)
			for {
				a := remoteCount(t, s, pair[0], "snapshot_findings_local")
				b := remoteCount(t, s, pair[1], "snapshot_findings_local")
				if a == b {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("%s has %s rows, %s has %s: no catch-up in 30 s", pair[0], a, pair[1], b)
				}
				time.Sleep(500 * time.Millisecond)
			}
		}
	})

	t.Run("ZooKeeper down", func(t *testing.T) {
		clusterScript(t, "stop-zookeeper")
		defer func() {
			clusterScript(t, "start-zookeeper")
			// 18.16's DDL worker may stop for good when its ZooKeeper
			// session comes back ("Server expects that DDL task … should
			// be processed"), and every later ON CLUSTER statement waits
			// for that node: restart the nodes.
			for _, n := range []string{"1", "2", "3", "4"} {
				clusterScript(t, "stop-node", n)
				clusterScript(t, "start-node", n)
			}
		}()
		if got := pageAll(t, s, before.tenantID, engine.FindingFilter{AuditID: before.auditID}, 100); len(got) != len(before.findings) {
			t.Errorf("read %d findings with ZooKeeper down, want %d", len(got), len(before.findings))
		}
		_, err := s.WriteSnapshot(ctx, "ten_c", engine.NewID(engine.PrefixAudit, testNow), genFindings("ten_c", 50, testNow))
		if code := engine.ErrorCode(err); code != engine.CodeUnavailable {
			t.Errorf("a write with ZooKeeper down: %v (code %q), want unavailable", err, code)
		}
		m, err := clickhouse.Open(ctx, clickhouse.Config{URL: chtest.WithDatabase(t, chtest.URL(), s.Database()), Cluster: chtest.Cluster()})
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		if err := m.Migrate(ctx); err != nil {
			// Every migration is recorded: the database DDL still needs ZooKeeper.
			if !strings.Contains(err.Error(), "ZooKeeper") {
				t.Errorf("migrate with ZooKeeper down: %v, want a message naming ZooKeeper", err)
			}
		} else {
			t.Error("migrate with ZooKeeper down succeeded")
		}
	})

	t.Run("a whole shard down", func(t *testing.T) { testShardDown(t, s) })

	t.Run("kill -9 a replica during a snapshot write", func(t *testing.T) { testKillDuringWrite(t, s) })

	t.Run("kill -9 a replica during an audit's write", func(t *testing.T) { testKillDuringAudit(t, s) })

	t.Run("a replica catching up", func(t *testing.T) { testCatchingUpReplica(t, s) })

	t.Run("kill -9 a replica at the counts insert", func(t *testing.T) { testKillAtFinalize(t, s, "counts") })

	t.Run("kill -9 a replica at the marker insert", func(t *testing.T) { testKillAtFinalize(t, s, "marker") })
}

// remoteCount counts the rows of table of s's database on the node at addr.
func remoteCount(t *testing.T, s *clickhouse.Store, addr, table string) string {
	t.Helper()
	got, err := s.QueryStrings(context.Background(), "SELECT toString(count()) FROM remote('"+addr+"', "+s.Database()+", "+table+")")
	if err != nil {
		t.Fatalf("%s on %s: %v", table, addr, err)
	}
	return got[0]
}
