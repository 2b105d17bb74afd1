package clickhouse

import (
	"fmt"
	"strings"
	"testing"

	ch "github.com/ClickHouse/clickhouse-go/v2"
)

// TestRenderEveryMigrationForACluster renders each statement of every
// migration for both modes: unchanged on one server; on a cluster, every
// table replicated and reached through a Distributed table of its name,
// snapshot tables sharded by the snapshot key, everything ON CLUSTER and
// in the store's database.
func TestRenderEveryMigrationForACluster(t *testing.T) {
	migs, err := loadMigrations(migrationFS)
	if err != nil {
		t.Fatal(err)
	}
	single := &Store{database: "db1"}
	clustered := &Store{database: "db1", cfg: Config{Cluster: "c1"}}
	distributed := map[string]string{}
	for _, m := range migs {
		for _, stmt := range m.statements {
			one, err := single.renderStatement(stmt)
			if err != nil || len(one) != 1 || one[0].sql != strings.ReplaceAll(stmt, "{database}", "'db1'") || one[0].eachShard {
				t.Errorf("%s: one server: %+v, %v; want the statement unchanged", m.version, one, err)
			}
			many, err := clustered.renderStatement(stmt)
			if err != nil {
				t.Errorf("%s: cluster: %v", m.version, err)
				continue
			}
			for _, d := range many {
				r := d.sql
				if strings.HasPrefix(r, "INSERT INTO") {
					continue
				}
				if alter := strings.HasPrefix(r, "ALTER TABLE `db1`."); alter || d.eachShard || d.eachNode {
					local := strings.HasSuffix(strings.Fields(r)[2], "_local")
					if !alter || d.eachShard != local || d.eachNode == local || strings.Contains(r, "ON CLUSTER") {
						t.Errorf("%s: %q: an ALTER runs on the local tables of each shard, or on the Distributed table of each node, and only it", m.version, r)
					}
					continue
				}
				if !strings.Contains(r, " ON CLUSTER `c1`") || !strings.Contains(r, "`db1`.") {
					t.Errorf("%s: %q is not ON CLUSTER in db1", m.version, r)
				}
				if strings.Contains(r, "ENGINE = MergeTree") || strings.Contains(r, "ENGINE = ReplacingMergeTree") {
					t.Errorf("%s: %q is not replicated", m.version, r)
				}
				if i := strings.Index(r, "ENGINE = Distributed(`c1`, `db1`, "); i >= 0 {
					name := strings.Fields(strings.TrimPrefix(r, "CREATE TABLE IF NOT EXISTS `db1`."))[0]
					distributed[name] = r[i:]
				}
			}
		}
	}
	for name, want := range map[string]string{
		"snapshot_findings":      "snapshot_findings_local, snapshot)",
		"snapshot_finding_index": "snapshot_finding_index_local, snapshot)",
		"finding_counts":         `finding_counts_local, cityHash64(concat(tenant_id, '\0', audit_id)))`,
		"finding_snapshots":      `finding_snapshots_local, cityHash64(concat(tenant_id, '\0', audit_id)))`,
		"resources":              "resources_local, cityHash64(tenant_id))",
		"mute_matches":           "mute_matches_local, snapshot)",
		"events":                 "events_local, cityHash64(tenant_id))",
	} {
		if !strings.HasSuffix(distributed[name], want) {
			t.Errorf("Distributed %s: %q, want it to end %q", name, distributed[name], want)
		}
	}
}

// TestRenderRefusesAnUnknownStatement: a migration statement the cluster
// rendering does not know fails the migration instead of running on one
// node only.
func TestRenderRefusesAnUnknownStatement(t *testing.T) {
	s := &Store{database: "db1", cfg: Config{Cluster: "c1"}}
	for _, stmt := range []string{
		"OPTIMIZE TABLE findings FINAL",
		"CREATE TABLE IF NOT EXISTS unsharded (a String) ENGINE = MergeTree ORDER BY a",
	} {
		if r, err := s.renderStatement(stmt); err == nil {
			t.Errorf("%q rendered as %+v, want an error", stmt, r)
		}
	}
}

// TestGlobalSubqueries: in cluster mode the subqueries of the store's SQL
// run GLOBAL, and nothing else changes.
func TestGlobalSubqueries(t *testing.T) {
	for in, want := range map[string]string{
		"SELECT a FROM t WHERE id IN (SELECT id FROM t)":           "SELECT a FROM t WHERE id GLOBAL IN (SELECT id FROM t)",
		"x = ? AND id NOT IN (SELECT id FROM t WHERE y = ?)":       "x = ? AND id GLOBAL NOT IN (SELECT id FROM t WHERE y = ?)",
		"FROM (SELECT a FROM t)\nANY LEFT JOIN (SELECT a) USING a": "FROM (SELECT a FROM t)\nGLOBAL ANY LEFT JOIN (SELECT a) USING a",
		"SELECT a FROM t ANY LEFT JOIN (SELECT b FROM u) USING c":  "SELECT a FROM t GLOBAL ANY LEFT JOIN (SELECT b FROM u) USING c",
		"SELECT id FROM t WHERE id IN ? AND rule_id IN (?, ?)":     "SELECT id FROM t WHERE id IN ? AND rule_id IN (?, ?)",
	} {
		if got := globalSubqueries.Replace(in); got != want {
			t.Errorf("%q became %q, want %q", in, got, want)
		}
	}
}

// TestClusterFaultsAreUnavailable: the errors of a cluster with a shard or
// ZooKeeper unreachable are "unavailable" (503 with Retry-After through the
// API), and the migration's message says what to do; a statement's own
// error stays what it was.
func TestClusterFaultsAreUnavailable(t *testing.T) {
	for code, want := range map[int32]bool{210: true, 225: true, 242: true, 279: true, 319: true, 999: true, 159: true, 44: false, 60: false, 62: false} {
		err := fmt.Errorf("insert: %w", &ch.Exception{Code: code, Message: "x"})
		if got := isUnavailable(err); got != want {
			t.Errorf("code %d: isUnavailable %v, want %v", code, got, want)
		}
	}
	err := clusterDDLError(&ch.Exception{Code: 999, Message: "Coordination::Exception: Connection loss"})
	if !strings.Contains(err.Error(), "ZooKeeper") || !strings.Contains(err.Error(), "fourd migrate") {
		t.Errorf("ZooKeeper down: %v", err)
	}
	err = clusterDDLError(&ch.Exception{Code: 159, Message: "Watching task /clickhouse/task_queue/ddl/query-1 is executing longer than distributed_ddl_task_timeout (=60) seconds"})
	if !strings.Contains(err.Error(), "did not run the DDL in time") {
		t.Errorf("a node down: %v", err)
	}
	if err := clusterDDLError(&ch.Exception{Code: 62, Message: "Syntax error"}); strings.Contains(err.Error(), "ZooKeeper") {
		t.Errorf("a syntax error blamed on ZooKeeper: %v", err)
	}
}
