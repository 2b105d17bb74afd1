package graph_test

import (
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/testserver"
)

// createMute creates a mute rule through GraphQL and returns its id and
// how many findings it matched.
func createMute(t *testing.T, e *env, tok, expr string) (string, int) {
	t.Helper()
	exp := time.Now().Add(48 * time.Hour).UTC().Format(time.RFC3339)
	c := data[struct {
		CreateMuteRule struct {
			ID      string
			Applied *struct{ Matched int }
		}
	}](t, e.gql(t, tok, `mutation($in: MuteRuleInput!) { createMuteRule(input: $in) { id applied { matched } } }`,
		map[string]any{"in": map[string]any{"expression": expr, "reason": "accepted", "expiresAt": exp}})).CreateMuteRule
	if c.Applied == nil {
		t.Fatalf("rule %q not applied", expr)
	}
	return c.ID, c.Applied.Matched
}

// TestDashboardMuted: topRules, topResources and topAccounts leave out
// the findings active mute rules mute, as findingStats does; a rule
// matching nothing (the clean twin) changes nothing; tenant B's dashboard
// is untouched by A's rule.
func TestDashboardMuted(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{findingsA: 60, findingsB: 20})
	const q = `{ topRules(first: 100) { ruleId open }
	  topResources(first: 100) { resourceId open }
	  topAccounts(first: 100) { account critical high open } }`
	type answer struct {
		TopRules []struct {
			RuleID string
			Open   int64
		}
		TopResources []struct {
			ResourceID string
			Open       int64
		}
		TopAccounts []engine.AccountRank
	}
	// expect checks tok's dashboard against the tenant's open findings
	// whose severity is not muted.
	expect := func(t *testing.T, tok string, fs []engine.Finding, muted string) {
		t.Helper()
		got := data[answer](t, e.gql(t, tok, q, nil))
		rules, resources := map[string]int64{}, map[string]int64{}
		accounts := map[string]engine.AccountRank{}
		for _, f := range fs {
			if f.Status != engine.StatusOpen || string(f.Severity) == muted {
				continue
			}
			rules[f.RuleID]++
			resources[f.ResourceID]++
			a := accounts[f.Account]
			a.Account, a.Open = f.Account, a.Open+1
			switch f.Severity {
			case engine.SeverityCritical:
				a.Critical++
			case engine.SeverityHigh:
				a.High++
			}
			accounts[f.Account] = a
		}
		gotRules := map[string]int64{}
		for _, r := range got.TopRules {
			gotRules[r.RuleID] = r.Open
		}
		if diff := gocmp.Diff(rules, gotRules); diff != "" {
			t.Errorf("topRules (-want +got):\n%s", diff)
		}
		for _, r := range got.TopResources {
			if r.Open != resources[r.ResourceID] {
				t.Errorf("topResources: %s open %d, want %d", r.ResourceID, r.Open, resources[r.ResourceID])
			}
		}
		gotAccounts := map[string]engine.AccountRank{}
		for _, a := range got.TopAccounts {
			gotAccounts[a.Account] = a
		}
		if diff := gocmp.Diff(accounts, gotAccounts); diff != "" {
			t.Errorf("topAccounts (-want +got):\n%s", diff)
		}
	}
	expect(t, e.tokA, e.a.Findings, "")
	if _, n := createMute(t, e, e.tokA, "finding.rule_id == 'no.such.rule'"); n != 0 {
		t.Fatalf("clean twin matched %d", n)
	}
	expect(t, e.tokA, e.a.Findings, "")
	want := 0
	for _, f := range e.a.Findings {
		if f.Status == engine.StatusOpen && f.Severity == engine.SeverityHigh {
			want++
		}
	}
	if _, n := createMute(t, e, e.tokA, "finding.severity == 'high'"); n != want || n == 0 {
		t.Fatalf("rule matched %d, want %d", n, want)
	}
	expect(t, e.tokA, e.a.Findings, "high")
	expect(t, e.tokB, e.b.Findings, "")
}

// TestFindingTrendMuted: a trend leaves out of each snapshot's open
// counts the findings the active rules applied to that snapshot mute
// (a rule created now is applied to the latest snapshot only), counts
// them under status MUTED, and keeps the point's total.
func TestFindingTrendMuted(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{findingsA: 40})
	later := testserver.CompleteAudit(t, e.pg, e.a.ID, time.Now().UTC().Add(-10*time.Minute))
	fs := testserver.MakeFindings(e.a.ID, later.ID, e.a.Resources, 25, 0, time.Now().UTC())
	if _, err := e.ch.WriteSnapshot(t.Context(), e.a.ID, later.ID, testserver.SeqOf(fs)); err != nil {
		t.Fatal(err)
	}
	type point struct {
		AuditID string
		Total   int
		Groups  []struct {
			Status string
			Count  int
		}
	}
	trend := func(t *testing.T, filter string) []point {
		t.Helper()
		return data[struct{ FindingTrend []point }](t, e.gql(t, e.tokA,
			`query($from: Time!, $to: Time!) { findingTrend(from: $from, to: $to, groupBy: [STATUS]`+filter+`) { auditId total groups { status count } } }`,
			map[string]any{"from": time.Now().UTC().Add(-3 * time.Hour).Format(time.RFC3339),
				"to": time.Now().UTC().Format(time.RFC3339)})).FindingTrend
	}
	byStatus := func(p point) map[string]int {
		out := map[string]int{}
		for _, g := range p.Groups {
			out[g.Status] += g.Count
		}
		return out
	}
	before := trend(t, "")
	if len(before) != 2 || before[1].AuditID != later.ID {
		t.Fatalf("points = %+v", before)
	}
	if _, n := createMute(t, e, e.tokA, "finding.rule_id == 'no.such.rule'"); n != 0 {
		t.Fatalf("clean twin matched %d", n)
	}
	if diff := gocmp.Diff(before, trend(t, "")); diff != "" {
		t.Errorf("a rule matching nothing changed the trend (-before +after):\n%s", diff)
	}
	muted := 0
	for _, f := range fs {
		if f.Status == engine.StatusOpen && f.Severity == engine.SeverityHigh {
			muted++
		}
	}
	if _, n := createMute(t, e, e.tokA, "finding.severity == 'high'"); n != muted || n == 0 {
		t.Fatalf("rule matched %d, want %d", n, muted)
	}
	after := trend(t, "")
	if diff := gocmp.Diff(before[0], after[0]); diff != "" {
		t.Errorf("the older snapshot (no rule applied) changed (-before +after):\n%s", diff)
	}
	b, a := byStatus(before[1]), byStatus(after[1])
	if a["MUTED"] != muted || a["OPEN"] != b["OPEN"]-muted || a["RESOLVED"] != b["RESOLVED"] || after[1].Total != before[1].Total {
		t.Errorf("latest point: before %v (total %d), after %v (total %d); %d muted", b, before[1].Total, a, after[1].Total, muted)
	}
	open := trend(t, ", filter: {status: OPEN}")
	if open[1].Total != b["OPEN"]-muted || open[0].Total != byStatus(before[0])["OPEN"] {
		t.Errorf("status OPEN totals %d, %d; want %d, %d", open[0].Total, open[1].Total, byStatus(before[0])["OPEN"], b["OPEN"]-muted)
	}
	mutedOnly := trend(t, ", filter: {status: MUTED}")
	if mutedOnly[1].Total != muted || mutedOnly[0].Total != 0 {
		t.Errorf("status MUTED totals %d, %d; want 0, %d", mutedOnly[0].Total, mutedOnly[1].Total, muted)
	}
}
