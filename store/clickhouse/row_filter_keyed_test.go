package clickhouse_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// tagResources writes, for the generated snapshot's resources idx
// (mustWriteSnapshot: resource i is arn:i), a version carrying tags.
func tagResources(t *testing.T, s *clickhouse.Store, tenantID string, idx []int, tags func(i int) map[string]string) []engine.Resource {
	t.Helper()
	var rs []engine.Resource
	for _, i := range idx {
		native := "arn:" + strconv.Itoa(i)
		rs = append(rs, engine.Resource{ID: engine.ResourceID(tenantID, "aws", native), TenantID: tenantID, Provider: "aws",
			Account: "acct-1", Region: "region-1", Type: "aws_instance", NativeID: native, Name: "name-" + strconv.Itoa(i),
			Tags: engine.TagsFromMap(tags(i)), FirstSeenAt: testNow, LastSeenAt: testNow})
	}
	mustWriteResources(t, s, tenantID, rs)
	return rs
}

// keyedFixture writes the snapshots of TestKeyedTagPages (tenants A and
// B under one audit id, every 13th resource of each tagged owner=o-0…2 and
// env=prod|dev, a mute rule on rule_003's open findings) and returns its
// queries under selective tag and q filters and, for each, the findings of
// tenant A it keeps, computed from those written.
func keyedFixture(t *testing.T) (s *clickhouse.Store, aud string, queries []engine.FindingQuery, want func(*testing.T, engine.FindingQuery) []engine.Finding) {
	t.Helper()
	s = chtest.New(t)
	aud = engine.NewID(engine.PrefixAudit, testNow)
	a := mustWriteSnapshot(t, s, "ten_a", aud, 3000) // resources 0…599
	mustWriteSnapshot(t, s, "ten_b", aud, 3000)
	var idx []int
	for i := 0; i < 600; i += 13 {
		idx = append(idx, i)
	}
	owner := func(i int) map[string]string {
		return map[string]string{"owner": "o-" + strconv.Itoa(i%3), "env": []string{"prod", "dev"}[i%2]}
	}
	tagged := map[string]engine.Resource{}
	for _, r := range tagResources(t, s, "ten_a", idx, owner) {
		tagged[r.ID] = r
	}
	tagResources(t, s, "ten_b", idx, owner)
	resolved, reopened := "", ""
	var muted []engine.Finding
	for _, f := range a.findings {
		if _, ok := tagged[f.ResourceID]; !ok {
			continue
		}
		if f.Status == engine.StatusOpen && resolved == "" {
			resolved = f.ID
		}
	}
	for _, f := range a.findings {
		if f.Status == engine.StatusResolved && tagged[f.ResourceID].ID != "" {
			reopened = f.ID // fixed (genFinding): a decision never reopens it
		}
	}
	for _, f := range a.findings {
		if f.RuleID == "rule_003" && f.Status == engine.StatusOpen {
			muted = append(muted, f)
		}
	}
	mute := engine.MuteRef{RuleID: "mrl_keyed", Version: 1}
	if err := s.PutMuteMatches(context.Background(), "ten_a", aud, mute, muted); err != nil || len(muted) == 0 || resolved == "" || reopened == "" {
		t.Fatalf("PutMuteMatches of %d: %v (resolved %q, reopened %q)", len(muted), err, resolved, reopened)
	}
	mutedTag := ""
	for _, f := range muted {
		if r, ok := tagged[f.ResourceID]; ok {
			v, _ := r.Tags.Get("owner")
			mutedTag = "owner=" + v
		}
	}
	if mutedTag == "" {
		t.Fatal("no tagged resource has a muted finding: the test proves little")
	}
	queries = []engine.FindingQuery{
		{Filter: engine.FindingFilter{Tags: "owner=o-1"}},
		{Filter: engine.FindingFilter{Tags: "owner=o-1\nenv=prod"}},
		{Filter: engine.FindingFilter{Tags: "owner=o-2", Severity: engine.SeverityMedium}},
		{Filter: engine.FindingFilter{Tags: "owner=o-0", Account: "acct-7"}},
		{Filter: engine.FindingFilter{Tags: "owner=o-0", Status: engine.StatusOpen}, ForceResolved: []string{resolved}},
		{Filter: engine.FindingFilter{Tags: "owner=o-0", Status: engine.StatusResolved}, ForceOpen: []string{reopened}},
		{Filter: engine.FindingFilter{Tags: mutedTag, Status: engine.StatusOpen}, Mutes: []engine.MuteRef{mute}},
		{Filter: engine.FindingFilter{Tags: mutedTag, Status: engine.StatusMuted}, Mutes: []engine.MuteRef{mute}},
		{Filter: engine.FindingFilter{Tags: "owner=o-2", FirstSeenAfter: testNow.Add(-36 * 3600e9)}},
		{Filter: engine.FindingFilter{Tags: "owner=o-2", Compliance: "CIS-AWS-4.0.1:1.1"}},
		{Filter: engine.FindingFilter{Tags: "owner=nobody"}},
		{Filter: engine.FindingFilter{Q: "name-14"}},                      // q on resources only (no title holds it)
		{Filter: engine.FindingFilter{Q: "name-2", Tags: "env=prod"}},     // both listed: their intersection
		{Filter: engine.FindingFilter{Q: "Rule 3", Tags: "owner=o-1"}},    // q holds titles: within the tag's keys
		{Filter: engine.FindingFilter{Q: "name-9", Tags: "owner=nobody"}}, // an empty intersection
	}
	qOf := func(f engine.Finding) string { return tagged[f.ResourceID].Name }
	want = func(t *testing.T, q engine.FindingQuery) []engine.Finding {
		t.Helper()
		var out []engine.Finding
		for _, f := range a.findings {
			r, ok := tagged[f.ResourceID]
			for _, tg := range q.Filter.TagPairs() {
				v, has := r.Tags.Get(tg.Key)
				ok = ok && has && v == tg.Value
			}
			if fq := strings.ToLower(q.Filter.Q); fq != "" {
				ok = ok && (strings.Contains(strings.ToLower(f.Title), fq) || strings.Contains(qOf(f), fq))
			}
			if ok && keeps(q, f) {
				out = append(out, f)
			}
		}
		if len(out) == 0 && !strings.Contains(q.Filter.Tags, "nobody") {
			t.Fatalf("%+v matches nothing: the test proves little", q.Filter)
		}
		return out
	}
	return s, aud, queries, want
}

