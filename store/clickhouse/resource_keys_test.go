package clickhouse_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// The writer hashes resource ids and snapshot ids in Go, CarryForward and
// nothing else on the server: both must be ClickHouse's cityHash64.
func TestResourceHashIsTheServers(t *testing.T) {
	s := chtest.New(t)
	long := "a string longer than sixty-four bytes, to take the long path of the hash as well ........"
	for _, id := range []string{"", "res_1", engine.ResourceID("ten_a", "aws", "arn:aws:s3:::bucket"), long} {
		var want uint64
		mustQueryRow(t, s, fmt.Sprintf("SELECT cityHash64('%s')", id), &want)
		if got := clickhouse.ResourceHash(id); got != want {
			t.Errorf("resourceHash(%q) = %d, the server's cityHash64 = %d", id, got, want)
		}
	}
	aud := engine.NewID(engine.PrefixAudit, testNow)
	for _, tenant := range []string{"ten_a", "t", long + long} {
		var want uint64
		mustQueryRow(t, s, fmt.Sprintf("SELECT cityHash64(concat('%s', '\\0', '%s'))", tenant, aud), &want)
		if got := clickhouse.SnapshotKey(tenant, aud); got != want {
			t.Errorf("snapshotKey(%q, %q) = %d, the server's = %d", tenant, aud, got, want)
		}
	}
}

// A resource's findings come from snapshot_finding_index, where migration
// 0013 also moved the keys of snapshots written before it (from
// finding_resource_index, finding_resource_keys or finding_resources); a
// key that another resource's hash or another snapshot's key brings along
// (a collision) never shows.
func TestResourceKeysOldTablesAndCollisions(t *testing.T) {
	s := chtest.New(t)
	ctx := context.Background()
	aud := engine.NewID(engine.PrefixAudit, testNow)
	a := mustWriteSnapshot(t, s, "ten_a", aud, 600)
	other := engine.NewID(engine.PrefixAudit, testNow.Add(time.Hour))
	b := mustWriteSnapshot(t, s, "ten_b", other, 300)
	byResource := map[string][]engine.Finding{}
	for _, f := range a.findings {
		byResource[f.ResourceID] = append(byResource[f.ResourceID], f)
	}
	x, y := a.findings[0], a.findings[len(a.findings)-1]
	if x.ResourceID == y.ResourceID {
		t.Fatal("the test needs two resources")
	}
	check := func(label string) {
		t.Helper()
		resources := []string{x.ResourceID, y.ResourceID}
		for res := range byResource {
			if len(resources) < 25 {
				resources = append(resources, res)
			}
		}
		for _, res := range resources {
			want := byResource[res]
			got := pageAll(t, s, "ten_a", engine.FindingFilter{AuditID: aud, ResourceID: res}, 2)
			if diff := gocmp.Diff(want, got); diff != "" {
				t.Fatalf("%s: findings of %s (-want +got):\n%s", label, res, diff)
			}
			counts, err := s.CountFindings(ctx, engine.FindingCountQuery{TenantID: "ten_a", Filter: engine.FindingFilter{AuditID: aud, ResourceID: res}})
			if err != nil {
				t.Fatal(err)
			}
			if len(counts) != 1 || counts[0].Count != int64(len(want)) {
				t.Fatalf("%s: counts of %s = %+v, want one group of %d", label, res, counts, len(want))
			}
		}
	}
	check("new index")
	if n := indexRows(t, s, "ten_a", aud); n != uint64(len(a.findings)) {
		t.Fatalf("snapshot_finding_index holds %d keys of the snapshot, want %d", n, len(a.findings))
	}

	// Colliding keys: resource X's hash also names a finding of Y, and
	// another tenant's snapshot's findings under this snapshot's key and
	// X's hash.
	key := clickhouse.SnapshotKey("ten_a", aud)
	mustExec(t, s, fmt.Sprintf("INSERT INTO snapshot_finding_index (snapshot, resource_hash, sev_order, id, written_at) "+
		"SELECT %d, %d, sev_order, id, written_at FROM snapshot_findings WHERE snapshot = %d AND hex(id) = '%s'",
		key, clickhouse.ResourceHash(x.ResourceID), key, keyHex(t, y.ID)))
	mustExec(t, s, fmt.Sprintf("INSERT INTO snapshot_finding_index (snapshot, resource_hash, sev_order, id, written_at) "+
		"SELECT %d, %d, sev_order, id, written_at FROM snapshot_findings WHERE snapshot = %d ORDER BY sev_order, id",
		key, clickhouse.ResourceHash(x.ResourceID), clickhouse.SnapshotKey("ten_b", other)))
	check("with collisions")
	if got := pageAll(t, s, "ten_b", engine.FindingFilter{AuditID: other, ResourceID: b.findings[0].ResourceID}, 50); len(got) == 0 {
		t.Fatal("the other tenant's snapshot lost its resource filter")
	}

	// The snapshots as migration 0013 found them: rows in finding_rows,
	// ten_b's keys in finding_resource_index, and ten_a's as snapshots
	// written before that had them: by resource hash (migration 0006),
	// then by resource id (0003). 0013 moves them all into the tables read
	// now, with each id's bytes.
	withTextIDs(t, s, "rows_as_text", "SELECT * FROM snapshot_findings", a.findings, b.findings)
	mustExec(t, s, "INSERT INTO finding_rows (snapshot, sev_order, id, severity, dimension, status, resolution, resource_id, rule_id, "+
		"resource_type, provider, account, region, text_id, evidence, first_seen_at, last_seen_at, resolved_at, written_at) "+
		"SELECT snapshot, sev_order, tid, severity, dimension, status, resolution, resource_id, rule_id, "+
		"resource_type, provider, account, region, text_id, evidence, first_seen_at, last_seen_at, resolved_at, written_at FROM rows_as_text")
	withTextIDs(t, s, "other_keys", fmt.Sprintf("SELECT * FROM snapshot_finding_index WHERE snapshot = %d", clickhouse.SnapshotKey("ten_b", other)), b.findings)
	mustExec(t, s, "INSERT INTO finding_resource_index (snapshot, resource_hash, sev_order, id, written_at) "+
		"SELECT snapshot, resource_hash, sev_order, tid, written_at FROM other_keys")
	mustExec(t, s, fmt.Sprintf("INSERT INTO finding_resource_keys (tenant_id, audit_id, resource_hash, sev_order, id, written_at) "+
		"SELECT 'ten_a', '%s', cityHash64(resource_id) AS h, sev_order, tid, written_at FROM rows_as_text WHERE snapshot = %d ORDER BY h, sev_order, tid", aud, key))
	rerunMigrations(t, s, "0013_snapshot_findings")
	if n := indexRows(t, s, "ten_a", aud); n != uint64(len(a.findings)) {
		t.Fatalf("from finding_resource_keys: snapshot_finding_index holds %d keys of the snapshot, want %d", n, len(a.findings))
	}
	check("finding_resource_keys")
	if got := pageAll(t, s, "ten_b", engine.FindingFilter{AuditID: other, ResourceID: b.findings[0].ResourceID}, 50); len(got) == 0 {
		t.Fatal("the other tenant's snapshot lost its resource filter in the migration")
	}
	mustExec(t, s, fmt.Sprintf("INSERT INTO finding_resources (tenant_id, audit_id, resource_id, sev_order, id, written_at) "+
		"SELECT 'ten_a', '%s', resource_id, sev_order, tid, written_at FROM rows_as_text WHERE snapshot = %d ORDER BY resource_id, sev_order, tid", aud, key))
	if err := s.AlterLocal(t.Context(), "finding_resource_keys", "DELETE WHERE tenant_id = 'ten_a'"); err != nil {
		t.Fatal(err)
	}
	if err := s.WaitForMutations(t.Context()); err != nil {
		t.Fatal(err)
	}
	rerunMigrations(t, s, "0013_snapshot_findings")
	check("finding_resources")
}

