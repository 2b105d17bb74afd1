package clickhouse_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// shardNodes are the native addresses of the local cluster's nodes, by
// shard (scripts/cluster.sh).
var shardNodes = [][]string{{"127.0.0.1:19101", "127.0.0.1:19102"}, {"127.0.0.1:19103", "127.0.0.1:19104"}}

// tenantOn returns a tenant id whose own rows are on shard i (from 0).
func tenantOn(t *testing.T, s *clickhouse.Store, i int, prefix string) string {
	t.Helper()
	for n := range 1000 {
		if tenant := fmt.Sprintf("%s_%d", prefix, n); s.ShardOf(tenant, "") == i {
			return tenant
		}
	}
	t.Fatalf("no tenant on shard %d", i)
	return ""
}

// auditOn returns an audit id of tenant, from minute m on, whose snapshot
// is on shard i.
func auditOn(t *testing.T, s *clickhouse.Store, tenant string, i, m int) string {
	t.Helper()
	for n := range 1000 {
		if audit := engine.NewID(engine.PrefixAudit, testNow.Add(time.Duration(m)*time.Minute+time.Duration(n)*time.Second)); s.ShardOf(tenant, audit) == i {
			return audit
		}
	}
	t.Fatalf("no audit of %s on shard %d", tenant, i)
	return ""
}

// TestClusterShardPlacement checks that the store places a tenant's rows
// and its snapshots on the shards the Distributed tables put them on:
// what a shard being down is decided by (shards.go).
func TestClusterShardPlacement(t *testing.T) {
	if chtest.Cluster() == "" {
		t.Skip("cluster mode only (FOURD_TEST_CLICKHOUSE_CLUSTER)")
	}
	s := chtest.New(t)
	for i := range shardNodes {
		tenant := tenantOn(t, s, i, "ten_place")
		mustWriteResources(t, s, tenant, []engine.Resource{genResource(tenant, 1, testNow)})
		for j := range shardNodes {
			audit := auditOn(t, s, tenant, j, 0)
			mustWriteSnapshot(t, s, tenant, audit, 20)
			for k, nodes := range shardNodes {
				snap := remoteCountWhere(t, s, nodes[0], "finding_snapshots_local", "tenant_id = '"+tenant+"' AND audit_id = '"+audit+"'")
				if want := map[bool]string{true: "1", false: "0"}[k == j]; snap != want {
					t.Errorf("snapshot of %s %s: %s markers on shard %d, want %s", tenant, audit, snap, k+1, want)
				}
			}
		}
		for k, nodes := range shardNodes {
			res := remoteCountWhere(t, s, nodes[0], "resources_local", "tenant_id = '"+tenant+"'")
			if want := map[bool]string{true: "1", false: "0"}[k == i]; res != want {
				t.Errorf("resources of %s: %s rows on shard %d, want %s", tenant, res, k+1, want)
			}
		}
	}
}

// remoteCountWhere counts the rows of table of s's database that match
// where on the node at addr.
func remoteCountWhere(t *testing.T, s *clickhouse.Store, addr, table, where string) string {
	t.Helper()
	got, err := s.QueryStrings(context.Background(), "SELECT toString(count()) FROM remote('"+addr+"', "+s.Database()+", "+table+") WHERE "+where)
	if err != nil {
		t.Fatalf("%s on %s: %v", table, addr, err)
	}
	return got[0]
}