// TestKeyedTagPages is the differential test of pages and counts by key
// under a selective tag or q filter (row_filter_keyed.go): alone and with
// ordinary filters, a status under people's decisions and mutes, other row
// filters, they page through the same findings in the same order, with
// cursors across pages and severity buckets, by key as through the
// resource index's subquery (the reads before) and as computed from the
// findings written; tenant B's snapshot under the same audit id, whose
// resources carry the same tags, never shows.
func TestKeyedTagPages(t *testing.T) {
	defer clickhouse.SetFilterMemo(false)() // every read its own (TestFilterMemo: with the memo)
	s, aud, queries, wantOf := keyedFixture(t)
	for i, q := range queries {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			want := wantOf(t, q)
			for _, keyed := range []bool{true, false} {
				restore := clickhouse.SetKeyedReads(keyed)
				reads := clickhouse.RowFilterKeyedReads()
				for _, limit := range []int{9, 200} {
					got := pageAllQuery(t, s, "ten_a", aud, q, limit)
					if diff := gocmp.Diff(want, got); diff != "" {
						t.Errorf("keyed %v, limit %d: pages (-want +got):\n%s", keyed, limit, diff)
					}
				}
				if n := clickhouse.RowFilterKeyedReads() - reads; keyed != (n > 0) && len(want) > 0 {
					t.Errorf("keyed %v: %d key reads", keyed, n)
				}
				cq := engine.FindingCountQuery{TenantID: "ten_a", Filter: q.Filter, ForceResolved: q.ForceResolved, ForceOpen: q.ForceOpen, Mutes: q.Mutes}
				cq.Filter.AuditID = aud
				counts, err := s.CountFindings(context.Background(), cq)
				restore()
				if err != nil || len(counts) != 1 || counts[0].Count != int64(len(want)) {
					t.Errorf("keyed %v: count %+v (%v), want %d", keyed, counts, err, len(want))
				}
			}
		})
	}
}

// fewOwnersFixture writes a snapshot of 120,000 findings of ten_a over
// 24,000 resources and tags 20 of them, spread over the whole snapshot,
// owner=few (100 findings): the selective tag that matches findings of the
// keyed-read tests. It returns the store, the audit and that filter.
func fewOwnersFixture(t *testing.T) (*clickhouse.Store, string, engine.FindingFilter) {
	t.Helper()
	s := chtest.New(t)
	aud, f := fewOwnersOn(t, s)
	return s, aud, f
}