// snapshot_findings knows a snapshot by its key alone: a snapshot whose key a
// complete snapshot of another tenant has is refused, whichever way it is
// written, and neither the refusal's cleanup nor a DropSnapshot of it
// touches the other's rows.
func TestSnapshotKeyOfAnotherSnapshotRefused(t *testing.T) {
	s := chtest.New(t)
	ctx := context.Background()
	audB := engine.NewID(engine.PrefixAudit, testNow)
	b := mustWriteSnapshot(t, s, "ten_b", audB, 120)
	clickhouse.ShareSnapshotKey(t, "ten_b", audB)
	audA := engine.NewID(engine.PrefixAudit, testNow.Add(time.Minute))
	if _, err := s.WriteSnapshot(ctx, "ten_a", audA, genFindings("ten_a", 30, testNow)); err == nil ||
		!strings.Contains(err.Error(), "another snapshot's") {
		t.Errorf("WriteSnapshot under ten_b's key: %v; want a refusal", err)
	}
	if _, err := s.AppendSnapshot(ctx, "ten_a", audA, genFindings("ten_a", 30, testNow)); err == nil {
		t.Error("AppendSnapshot under ten_b's key was accepted")
	}
	if err := s.CarryForward(ctx, "ten_a", audB, audA, testNow, testNow); err == nil {
		t.Error("CarryForward under ten_b's key was accepted")
	}
	if err := s.DropSnapshot(ctx, "ten_a", audA); err != nil {
		t.Fatal(err)
	}
	if err := s.WaitForMutations(ctx); err != nil {
		t.Fatal(err)
	}
	if got := pageAll(t, s, "ten_b", engine.FindingFilter{AuditID: audB}, 50); !gocmp.Equal(b.findings, got) {
		t.Errorf("ten_b's snapshot reads %d findings, want its %d", len(got), len(b.findings))
	}
	if got := pageAll(t, s, "ten_a", engine.FindingFilter{AuditID: audA}, 50); len(got) != 0 {
		t.Errorf("ten_a reads %d findings of a refused snapshot", len(got))
	}
	if n := indexRows(t, s, "ten_b", audB); n != uint64(len(b.findings)) {
		t.Errorf("ten_b's resource index holds %d keys, want %d", n, len(b.findings))
	}
}
