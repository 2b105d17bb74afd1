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

// TestRowFilterProbes is the differential test of the bounded probes of
// row-filtered pages (row_filter_page.go): first-seen, compliance and q
// filters (q over titles, names and native ids, resolved to lists) that
// keep every row, half of them, few or none, alone and with
// ordinary filters, a status under people's decisions and mutes, page
// through the same findings in the same order, with cursors across pages
// and severity buckets, with the probes as without them (one unbounded
// pass a page), and as computed from the findings written; tenant B's
// snapshot under the same audit id never shows.
func TestRowFilterProbes(t *testing.T) {
	s := chtest.New(t)
	aud := engine.NewID(engine.PrefixAudit, testNow)
	a := mustWriteSnapshot(t, s, "ten_a", aud, 1500)
	mustWriteSnapshot(t, s, "ten_b", aud, 500)
	// The resources of ten_a's findings, named r<i>x (q "14" holds the
	// titles of rules 14 and 140–149 and names such as r114x and arn:14).
	var rs []engine.Resource
	names := map[string]string{}
	for i := range 1500 / 5 {
		native := "arn:" + strconv.Itoa(i)
		r := engine.Resource{ID: engine.ResourceID("ten_a", "aws", native), TenantID: "ten_a", Provider: "aws",
			Account: "acct-1", Region: "region-1", Type: "aws_instance", NativeID: native, Name: "r" + strconv.Itoa(i) + "x",
			FirstSeenAt: testNow, LastSeenAt: testNow}
		rs = append(rs, r)
		names[r.ID] = strings.ToLower(r.Name + "\n" + r.NativeID)
	}
	mustWriteResources(t, s, "ten_a", rs)
	qHolds := func(q string, f engine.Finding) bool {
		q = strings.ToLower(q)
		return q == "" || strings.Contains(strings.ToLower(f.Title), q) || strings.Contains(names[f.ResourceID], q)
	}
	resolved, reopened := a.findings[10].ID, ""
	for _, f := range a.findings {
		if f.Status == engine.StatusResolved && f.Resolution != engine.ResolutionFixed {
			reopened = f.ID
		}
	}
	// A mute rule matching the open findings of rule_003.
	mute := engine.MuteRef{RuleID: "mrl_probe", Version: 1}
	var muted []engine.Finding
	for _, f := range a.findings {
		if f.RuleID == "rule_003" && f.Status == engine.StatusOpen {
			muted = append(muted, f)
		}
	}
	if err := s.PutMuteMatches(context.Background(), "ten_a", aud, mute, muted); err != nil || len(muted) == 0 {
		t.Fatalf("PutMuteMatches of %d: %v", len(muted), err)
	}
	hours := func(h int) time.Time { return testNow.Add(time.Duration(h) * time.Hour) }
	for i, q := range []engine.FindingQuery{
		{Filter: engine.FindingFilter{FirstSeenAfter: hours(-100)}},                             // every row
		{Filter: engine.FindingFilter{FirstSeenAfter: hours(-36)}},                              // half
		{Filter: engine.FindingFilter{FirstSeenAfter: hours(-1)}},                               // 1 in 72
		{Filter: engine.FindingFilter{FirstSeenBefore: hours(-100)}},                            // none
		{Filter: engine.FindingFilter{FirstSeenAfter: hours(-60), FirstSeenBefore: hours(-10)}}, // a window
		{Filter: engine.FindingFilter{FirstSeenAfter: hours(-100), Severity: engine.SeverityLow}},
		{Filter: engine.FindingFilter{FirstSeenAfter: hours(-100), Status: engine.StatusOpen}},
		{Filter: engine.FindingFilter{FirstSeenAfter: hours(-100), Status: engine.StatusOpen}, ForceResolved: []string{resolved}},
		{Filter: engine.FindingFilter{FirstSeenAfter: hours(-100), Status: engine.StatusResolved}, ForceOpen: []string{reopened}},
		{Filter: engine.FindingFilter{FirstSeenAfter: hours(-100), Status: engine.StatusOpen}, Mutes: []engine.MuteRef{mute}},
		{Filter: engine.FindingFilter{FirstSeenAfter: hours(-36), Status: engine.StatusMuted}, Mutes: []engine.MuteRef{mute}},
		{Filter: engine.FindingFilter{Compliance: "CIS-AWS-4.0.1"}},     // every row
		{Filter: engine.FindingFilter{Compliance: "CIS-AWS-4.0.1:1.1"}}, // few
		{Filter: engine.FindingFilter{Compliance: "CIS-AWS-3.0.0"}},     // none
		{Filter: engine.FindingFilter{Compliance: "CIS-AWS-4.0.1", FirstSeenAfter: hours(-36), Dimension: engine.DimensionCost}},
		{Filter: engine.FindingFilter{Q: "CONFIGURATION"}}, // every row (titles)
		{Filter: engine.FindingFilter{Q: "rule 14"}},       // few (titles)
		{Filter: engine.FindingFilter{Q: "14"}},            // titles and resources
		{Filter: engine.FindingFilter{Q: "r14x"}},          // one resource (by key)
		{Filter: engine.FindingFilter{Q: "nothing"}},       // none
		{Filter: engine.FindingFilter{Q: "14", Status: engine.StatusOpen}, Mutes: []engine.MuteRef{mute}},
		{Filter: engine.FindingFilter{Q: "rule", FirstSeenAfter: hours(-36), Severity: engine.SeverityHigh}},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			var want []engine.Finding
			for _, f := range a.findings {
				if keeps(q, f) && qHolds(q.Filter.Q, f) {
					want = append(want, f)
				}
			}
			if len(want) == 0 && q.Filter.Compliance != "CIS-AWS-3.0.0" && q.Filter.FirstSeenBefore.IsZero() && q.Filter.Q != "nothing" {
				t.Fatal("the filter matches nothing: the test proves little")
			}
			// The new way (probes, the compliance filter's texts listed),
			// the old (one pass a page, the texts' subquery), and probes
			// with the subquery.
			for _, way := range []struct{ probes, lists bool }{{true, true}, {false, false}, {true, false}} {
				restore := clickhouse.SetRangeProbes(way.probes)
				restoreLists := func() {}
				if !way.lists {
					restoreLists = clickhouse.SetMaxSelectiveResources(0)
				}
				for _, limit := range []int{13, 200} {
					got := pageAllQuery(t, s, "ten_a", aud, q, limit)
					if diff := gocmp.Diff(want, got); diff != "" {
						t.Errorf("limit %d, %+v: pages (-want +got):\n%s", limit, way, diff)
					}
				}
				cq := engine.FindingCountQuery{TenantID: "ten_a", Filter: q.Filter, ForceResolved: q.ForceResolved, ForceOpen: q.ForceOpen, Mutes: q.Mutes}
				cq.Filter.AuditID = aud
				counts, err := s.CountFindings(context.Background(), cq)
				restoreLists()
				restore()
				if err != nil || len(counts) != 1 || counts[0].Count != int64(len(want)) {
					t.Errorf("%+v: count %+v (%v), want %d", way, counts, err, len(want))
				}
			}
		})
	}
}