// fewOwnersOn writes the snapshot of fewOwnersFixture into s and returns
// its audit and filter.
func fewOwnersOn(t *testing.T, s *clickhouse.Store) (string, engine.FindingFilter) {
	t.Helper()
	aud := engine.NewID(engine.PrefixAudit, testNow)
	const n = 120_000
	mustWriteSnapshot(t, s, "ten_a", aud, n) // resources 0…23,999
	var idx []int
	for i := 0; i < n/5; i += 1200 {
		idx = append(idx, i) // 20 resources, 100 findings, all over the snapshot
	}
	tagResources(t, s, "ten_a", idx, func(int) map[string]string { return map[string]string{"owner": "few"} })
	f := engine.FindingFilter{AuditID: aud, Tags: "owner=few"}
	return aud, f
}

// TestKeyedKeysReadHashesFirst: the keys of a selective tag's resources
// are read from the resource index with their hashes as a PREWHERE: a
// hash's key selects a granule in every part of the snapshot, and only
// the granules that hold one of the hashes (a resource's findings come in
// one run, one part) need the keys' other columns read. With the
// snapshot in six parts, at most half the bytes of the read before (at
// 10M findings in six parts: 4.4 MB instead of 18 for 100 resources,
// issue 33 §3); the page is the same.
func TestKeyedKeysReadHashesFirst(t *testing.T) {
	if chtest.Cluster() != "" {
		t.Skip("counts the queries in one server's system.query_log")
	}
	defer clickhouse.SetFilterMemo(false)()
	s := chtest.NewWithConfig(t, clickhouse.Config{BatchSize: 20_000}) // six runs, six parts
	clickhouse.StopMerges(t, s, "snapshot_finding_index")
	aud, f := fewOwnersOn(t, s)
	if n := clickhouse.ActiveParts(t, s, "snapshot_finding_index"); n < 6 {
		t.Fatalf("the resource index has %d parts, want 6 (merges stopped)", n)
	}
	read := map[bool]uint64{}
	pages := map[bool][]engine.Finding{}
	for _, prewhere := range []bool{true, false} {
		restore := clickhouse.SetPrewhereHashes(prewhere)
		read[prewhere] = clickhouse.KeysReadBytes(t, s, "ten_a", aud, func() {
			got, err := s.ListFindings(context.Background(), engine.FindingQuery{TenantID: "ten_a", Filter: f, Limit: 5})
			if err != nil || len(got) != 5 {
				t.Errorf("prewhere %v: %d findings, %v; want 5", prewhere, len(got), err)
			}
			pages[prewhere] = got
		})
		restore()
	}
	if d := gocmp.Diff(pages[false], pages[true]); d != "" {
		t.Errorf("the pages differ (-WHERE +PREWHERE):\n%s", d)
	}
	t.Logf("bytes of the keys read: hashes as PREWHERE %d, in WHERE %d", read[true], read[false])
	if read[true] == 0 || read[false] == 0 || read[true]*2 > read[false] {
		t.Errorf("the keys read %d bytes with the hashes as PREWHERE, %d in WHERE: want at most half", read[true], read[false])
	}
}

// TestKeyedTagPageReadsLittle: a page of a tag on a hundred findings
// spread over the whole snapshot reads the granules of the page's keys and
// of the tag's resources in the resource index, less than half of what the
// page through the resource index's subquery read: the granules of every
// matching finding (at 10M, 4,565 marks and 405 MB for 100 resources, ~0.9
// s of ClickHouse CPU: issue 33 §3). Counted by the queries' SelectedMarks
// in system.query_log (18.16 leaves subqueries out of read_rows). Its
// count is the same both ways.
func TestKeyedTagPageReadsLittle(t *testing.T) {
	if chtest.Cluster() != "" {
		t.Skip("counts the queries in one server's system.query_log")
	}
	defer clickhouse.SetFilterMemo(false)()
	s, aud, f := fewOwnersFixture(t)
	marks := map[bool]uint64{}
	for _, keyed := range []bool{true, false} {
		restore := clickhouse.SetKeyedReads(keyed)
		marks[keyed] = clickhouse.SelectedMarks(t, s, "ten_a", aud, func() {
			got, err := s.ListFindings(context.Background(), engine.FindingQuery{TenantID: "ten_a", Filter: f, Limit: 5})
			if err != nil || len(got) != 5 {
				t.Errorf("keyed %v: %d findings, %v; want 5", keyed, len(got), err)
			}
		})
		if n := countAll(t, s, "ten_a", f); n != 100 {
			t.Errorf("keyed %v: count %d, want 100", keyed, n)
		}
		restore()
	}
	t.Logf("granules read by a page: by key %d, through the index's subquery %d", marks[true], marks[false])
	if marks[true] == 0 || marks[false] == 0 || marks[true]*2 > marks[false] {
		t.Errorf("a page by key read %d granules, through the index's subquery %d: want less than half", marks[true], marks[false])
	}
}
