package clickhouse_test

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// TestSelectiveTagAndQFilters is the differential test of the tag and q
// filters' indexes: a filter that matches few resources reads their
// findings' keys from the snapshot's resource index
// (row_filter_selective.go), and the tag filter takes its candidates from
// resource_tag_index; the pages and counts are the same as with the
// subquery over every finding (maxSelectiveResources 0) and the scan of
// every resource (no tag index), and as computed from the resources
// written; a resource retagged after the snapshot (its old tags still
// indexed) is read by its latest tags every way, and resources renamed
// after it by their latest names (q's candidates are any version's:
// resolveQ keeps those whose latest version holds q, or, past
// qCandidateFactor×maxSelectiveResources candidates, resolves q by the one
// query); tenant B's resources of the same names and its snapshot under
// the same audit id never show.
func TestSelectiveTagAndQFilters(t *testing.T) {
	s := chtest.New(t)
	const tenant, nres = "ten_sel", 60
	aud := engine.NewID(engine.PrefixAudit, testNow)
	var rs []engine.Resource
	for i := range nres {
		native := "arn:" + strconv.Itoa(i)
		name := "Name-" + strconv.Itoa(i)
		if i >= 30 && i <= 50 {
			name = "Old-Name-" + strconv.Itoa(i) // renamed below but 50
		}
		rs = append(rs, engine.Resource{ID: engine.ResourceID(tenant, "aws", native), TenantID: tenant, Provider: "aws",
			Account: "acct-1", Region: "region-1", Type: "aws_instance", NativeID: native, Name: name,
			Tags:        engine.TagsFromMap(map[string]string{"env": []string{"prod", "dev"}[i%2], "team": "team-" + strconv.Itoa(i%5)}),
			FirstSeenAt: testNow, LastSeenAt: testNow})
	}
	mustWriteResources(t, s, tenant, rs)
	snap := mustWriteSnapshot(t, s, tenant, aud, nres*5) // 5 findings a resource (genPerResrc)
	// Tenant B: resources of the same names and native ids, and a
	// snapshot under the same audit id.
	var other []engine.Resource
	for _, r := range rs {
		r.ID, r.TenantID = engine.ResourceID("ten_sel_b", "aws", r.NativeID), "ten_sel_b"
		other = append(other, r)
	}
	mustWriteResources(t, s, "ten_sel_b", other)
	mustWriteSnapshot(t, s, "ten_sel_b", aud, nres*5)
	// Resource 3 (team-3) moves to team-4 after the snapshot.
	moved := rs[3]
	moved.Tags = engine.TagsFromMap(map[string]string{"env": "dev", "team": "team-4"})
	moved.LastSeenAt = testNow.Add(time.Hour)
	mustWriteResources(t, s, tenant, []engine.Resource{moved})
	rs[3] = moved
	// Resources 30–49 are renamed: their old names only in older versions.
	var renamed []engine.Resource
	for i := 30; i < 50; i++ {
		r := rs[i]
		r.Name = "Name-" + strconv.Itoa(i)
		r.LastSeenAt = testNow.Add(time.Hour)
		renamed = append(renamed, r)
		rs[i] = r
	}
	mustWriteResources(t, s, tenant, renamed)

	byID := map[string]engine.Resource{}
	for _, r := range rs {
		byID[r.ID] = r
	}
	want := func(f engine.FindingFilter) []engine.Finding {
		var out []engine.Finding
		for _, x := range snap.findings {
			r := byID[x.ResourceID]
			ok := true
			for _, tg := range f.TagPairs() {
				v, has := r.Tags.Get(tg.Key)
				ok = ok && has && v == tg.Value
			}
			if f.Q != "" {
				q := strings.ToLower(f.Q)
				ok = ok && (strings.Contains(strings.ToLower(x.Title), q) || strings.Contains(strings.ToLower(r.Name), q) ||
					strings.Contains(strings.ToLower(r.NativeID), q))
			}
			if ok && (f.Status == "" || x.Status == f.Status) {
				out = append(out, x)
			}
		}
		return out
	}
	for _, f := range []engine.FindingFilter{
		{Tags: "team=team-3"},
		{Tags: "env=prod\nteam=team-3"},
		{Tags: "team=team-4", Status: engine.StatusOpen},
		{Tags: "team=nobody"},
		{Q: "arn:1"},
		{Q: "NAME-7"},
		{Q: "rule 3"},
		{Q: "3"}, // titles and resources alike
		{Q: "nothing-like-it"},
		{Q: "name-1", Tags: "env=dev"},
		{Q: "old-name"},   // 21 candidates, 1 latest
		{Q: "OLD-NAME-4"}, // older versions only: none
		{Q: "name-4"},
		{Q: "rule 3", Tags: "team=team-3"},
	} {
		t.Run(fmt.Sprintf("%q/%q", f.Tags, f.Q), func(t *testing.T) {
			f.AuditID = aud
			w := want(f)
			if len(w) == 0 && !strings.Contains(f.Tags, "nobody") && !strings.Contains(f.Q, "nothing") && f.Q != "OLD-NAME-4" {
				t.Fatal("the filter matches nothing: the test proves little")
			}
			// Each way of answering: the resources resolved first or by a
			// subquery (maxSelectiveResources 0), their candidates from the
			// tag index or a scan of the tenant's resources (as before the
			// index).
			// With few resources listed (5: q's candidates are at most 20),
			// "old-name" is resolved by the one query, "arn:1" (11
			// resources) and "3" (15, and titles) by their list, not by
			// key (qWide), and a team's tag and "3" are probed by range.
			for _, way := range []struct {
				name      string
				selective bool
				index     bool
				max       int
			}{{"selective, tag index", true, true, 0}, {"subquery, tag index", false, true, 0},
				{"subquery, scan", false, false, 0}, {"selective, scan", true, false, 0}, {"selective, few", true, true, 5}} {
				restoreIdx := clickhouse.SetTagIndex(way.index)
				restore := func() {}
				if !way.selective {
					restore = clickhouse.SetMaxSelectiveResources(0)
				} else if way.max > 0 {
					restore = clickhouse.SetMaxSelectiveResourcesOnly(way.max)
				}
				probes := clickhouse.RowFilterProbes()
				got := pageAll(t, s, tenant, f, 7)
				probes = clickhouse.RowFilterProbes() - probes
				count := countAll(t, s, tenant, f)
				restore()
				restoreIdx()
				if way.max > 0 && (f.Tags == "team=team-3" || f.Q == "3") && probes == 0 {
					t.Errorf("%s: no range was probed", way.name)
				}
				slices.SortFunc(w, listOrder)
				if diff := gocmp.Diff(w, got); diff != "" {
					t.Errorf("%s: pages (-want +got):\n%s", way.name, diff)
				}
				if count != int64(len(w)) {
					t.Errorf("%s: count %d, want %d", way.name, count, len(w))
				}
			}
		})
	}
}