// testShardDown stops shard 2 (nodes 3 and 4) and checks that only the
// calls that need it are unavailable: a tenant whose rows and snapshots
// are on shard 1 keeps reading and writing, one on shard 2 is answered
// unavailable, and a write refused so leaves nothing behind (written
// again once the shard is back, it is complete and whole). Part of
// TestClusterFaults.
func testShardDown(t *testing.T, s *clickhouse.Store) {
	ctx := context.Background()
	on1, on2 := tenantOn(t, s, 0, "ten_one"), tenantOn(t, s, 1, "ten_two")
	// After the ZooKeeper drill the replicated tables are read-only until
	// their sessions are back: wait for a write to go through.
	deadline := time.Now().Add(60 * time.Second)
	for {
		_, err := s.WriteResources(ctx, on1, sliceSeq([]engine.Resource{genResource(on1, 1, testNow), genResource(on1, 2, testNow)}))
		if err == nil {
			break
		}
		if engine.ErrorCode(err) != engine.CodeUnavailable || time.Now().After(deadline) {
			t.Fatalf("WriteResources before the drill: %v", err)
		}
		time.Sleep(500 * time.Millisecond)
	}
	old1 := mustWriteSnapshot(t, s, on1, auditOn(t, s, on1, 0, 10), 150)
	old2 := mustWriteSnapshot(t, s, on2, auditOn(t, s, on2, 1, 10), 150)

	clusterScript(t, "stop-node", "3")
	clusterScript(t, "stop-node", "4")
	defer clusterScript(t, "start")
	want := "clickhouse shard 2: no replica answers; requests for the tenants whose data it holds answer 503"
	if d := s.Degraded(ctx); !slices.Equal(d, []string{want}) {
		t.Errorf("degraded with shard 2 down: %q, want %q", d, want)
	}
	// The store notices within a probe interval; a read in between may be
	// refused (and retried by the client).
	deadline = time.Now().Add(10 * time.Second)
	for {
		_, err := s.ListFindings(ctx, engine.FindingQuery{TenantID: on1, Filter: engine.FindingFilter{AuditID: old1.auditID}, Limit: 10})
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a tenant on shard 1 still cannot read with shard 2 down: %v", err)
		}
		time.Sleep(200 * time.Millisecond)
	}

	// The tenant on shard 1 reads everything, and writes a new snapshot.
	if got := pageAll(t, s, on1, engine.FindingFilter{AuditID: old1.auditID}, 40); len(got) != len(old1.findings) {
		t.Errorf("shard 1 tenant: read %d findings with shard 2 down, want %d", len(got), len(old1.findings))
	}
	if _, err := s.CountFindings(ctx, engine.FindingCountQuery{TenantID: on1, Filter: engine.FindingFilter{AuditID: old1.auditID},
		GroupBy: []engine.GroupBy{engine.GroupBySeverity}}); err != nil {
		t.Errorf("shard 1 tenant: counts with shard 2 down: %v", err)
	}
	if rs, err := s.ListResources(ctx, engine.ResourceQuery{TenantID: on1, Limit: 10}); err != nil || len(rs) != 2 {
		t.Errorf("shard 1 tenant: resources with shard 2 down: %d, %v; want 2", len(rs), err)
	}
	new1 := mustWriteSnapshot(t, s, on1, auditOn(t, s, on1, 0, 20), 120)
	if got := pageAll(t, s, on1, engine.FindingFilter{AuditID: new1.auditID}, 50); len(got) != len(new1.findings) {
		t.Errorf("shard 1 tenant: read %d findings of the snapshot written with shard 2 down, want %d", len(got), len(new1.findings))
	}
	if err := s.CarryForward(ctx, on1, old1.auditID, auditOn(t, s, on1, 0, 30), testNow, testNow); err != nil {
		t.Errorf("shard 1 tenant: carry forward with shard 2 down: %v", err)
	}

	// What needs shard 2 is unavailable: the other tenant's reads and
	// writes, and a snapshot of the first tenant that belongs there.
	unavailable := func(what string, err error) {
		t.Helper()
		if code := engine.ErrorCode(err); code != engine.CodeUnavailable {
			t.Errorf("%s with its shard down: %v (code %q), want unavailable", what, err, code)
		}
	}
	_, err := s.ListFindings(ctx, engine.FindingQuery{TenantID: on2, Filter: engine.FindingFilter{AuditID: old2.auditID}, Limit: 10})
	unavailable("shard 2 tenant: a read", err)
	_, err = s.ListResources(ctx, engine.ResourceQuery{TenantID: on2, Limit: 10})
	unavailable("shard 2 tenant: resources", err)
	refused2 := auditOn(t, s, on2, 1, 40)
	_, err = s.WriteSnapshot(ctx, on2, refused2, genFindings(on2, 80, testNow))
	unavailable("shard 2 tenant: a snapshot write", err)
	refused1 := auditOn(t, s, on1, 1, 40)
	_, err = s.WriteSnapshot(ctx, on1, refused1, genFindings(on1, 80, testNow))
	unavailable("shard 1 tenant: a snapshot that belongs on shard 2", err)

	clusterScript(t, "start")
	deadline = time.Now().Add(30 * time.Second)
	for {
		_, err := s.ListFindings(ctx, engine.FindingQuery{TenantID: on2, Filter: engine.FindingFilter{AuditID: old2.auditID}, Limit: 10})
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("shard 2 tenant cannot read 30 s after its shard is back: %v", err)
		}
		time.Sleep(500 * time.Millisecond)
	}
	if got := pageAll(t, s, on2, engine.FindingFilter{AuditID: old2.auditID}, 40); len(got) != len(old2.findings) {
		t.Errorf("shard 2 tenant: read %d findings after its shard is back, want %d", len(got), len(old2.findings))
	}
	// The refused writes left no marker (a second write is no conflict)
	// and no rows (what it reads is the second write, once).
	for _, w := range []struct{ tenant, audit string }{{on2, refused2}, {on1, refused1}} {
		again := mustWriteSnapshot(t, s, w.tenant, w.audit, 80)
		if got := pageAll(t, s, w.tenant, engine.FindingFilter{AuditID: w.audit}, 30); len(got) != len(again.findings) {
			t.Errorf("%s %s written again: read %d findings, want %d", w.tenant, w.audit, len(got), len(again.findings))
		}
	}
}