// keeps is the reference of a row-filtered read of the generated
// snapshot: q's filter, decisions and mutes (a mute on one rule id) on f.
func keeps(q engine.FindingQuery, f engine.Finding) bool {
	flt := q.Filter
	if t := flt.FirstSeenAfter; !t.IsZero() && f.FirstSeenAt.Before(t) {
		return false
	}
	if t := flt.FirstSeenBefore; !t.IsZero() && !f.FirstSeenAt.Before(t) {
		return false
	}
	if c := flt.Compliance; c != "" && !slices.ContainsFunc(f.Compliance, func(x string) bool {
		return x == c || strings.HasPrefix(x, c+":")
	}) {
		return false
	}
	status := f.Status
	switch {
	case slices.Contains(q.ForceResolved, f.ID):
		status = engine.StatusResolved
	case slices.Contains(q.ForceOpen, f.ID) && f.Resolution != engine.ResolutionFixed:
		status = engine.StatusOpen
	}
	if len(q.Mutes) > 0 && status == engine.StatusOpen && f.RuleID == "rule_003" {
		status = engine.StatusMuted
	}
	nf := flt
	nf.Status = ""
	return matches(f, nf) && (flt.Status == "" || status == flt.Status)
}

// TestRowFilterProbeReadsLittle: a page under a first-seen filter that
// keeps every row reads a few granules, as an unfiltered page does, not
// every row of the snapshot: its queries read at most a sixth of the
// snapshot's rows (max_rows_to_read) and none is the unbounded pass of
// before, which the same page without the probes takes, and which the
// probes keep for a filter keeping nothing.
func TestRowFilterProbeReadsLittle(t *testing.T) {
	s := chtest.New(t)
	aud := engine.NewID(engine.PrefixAudit, testNow)
	const n = 60_000
	mustWriteSnapshot(t, s, "ten_a", aud, n)
	defer clickhouse.SetRowFilterReadLimit(n / 6)()
	list := func(f engine.FindingFilter, probes bool, limit int) (passes int64) {
		t.Helper()
		defer clickhouse.SetRangeProbes(probes)()
		f.AuditID = aud
		before := clickhouse.RowFilterPasses()
		page, err := s.ListFindings(context.Background(), engine.FindingQuery{TenantID: "ten_a", Filter: f, Limit: limit})
		if err != nil || (len(page) != limit && f.FirstSeenBefore.IsZero()) {
			t.Fatalf("%+v: %d findings, %v", f, len(page), err)
		}
		return clickhouse.RowFilterPasses() - before
	}
	// Without the snapshot's range of first_seen_at (first_seen_range.go),
	// which would drop a filter keeping every row and answer one keeping
	// nothing at once.
	defer clickhouse.SetFirstSeenRanges(false)()
	all := engine.FindingFilter{FirstSeenAfter: testNow.Add(-100 * time.Hour)}
	if got := list(all, false, 100); got != 1 {
		t.Errorf("without probes: %d unbounded passes, want 1", got)
	}
	if got := list(all, true, 100); got != 0 {
		t.Errorf("a filter keeping every row: %d unbounded passes, want 0", got)
	}
	none := engine.FindingFilter{FirstSeenBefore: testNow.Add(-100 * time.Hour)}
	defer clickhouse.SetRowFilterReadLimit(0)()
	if got := list(none, true, 1); got != 1 {
		t.Errorf("a filter keeping nothing: %d unbounded passes, want 1", got)
	}
}

