package rest

import (
	"net/http"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// TestFindingRankingsMuted: GET /v1/findings/rankings leaves out what
// active mute rules mute, as lists and counts do. With a rule muting the
// tenant's largest rule, its findings leave top_rules, top_resources and
// top_accounts (each checked against the tenant's own findings and the
// mute-aware summary); a rule matching nothing (the clean twin) changes
// nothing; disabling the rule brings its findings back at once.
func TestFindingRankingsMuted(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{findingsA: 90, findingsB: 30})
	open := map[string]int64{}
	for _, f := range e.a.Findings {
		if f.Status == engine.StatusOpen {
			open[f.RuleID]++
		}
	}
	top := ""
	for r, n := range open {
		if top == "" || n > open[top] || (n == open[top] && r < top) {
			top = r
		}
	}
	if len(open) < 2 {
		t.Fatalf("seed: open findings of %d rules", len(open))
	}
	// expect checks the rankings against A's open findings whose rule is
	// not muted.
	expect := func(t *testing.T, muted string) {
		t.Helper()
		got := getJSON[FindingRankings](t, e, "/v1/findings/rankings?limit=100", e.tokA)
		rules, resources := map[string]int64{}, map[string]int64{}
		for _, f := range e.a.Findings {
			if f.Status == engine.StatusOpen && f.RuleID != muted {
				rules[f.RuleID]++
				resources[f.ResourceID]++
			}
		}
		if len(got.TopRules) != len(rules) {
			t.Errorf("top_rules has %d rules, want %d", len(got.TopRules), len(rules))
		}
		for _, r := range got.TopRules {
			if r.Open != rules[r.RuleID] {
				t.Errorf("top_rules: %s open %d, want %d", r.RuleID, r.Open, rules[r.RuleID])
			}
		}
		if len(got.TopResources) == 0 {
			t.Error("top_resources is empty")
		}
		for _, r := range got.TopResources {
			if r.Open != resources[r.ResourceID] {
				t.Errorf("top_resources: %s open %d, want %d", r.ResourceID, r.Open, resources[r.ResourceID])
			}
		}
		sum := getJSON[engine.FindingSummary](t, e, "/v1/findings/summary?group_by=account&status=open", e.tokA)
		accounts := map[string]int64{}
		for _, g := range sum.Groups {
			accounts[g.Key[engine.GroupByAccount]] = g.Count
		}
		var total int64
		for _, a := range got.TopAccounts {
			total += a.Open
			if a.Open != accounts[a.Account] {
				t.Errorf("top_accounts: %s open %d, summary says %d", a.Account, a.Open, accounts[a.Account])
			}
		}
		var want int64
		for _, n := range rules {
			want += n
		}
		if total != want || sum.Total != want {
			t.Errorf("open over top_accounts %d, summary %d, want %d", total, sum.Total, want)
		}
	}
	t.Run("no rule", func(t *testing.T) { expect(t, "") })
	none := decodeAs[engine.MuteRule](t, e.muteCall(t, http.MethodPost, "/v1/mute_rules", e.tokA,
		muteBody(`finding.rule_id == "no.such.rule"`)), http.StatusCreated)
	if none.Applied == nil || none.Applied.Matched != 0 {
		t.Fatalf("clean twin applied = %+v", none.Applied)
	}
	t.Run("rule matching nothing", func(t *testing.T) { expect(t, "") })
	rule := decodeAs[engine.MuteRule](t, e.muteCall(t, http.MethodPost, "/v1/mute_rules", e.tokA,
		muteBody(`finding.rule_id == "`+top+`"`)), http.StatusCreated)
	if rule.Applied == nil || rule.Applied.Matched != open[top] {
		t.Fatalf("applied = %+v, want %d matches", rule.Applied, open[top])
	}
	t.Run("muted", func(t *testing.T) { expect(t, top) })
	// Tenant B's rankings know nothing of A's rule.
	b := getJSON[FindingRankings](t, e, "/v1/findings/rankings?limit=100", e.tokB)
	var bOpen int64
	for _, f := range e.b.Findings {
		if f.Status == engine.StatusOpen {
			bOpen++
		}
	}
	var bTotal int64
	for _, a := range b.TopAccounts {
		bTotal += a.Open
	}
	if bTotal != bOpen {
		t.Errorf("B's top_accounts hold %d open findings, want %d", bTotal, bOpen)
	}
	decodeAs[engine.MuteRule](t, e.muteCall(t, http.MethodPatch, "/v1/mute_rules/"+rule.ID, e.tokA, `{"enabled":false}`), http.StatusOK)
	t.Run("disabled", func(t *testing.T) { expect(t, "") })
}