// countAll counts a snapshot's findings matching f.
func countAll(t *testing.T, s *clickhouse.Store, tenantID string, f engine.FindingFilter) int64 {
	t.Helper()
	got, err := s.CountFindings(context.Background(), engine.FindingCountQuery{TenantID: tenantID, Filter: f})
	if err != nil {
		t.Fatalf("CountFindings: %v", err)
	}
	var n int64
	for _, g := range got {
		n += g.Count
	}
	return n
}

// TestTagIndexBackfill: migration 0018 indexes the tags of the resources
// written before it (the writer indexes those written after): with the
// index emptied and the migration run again, the tag filter finds what it
// found before.
func TestTagIndexBackfill(t *testing.T) {
	defer clickhouse.SetFilterMemo(false)() // the index changes between the reads
	s := chtest.New(t)
	ctx := context.Background()
	const tenant = "ten_tagfill"
	aud := engine.NewID(engine.PrefixAudit, testNow)
	var rs []engine.Resource
	for i := range 40 {
		native := "arn:" + strconv.Itoa(i) // the resources of mustWriteSnapshot
		rs = append(rs, engine.Resource{ID: engine.ResourceID(tenant, "aws", native), TenantID: tenant, Provider: "aws",
			Account: "acct-1", Region: "region-1", Type: "aws_instance", NativeID: native, Name: "n" + strconv.Itoa(i),
			Tags: engine.TagsFromMap(map[string]string{"team": "team-" + strconv.Itoa(i%4)}), FirstSeenAt: testNow, LastSeenAt: testNow})
	}
	mustWriteResources(t, s, tenant, rs)
	mustWriteSnapshot(t, s, tenant, aud, len(rs)*5)
	f := engine.FindingFilter{AuditID: aud, Tags: "team=team-1"}
	before := countAll(t, s, tenant, f)
	if before == 0 {
		t.Fatal("the tag matches nothing: the test proves little")
	}
	// Emptied on every shard (a TRUNCATE of a Distributed table would not).
	if err := s.AlterLocal(ctx, "resource_tags", "DELETE WHERE 1"); err != nil {
		t.Fatal(err)
	}
	if err := s.WaitForMutations(ctx); err != nil {
		t.Fatal(err)
	}
	if n := countAll(t, s, tenant, f); n != 0 {
		t.Fatalf("with the index emptied the tag filter still counts %d: the index is not read", n)
	}
	mustExec(t, s, "ALTER TABLE schema_migrations DELETE WHERE version = '0018_resource_tags'")
	if err := s.WaitForMutations(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if n := countAll(t, s, tenant, f); n != before {
		t.Errorf("after the backfill the tag filter counts %d, before %d", n, before)
	}
}

// TestTagIndexWrittenByTheWriter (issue 30 §2): the tag index is written
// by the resource writers, a row per tag of every version they write
// (the bulk write and ResourceWriter alike), with the keys the server
// computes (cityHash64, as migration 0018's backfill), and no view runs in
// the INSERTs into resources any more (0017's cost a first import as much
// as the resources did). A resource without tags has no row.
func TestTagIndexWrittenByTheWriter(t *testing.T) {
	s := chtest.New(t)
	ctx := context.Background()
	const tenant = "ten_tagwrite"
	var rs []engine.Resource
	for i := range 30 {
		native := "arn:" + strconv.Itoa(i)
		tags := map[string]string{"team": "team-" + strconv.Itoa(i%4), "env": "prod", "k\u00e9y": "v=" + strconv.Itoa(i%2)}
		if i%10 == 0 {
			tags = nil
		}
		rs = append(rs, engine.Resource{ID: engine.ResourceID(tenant, "aws", native), TenantID: tenant, Provider: "aws",
			Account: "acct-1", Region: "region-1", Type: "aws_instance", NativeID: native, Name: "n" + strconv.Itoa(i),
			Tags: engine.TagsFromMap(tags), FirstSeenAt: testNow, LastSeenAt: testNow})
	}
	mustWriteResources(t, s, tenant, rs[:20]) // the bulk write
	w := s.NewResourceWriter(clickhouse.ResourceWriterConfig{BatchSize: 4, FlushInterval: -1})
	for _, r := range rs[20:] {
		if err := w.Write(ctx, tenant, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(ctx); err != nil {
		t.Fatal(err)
	}
	wantRows := 0
	for _, r := range rs {
		wantRows += len(r.Tags)
	}
	var rows, matching, views uint64
	in := "IN"
	if s.LocalTable("resources") != "resources" {
		in = "GLOBAL IN" // cluster mode: the subquery reads a Distributed table too
	}
	mustQueryRow(t, s, "SELECT count() FROM resource_tags", &rows)
	mustQueryRow(t, s, `SELECT count() FROM resource_tags WHERE (tenant, tag, id) `+in+` (
SELECT cityHash64(tenant_id), cityHash64(concat(tag_key, '\0', tag_value)), id FROM resources ARRAY JOIN tags.key AS tag_key, tags.value AS tag_value)`, &matching)
	mustQueryRow(t, s, "SELECT count() FROM system.tables WHERE database = currentDatabase() AND engine = 'MaterializedView' AND name LIKE 'resource%'", &views)
	if rows != uint64(wantRows) || matching != rows {
		t.Errorf("resource_tags has %d rows, %d of them the server's keys of a stored tag; want %d", rows, matching, wantRows)
	}
	if views != 0 {
		t.Errorf("%d materialized views still run on resources", views)
	}
	// Every way of reading the tag filter agrees with the resources.
	for _, tags := range []string{"team=team-1", "k\u00e9y=v=1\nenv=prod", "env=staging"} {
		var want []string
		for _, r := range rs {
			ok := true
			for _, tg := range (engine.FindingFilter{Tags: tags}).TagPairs() {
				v, has := r.Tags.Get(tg.Key)
				ok = ok && has && v == tg.Value
			}
			if ok {
				want = append(want, r.ID)
			}
		}
		got := clickhouse.TagMatchingIDs(t, s, tenant, tags)
		slices.Sort(want)
		if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("tag %q: the index's resources %v, want %v", tags, got, want)
		}
	}
}
