package clickhouse_test

import (
	"context"
	"fmt"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// The writer hashes resource ids in Go, CarryForward and nothing else on
// the server: both must be ClickHouse's cityHash64.
func TestResourceHashIsTheServers(t *testing.T) {
	s := chtest.New(t)
	for _, id := range []string{"", "res_1", engine.ResourceID("ten_a", "aws", "arn:aws:s3:::bucket"),
		"a string longer than sixty-four bytes, to take the long path of the hash as well ........"} {
		var want uint64
		mustQueryRow(t, s, fmt.Sprintf("SELECT cityHash64('%s')", id), &want)
		if got := clickhouse.ResourceHash(id); got != want {
			t.Errorf("resourceHash(%q) = %d, the server's cityHash64 = %d", id, got, want)
		}
	}
}

// A resource's findings come from finding_resource_keys for new snapshots
// and from finding_resources for those written before it; a key that
// another resource's hash brings along (a collision) never shows.
func TestResourceKeysOldTableAndCollisions(t *testing.T) {
	s := chtest.New(t)
	ctx := context.Background()
	aud := engine.NewID(engine.PrefixAudit, testNow)
	a := mustWriteSnapshot(t, s, "ten_a", aud, 600)
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

	// A colliding key: resource X's hash also names a finding of Y.
	mustExec(t, s, fmt.Sprintf("INSERT INTO finding_resource_keys (tenant_id, audit_id, resource_hash, sev_order, id, written_at) "+
		"SELECT tenant_id, audit_id, %d, sev_order, id, written_at FROM findings WHERE tenant_id = 'ten_a' AND id = '%s'",
		clickhouse.ResourceHash(x.ResourceID), y.ID))
	check("with a collision")

	// The snapshot's keys as a snapshot written before the new index has them.
	mustExec(t, s, "INSERT INTO finding_resources (tenant_id, audit_id, resource_id, sev_order, id, written_at) "+
		"SELECT tenant_id, audit_id, resource_id, sev_order, id, written_at FROM findings WHERE tenant_id = 'ten_a' ORDER BY resource_id, sev_order, id")
	mustExec(t, s, "ALTER TABLE finding_resource_keys DELETE WHERE tenant_id = 'ten_a'")
	if err := s.WaitForMutations(ctx); err != nil {
		t.Fatal(err)
	}
	check("old index")
}
