package clickhouse_test

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse"
)

// killNode kills -9 the clickhouse-server of node i (1-4) of the local
// cluster.
func killNode(t *testing.T, i int) {
	t.Helper()
	pid, err := os.ReadFile("../../.data/cluster/node" + strconv.Itoa(i) + ".pid")
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

// remoteSum is sum(column) over the rows of table on the node at addr
// that match where, as text.
func remoteSum(t *testing.T, s *clickhouse.Store, addr, table, column, where string) string {
	t.Helper()
	got, err := s.QueryStrings(context.Background(), "SELECT toString(sum("+column+")) FROM remote('"+addr+"', "+
		s.Database()+", "+table+") WHERE "+where)
	if err != nil {
		t.Fatalf("%s on %s: %v", table, addr, err)
	}
	return got[0]
}

// watchSnapshot reads a snapshot through the store, as readers do, until
// stop is closed, and reports each time the snapshot was visible as
// complete (its marker answered) while its counts or its rows, read the
// same way, fell short of the findings the marker records (bad), and apart
// each time they exceeded them (over: a replica back from the dead that
// has fetched a retry's rows and not yet run the deletion of the failed
// attempt's; docs/design/cluster.md). Reads that fail (a node has just
// died) are counted, not reported.
func watchSnapshot(s *clickhouse.Store, tenant, audit string, stop <-chan struct{}) (wait func() (reads, failed int, bad, over []string)) {
	var (
		wg              sync.WaitGroup
		nReads, nFailed int
		violations      []string
		over            []string
		ctx             = context.Background()
		key             = strconv.FormatUint(clickhouse.SnapshotKey(tenant, audit), 10)
		markerQ         = "SELECT toString(sum(findings)) FROM finding_snapshots WHERE tenant_id = '" + tenant + "' AND audit_id = '" + audit + "'"
		rowsQ           = "SELECT toString(count()) FROM snapshot_findings WHERE snapshot = " + key
		countQ          = engine.FindingCountQuery{TenantID: tenant, Filter: engine.FindingFilter{AuditID: audit}}
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			nReads++
			m, err := s.QueryStrings(ctx, markerQ)
			if err != nil {
				nFailed++
				time.Sleep(50 * time.Millisecond)
				continue
			}
			if m[0] != "0" { // the marker records the snapshot's findings (n > 0)
				rows, err1 := s.QueryStrings(ctx, rowsQ)
				counts, err2 := s.CountFindings(ctx, countQ)
				if err1 != nil || err2 != nil {
					nFailed++
				} else {
					var counted int64
					for _, c := range counts {
						counted += c.Count
					}
					marker, _ := strconv.ParseInt(m[0], 10, 64)
					nRows, _ := strconv.ParseInt(rows[0], 10, 64)
					say := "marker says " + m[0] + " findings, rows " + rows[0] + ", counts " + strconv.FormatInt(counted, 10)
					switch {
					case nRows < marker || counted < marker:
						violations = append(violations, say)
					case nRows > marker || counted > marker:
						over = append(over, say)
					}
				}
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	return func() (int, int, []string, []string) {
		wg.Wait()
		return nReads, nFailed, violations, over
	}
}

// testKillAtFinalize kills -9 a replica of shard 2 exactly when the
// audit finalizes its snapshot (FinalizeSnapshot, through the
// SetFinalizeFault failpoint): at "counts" node 3, just before the counts
// are inserted; at "marker", after the counts went to one replica alone
// (both replicas' fetches stopped for that moment), that replica, just
// before the marker. The audit then completes, or fails as unavailable and
// is retried as the worker pool retries it (drop, then the whole write);
// meanwhile a reader never finds the snapshot complete (its marker) with
// rows or counts that do not add up to it. In the end the surviving
// replica, and the killed one once it is back, hold every finding exactly
// once, the counts sum to the rows, and the marker records them. Before
// the counts and the marker were inserted without block deduplication, the
// "marker" drill's retries never completed: each retry's counts were the
// killed attempt's block, dropped as a duplicate. Part of TestClusterFaults.
func testKillAtFinalize(t *testing.T, s *clickhouse.Store, stage string) {
	ctx := context.Background()
	const n, gone = 20_000, 2_000
	total := n + gone
	tenant := tenantOn(t, s, 1, "ten_killfin_"+stage)
	prev := auditOn(t, s, tenant, 0, 100)
	audit := auditOn(t, s, tenant, 1, 110)
	if _, err := s.WriteSnapshot(ctx, tenant, prev, genRange(tenant, n-1000, n+gone, testNow)); err != nil {
		t.Fatal(err)
	}
	nodes := shardNodes[1]
	defer clusterScript(t, "start")
	defer func() {
		for _, addr := range nodes { // on the way out of a failure; a new process fetches anyway
			_, port, _ := strings.Cut(addr, ":")
			_ = exec.Command("clickhouse-client", "--port", port, "-q", "SYSTEM START FETCHES").Run()
		}
	}()
	where := "tenant_id = '" + tenant + "' AND audit_id = '" + audit + "'"
	killed, survivor := "", ""
	clickhouse.SetFinalizeFault(t, func(at string) {
		if killed != "" {
			return
		}
		switch {
		case stage == "marker" && at == "counts":
			// The counts go to one replica and stay there.
			for _, addr := range nodes {
				nodeSQL(t, addr, "SYSTEM STOP FETCHES")
			}
		case at == stage:
			// The replica that took the counts (at "marker"), or node 3.
			victim := 0
			if stage == "marker" && remoteSum(t, s, nodes[1], "finding_counts_local", "n", where) != "0" {
				victim = 1
			}
			killed, survivor = nodes[victim], nodes[1-victim]
			t.Logf("at the %s: counts of %s findings on %s, which is killed, %s on %s", at,
				remoteSum(t, s, killed, "finding_counts_local", "n", where), killed,
				remoteSum(t, s, survivor, "finding_counts_local", "n", where), survivor)
			killNode(t, 3+victim)
			nodeSQL(t, survivor, "SYSTEM START FETCHES")
		}
	})
	stop := make(chan struct{})
	wait := watchSnapshot(s, tenant, audit, stop)
	start := time.Now()
	_, err := s.AppendSnapshot(ctx, tenant, audit, genFindings(tenant, n, testNow))
	if err == nil {
		err = writeAuditSnapshot(ctx, s, tenant, prev, audit, n, false)
	}
	if killed == "" {
		t.Fatalf("the audit's write ended (%v) without reaching the %s failpoint", err, stage)
	}
	for tries := 1; err != nil; tries++ {
		if code := engine.ErrorCode(err); code != engine.CodeUnavailable || tries > 20 {
			t.Fatalf("the audit's write after node 3 was killed at the %s: %v (code %q, try %d)", stage, err, code, tries)
		}
		t.Logf("try %d after %.1f s: %v", tries, time.Since(start).Seconds(), err)
		time.Sleep(time.Second)
		err = writeAuditSnapshot(ctx, s, tenant, prev, audit, n, true)
	}
	t.Logf("killed at the %s: the audit's snapshot of %d findings complete %.1f s after the write began", stage, total, time.Since(start).Seconds())

	key := clickhouse.SnapshotKey(tenant, audit)
	want := strconv.Itoa(total)
	complete := func(addr string) {
		t.Helper()
		deadline := time.Now().Add(time.Minute)
		for (remoteSum(t, s, addr, "finding_counts_local", "n", where) != want ||
			remoteSum(t, s, addr, "finding_snapshots_local", "findings", where) != want) && time.Now().Before(deadline) {
			// Fetches, and a mutation deleting a failed attempt's counts.
			time.Sleep(500 * time.Millisecond)
		}
		exactlyOnce(t, s, addr, key, total)
		if got := remoteSum(t, s, addr, "finding_counts_local", "n", where); got != want {
			t.Errorf("%s: the snapshot's counts sum to %s findings, want %s", addr, got, want)
		}
		if got := remoteSum(t, s, addr, "finding_snapshots_local", "findings", where); got != want {
			t.Errorf("%s: the snapshot's marker records %s findings, want %s", addr, got, want)
		}
	}
	complete(survivor)
	if got := pageAll(t, s, tenant, engine.FindingFilter{AuditID: audit}, 5000); len(got) != total {
		t.Errorf("with %s down, read %d findings through the API's paging, want %d", killed, len(got), total)
	}
	clusterScript(t, "start")
	caughtUp(t, s, key, total, nodes...)
	close(stop)
	reads, failed, bad, over := wait()
	complete(killed)
	complete(survivor)
	if counted, paged := readSnapshot(t, s, tenant, audit); counted != int64(total) || paged != total {
		t.Errorf("read after %s came back: counts say %d, pages hold %d findings; want %d", killed, counted, paged, total)
	}
	t.Logf("the reader: %d reads, %d failed while a node was dying, %d saw more than the snapshot: %q", reads, failed, len(over), over[:min(3, len(over))])
	if len(bad) > 0 {
		t.Errorf("%d reads found the snapshot complete without its rows or counts: %q", len(bad), bad[:min(5, len(bad))])
	}
}