// TestRowFilterProbeSparse: a page under a filter that keeps nothing
// costs one bounded probe besides the unbounded pass the page took before
// the probes (three probes did: issue 33 §3, 43 ms of ClickHouse CPU
// against 25 at 10M); one that keeps a row in 36 at most three queries;
// one that keeps half the rows fills its page from one probe, without the
// pass, as does a q filter whose texts hold every row.
func TestRowFilterProbeSparse(t *testing.T) {
	s := chtest.New(t)
	aud := engine.NewID(engine.PrefixAudit, testNow)
	const n = 60_000
	mustWriteSnapshot(t, s, "ten_a", aud, n)
	defer clickhouse.SetFirstSeenRanges(false)() // the probes alone (TestFirstSeenRange: with the ranges)
	hours := func(h int) time.Time { return testNow.Add(time.Duration(h) * time.Hour) }
	for _, c := range []struct {
		name            string
		f               engine.FindingFilter
		queries, passes int64
	}{
		{"none", engine.FindingFilter{FirstSeenBefore: hours(-100)}, 2, 1},
		{"none after", engine.FindingFilter{FirstSeenAfter: hours(100)}, 2, 1},
		{"1 in 36", engine.FindingFilter{FirstSeenAfter: hours(-1)}, 3, 1},
		{"half", engine.FindingFilter{FirstSeenAfter: hours(-36)}, 1, 0},
		// A compliance filter's pass is dear (text_id and the texts'
		// list): an empty probe widens instead.
		{"a control", engine.FindingFilter{Compliance: "CIS-AWS-4.0.1:1.1"}, 4, 0},
		// q, resolved to its texts (every title holds "configuration",
		// those of 11 rules of 150 "rule 14"), is probed as a compliance
		// filter is (before, every q page was one pass).
		{"q every title", engine.FindingFilter{Q: "CONFIGURATION"}, 1, 0},
		{"q few titles", engine.FindingFilter{Q: "rule 14"}, 4, 1},
	} {
		for _, limit := range []int{1, 60, 200} {
			f := c.f
			f.AuditID = aud
			probes, passes := clickhouse.RowFilterProbes(), clickhouse.RowFilterPasses()
			page, err := s.ListFindings(context.Background(), engine.FindingQuery{TenantID: "ten_a", Filter: f, Limit: limit})
			if err != nil {
				t.Fatalf("%s, limit %d: %v", c.name, limit, err)
			}
			probes, passes = clickhouse.RowFilterProbes()-probes, clickhouse.RowFilterPasses()-passes
			if probes+passes > c.queries || passes > c.passes {
				t.Errorf("%s, limit %d: %d findings from %d probes and %d passes, want at most %d queries and %d passes",
					c.name, limit, len(page), probes, passes, c.queries, c.passes)
			}
		}
	}
}
