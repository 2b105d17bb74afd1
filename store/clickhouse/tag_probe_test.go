package clickhouse_test

import (
	"fmt"
	"slices"
	"strconv"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// TestDenseTagProbes (issue 33 §3): a tag on more resources than the
// resource index path takes (maxSelectiveResources) pages by probing key
// ranges, each checking the latest versions of its range's candidates
// only, instead of one pass that checks every candidate's latest version
// and reads every row's resource_id (~0.8 s at 10M for a tag on 6 % of the
// resources). The pages, with cursors across pages and buckets, are the
// reference's, the pass's (no probes) and the scan's (no tag index); a
// resource retagged after the snapshot (its old tag still indexed) is read
// by its latest tags; tenant B's snapshot under the same audit id, whose
// resources carry the same tags, never shows. A page of a dense tag takes
// no pass.
func TestDenseTagProbes(t *testing.T) {
	s := chtest.New(t)
	aud := engine.NewID(engine.PrefixAudit, testNow)
	const nres = 1200 // 5 findings a resource (genPerResrc)
	resources := func(tenant string) []engine.Resource {
		var rs []engine.Resource
		for i := range nres {
			native := "arn:" + strconv.Itoa(i) // the resources of genFindings
			rs = append(rs, engine.Resource{ID: engine.ResourceID(tenant, "aws", native), TenantID: tenant, Provider: "aws",
				Account: "acct-1", Region: "region-1", Type: "aws_instance", NativeID: native, Name: "n" + strconv.Itoa(i),
				Tags:        engine.TagsFromMap(map[string]string{"env": []string{"prod", "dev"}[i%2], "team": "team-" + strconv.Itoa(i%5)}),
				FirstSeenAt: testNow, LastSeenAt: testNow})
		}
		return rs
	}
	rs := resources("ten_a")
	mustWriteResources(t, s, "ten_a", rs)
	mustWriteResources(t, s, "ten_b", resources("ten_b"))
	snap := mustWriteSnapshot(t, s, "ten_a", aud, nres*5)
	mustWriteSnapshot(t, s, "ten_b", aud, nres*5)
	// Every 7th resource of team-3 moves to team-4 after the snapshot.
	var moved []engine.Resource
	for i := 3; i < nres; i += 35 {
		r := rs[i]
		r.Tags = engine.TagsFromMap(map[string]string{"env": "dev", "team": "team-4"})
		r.LastSeenAt = testNow.Add(time.Hour)
		rs[i] = r
		moved = append(moved, r)
	}
	mustWriteResources(t, s, "ten_a", moved)
	byID := map[string]engine.Resource{}
	for _, r := range rs {
		byID[r.ID] = r
	}
	restoreSel := clickhouse.SetMaxSelectiveResources(100) // 240 resources a team: dense
	defer restoreSel()
	for _, f := range []engine.FindingFilter{
		{Tags: "team=team-3"},
		{Tags: "team=team-4"},
		{Tags: "env=prod\nteam=team-3"},
		{Tags: "env=dev"},
		{Tags: "team=team-3", Severity: engine.SeverityHigh},
		{Tags: "team=team-3", Status: engine.StatusResolved},
		{Tags: "team=team-2", FirstSeenAfter: testNow.Add(-36 * time.Hour)},
	} {
		t.Run(fmt.Sprintf("%q", f.Tags), func(t *testing.T) {
			f.AuditID = aud
			var want []engine.Finding
			for _, x := range snap.findings {
				r, ok := byID[x.ResourceID], true
				for _, tg := range f.TagPairs() {
					v, has := r.Tags.Get(tg.Key)
					ok = ok && has && v == tg.Value
				}
				if ok && keeps(engine.FindingQuery{Filter: engine.FindingFilter{FirstSeenAfter: f.FirstSeenAfter}}, x) && matches(x, f) {
					want = append(want, x)
				}
			}
			slices.SortFunc(want, listOrder)
			if len(want) == 0 {
				t.Fatal("the filter matches nothing: the test proves little")
			}
			for _, way := range []struct {
				name          string
				probes, index bool
			}{{"probes", true, true}, {"pass", false, true}, {"scan", true, false}} {
				restoreProbes, restoreIdx := clickhouse.SetRangeProbes(way.probes), clickhouse.SetTagIndex(way.index)
				for _, limit := range []int{97, 1000} {
					passes := clickhouse.RowFilterPasses()
					got := pageAll(t, s, "ten_a", f, limit)
					if diff := gocmp.Diff(want, got); diff != "" {
						t.Errorf("%s, limit %d: pages (-want +got):\n%s", way.name, limit, diff)
					}
					if n := clickhouse.RowFilterPasses() - passes; way.name == "probes" && n != 0 {
						t.Errorf("limit %d: %d passes, want none", limit, n)
					}
				}
				if n := countAll(t, s, "ten_a", f); n != int64(len(want)) {
					t.Errorf("%s: count %d, want %d", way.name, n, len(want))
				}
				restoreIdx()
				restoreProbes()
			}
		})
	}
}
