package clickhouse_test

import (
	"context"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// TestFilterMemo: the second page of a selective tag (by cursor) and its
// count resolve nothing again and read no key from the resource index (the
// memo answers), with the same findings as without the memo; tenant B,
// under the same audit id and with the same tag on other resources,
// resolves its own and never sees tenant A's findings; a tag on too many
// resources to list is remembered as such too.
func TestFilterMemo(t *testing.T) {
	s := chtest.New(t)
	aud := engine.NewID(engine.PrefixAudit, testNow)
	a := mustWriteSnapshot(t, s, "ten_a", aud, 2000) // resources 0…399
	b := mustWriteSnapshot(t, s, "ten_b", aud, 2000)
	var idx, idxB []int
	for i := 0; i < 400; i += 11 {
		idx, idxB = append(idx, i), append(idxB, i+5)
	}
	owner := func(int) map[string]string { return map[string]string{"owner": "memo", "env": "prod"} }
	tagResources(t, s, "ten_a", idx, owner)
	tagResources(t, s, "ten_b", idxB, owner)
	f := engine.FindingFilter{AuditID: aud, Tags: "owner=memo"}
	ctx := context.Background()

	type read struct {
		pages [][]engine.Finding
		count int64
	}
	readAll := func(tenant string) (r read, resolutions, keyReads int64) {
		res, keys := clickhouse.SelectiveResolutions(), clickhouse.RowFilterKeyedReads()
		var after *engine.FindingKey
		for {
			page, err := s.ListFindings(ctx, engine.FindingQuery{TenantID: tenant, Filter: f, After: after, Limit: 40})
			if err != nil {
				t.Fatal(err)
			}
			r.pages = append(r.pages, page)
			if len(page) < 40 {
				break
			}
			last := page[len(page)-1]
			after = &engine.FindingKey{SeverityRank: last.Severity.Rank(), ID: last.ID}
		}
		r.count = countAll(t, s, tenant, f)
		return r, clickhouse.SelectiveResolutions() - res, clickhouse.RowFilterKeyedReads() - keys
	}
	restore := clickhouse.SetFilterMemo(false)
	wantA, _, _ := readAll("ten_a")
	wantB, _, _ := readAll("ten_b")
	restore()
	if len(wantA.pages) < 3 || wantA.count != int64(5*len(idx)) {
		t.Fatalf("tenant A: %d pages, count %d; want 3 or more, %d", len(wantA.pages), wantA.count, 5*len(idx))
	}
	gotA, res, keys := readAll("ten_a")
	if res != 1 || keys != 1 {
		t.Errorf("tenant A, %d pages and a count: %d resolutions and %d key reads, want 1 and 1", len(gotA.pages), res, keys)
	}
	gotB, res, keys := readAll("ten_b")
	if res != 1 || keys != 1 {
		t.Errorf("tenant B: %d resolutions and %d key reads, want its own 1 and 1", res, keys)
	}
	if diff := gocmp.Diff(wantA, gotA, gocmp.AllowUnexported(read{})); diff != "" {
		t.Errorf("tenant A with the memo (-without +with):\n%s", diff)
	}
	if diff := gocmp.Diff(wantB, gotB, gocmp.AllowUnexported(read{})); diff != "" {
		t.Errorf("tenant B with the memo (-without +with):\n%s", diff)
	}
	for _, p := range gotB.pages {
		for _, x := range p {
			if x.TenantID != "ten_b" || !slicesContainsRes(b, x.ResourceID) || slicesContainsRes(a, x.ResourceID) {
				t.Fatalf("tenant B sees %s of %s", x.ID, x.TenantID)
			}
		}
	}
	// A tag on more resources than are listed: resolved once, paged by
	// probes.
	defer clickhouse.SetMaxSelectiveResources(10)()
	_, res1, _ := readAll("ten_a")
	_, res2, keys2 := readAll("ten_a")
	if res1 != 1 || res2 != 0 || keys2 != 0 {
		t.Errorf("a tag on too many to list: %d then %d resolutions (%d key reads), want 1 then 0 (0)", res1, res2, keys2)
	}
}

// slicesContainsRes reports whether a finding of snap is on resource id.
func slicesContainsRes(snap snapshot, id string) bool {
	for _, f := range snap.findings {
		if f.ResourceID == id {
			return true
		}
	}
	return false
}
