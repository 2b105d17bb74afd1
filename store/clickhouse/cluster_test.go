package clickhouse_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"

	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// TestClusterUnknownName: a cluster name the server does not have is
// refused when the store opens, on one server and on a cluster alike.
func TestClusterUnknownName(t *testing.T) {
	s := chtest.New(t)
	_, err := clickhouse.Open(context.Background(), clickhouse.Config{
		URL: chtest.WithDatabase(t, chtest.URL(), s.Database()), Cluster: "no_such_cluster_fourd"})
	if !errors.Is(err, clickhouse.ErrUnknownCluster) || !strings.Contains(err.Error(), "no_such_cluster_fourd") {
		t.Fatalf("Open with an unknown cluster: %v, want ErrUnknownCluster naming it", err)
	}
}

// TestClusterSnapshotOnOneShard: on the test cluster, a snapshot's rows,
// its counts and its marker are all on one shard, every table the queries
// name is Distributed over a replicated local table, and the migrations
// are recorded on every node.
func TestClusterSnapshotOnOneShard(t *testing.T) {
	if chtest.Cluster() == "" {
		t.Skip("needs FOURD_TEST_CLICKHOUSE_CLUSTER (make test-cluster)")
	}
	s := chtest.New(t)
	ctx := context.Background()
	var audits []string
	for i := range 6 {
		audits = append(audits, engine.NewID(engine.PrefixAudit, testNow.Add(time.Duration(i)*time.Minute)))
		mustWriteSnapshot(t, s, "ten_a", audits[i], 50)
	}
	nodes, err := s.QueryStrings(ctx, "SELECT concat(toString(shard_num), ' ', host_address, ':', toString(port)) FROM system.clusters WHERE cluster = '"+chtest.Cluster()+"' ORDER BY shard_num, replica_num")
	if err != nil || len(nodes) < 2 {
		t.Fatalf("cluster nodes: %q, %v", nodes, err)
	}
	count := func(addr, table, where string) string {
		t.Helper()
		got, err := s.QueryStrings(ctx, "SELECT toString(count()) FROM remote('"+addr+"', "+s.Database()+", "+table+") WHERE "+where)
		if err != nil {
			t.Fatalf("%s on %s: %v", table, addr, err)
		}
		return got[0]
	}
	shards := map[string]bool{}
	for _, audit := range audits {
		key := fmt.Sprint(clickhouse.SnapshotKey("ten_a", audit))
		var holders []string
		for _, n := range nodes {
			shard, addr, _ := strings.Cut(n, " ")
			rows := count(addr, "snapshot_findings_local", "snapshot = "+key)
			counts := count(addr, "finding_counts_local", "audit_id = '"+audit+"'")
			marker := count(addr, "finding_snapshots_local", "audit_id = '"+audit+"'")
			if rows == "0" && counts == "0" && marker == "0" {
				continue
			}
			if rows != "50" || counts == "0" || marker != "1" {
				t.Errorf("%s on %s: %s rows, %s counts, %s markers; want all or nothing", audit, addr, rows, counts, marker)
			}
			holders = append(holders, shard)
			shards[shard] = true
		}
		if len(holders) == 0 || holders[0] != holders[len(holders)-1] {
			t.Errorf("%s is on the nodes of shards %v, want one shard", audit, holders)
		}
	}
	if len(shards) < 2 {
		t.Logf("six snapshots all landed on shard %v (possible, 1 in 32)", shards)
	}
	engines, err := s.QueryStrings(ctx, "SELECT concat(name, ' ', engine) FROM system.tables WHERE database = currentDatabase() AND name IN ('snapshot_findings', 'snapshot_findings_local', 'resources', 'resources_local', 'schema_migrations')")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"resources Distributed", "resources_local ReplicatedReplacingMergeTree", "schema_migrations ReplicatedReplacingMergeTree",
		"snapshot_findings Distributed", "snapshot_findings_local ReplicatedMergeTree"}
	if strings.Join(engines, ",") != strings.Join(want, ",") {
		t.Errorf("engines %q, want %q", engines, want)
	}
	for _, n := range nodes {
		_, addr, _ := strings.Cut(n, " ")
		if got := count(addr, "schema_migrations", "1"); got == "0" {
			t.Errorf("%s has no migrations recorded", addr)
		}
	}
}
