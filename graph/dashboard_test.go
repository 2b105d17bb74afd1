package graph_test

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/testserver"
)

const dashboardQuery = `query($a: ID) {
  topRules(first: 5, auditId: $a) { ruleId title severity dimension open }
  topResources(first: 5, auditId: $a) { resourceId name type account region open weighted worstSeverity }
  topAccounts(auditId: $a) { account critical high open }
  meanTimeToResolve(auditId: $a) { severity resolved meanSeconds }
}`

type dashboardAnswer struct {
	TopRules []struct {
		RuleID    string `json:"ruleId"`
		Title     string `json:"title"`
		Severity  string `json:"severity"`
		Dimension string `json:"dimension"`
		Open      int64  `json:"open"`
	} `json:"topRules"`
	TopResources []struct {
		ResourceID    string  `json:"resourceId"`
		Name          string  `json:"name"`
		Type          string  `json:"type"`
		Account       string  `json:"account"`
		Region        string  `json:"region"`
		Open          int64   `json:"open"`
		Weighted      float64 `json:"weighted"`
		WorstSeverity string  `json:"worstSeverity"`
	} `json:"topResources"`
	TopAccounts []engine.AccountRank `json:"topAccounts"`
	MTTR        []struct {
		Severity    string  `json:"severity"`
		Resolved    int64   `json:"resolved"`
		MeanSeconds float64 `json:"meanSeconds"`
	} `json:"meanTimeToResolve"`
}

// reseedWithResolutionTimes writes a newer completed audit for a tenant
// whose resolved findings took different times to resolve, and returns its
// findings.
func reseedWithResolutionTimes(t *testing.T, e *env, s testserver.TenantSeed) (engine.Audit, []engine.Finding) {
	t.Helper()
	now := time.Now().UTC().Truncate(time.Second)
	a := testserver.CompleteAudit(t, e.pg, s.ID, now)
	fs := slices.Clone(s.Findings)
	for i := range fs {
		fs[i].AuditID = a.ID
		if fs[i].Status == engine.StatusResolved {
			first := now.Add(-time.Duration(i+1) * 97 * time.Minute)
			fs[i].FirstSeenAt = first
			at := now.Add(-time.Duration(i) * time.Minute)
			fs[i].ResolvedAt = &at
		}
	}
	if _, err := e.ch.WriteSnapshot(context.Background(), s.ID, a.ID, testserver.SeqOf(fs)); err != nil {
		t.Fatalf("WriteSnapshot: %v", err)
	}
	return a, fs
}

// expectedDashboard computes the dashboard from a tenant's own findings.
func expectedDashboard(fs []engine.Finding) (rules map[string]int64, resources map[string]int64, accounts []engine.AccountRank, mttr map[string][2]float64) {
	rules, resources, mttr = map[string]int64{}, map[string]int64{}, map[string][2]float64{}
	acc := map[string]*engine.AccountRank{}
	sums := map[engine.Severity][2]float64{}
	for _, f := range fs {
		if f.Status == engine.StatusResolved {
			s := sums[f.Severity]
			s[0]++
			s[1] += f.ResolvedAt.Sub(f.FirstSeenAt).Seconds()
			sums[f.Severity] = s
			continue
		}
		rules[f.RuleID]++
		resources[f.ResourceID]++
		a := acc[f.Account]
		if a == nil {
			a = &engine.AccountRank{Account: f.Account}
			acc[f.Account] = a
		}
		a.Open++
		switch f.Severity {
		case engine.SeverityCritical:
			a.Critical++
		case engine.SeverityHigh:
			a.High++
		}
	}
	for _, a := range acc {
		accounts = append(accounts, *a)
	}
	slices.SortFunc(accounts, func(a, b engine.AccountRank) int {
		return cmp.Or(cmp.Compare(b.Critical+b.High, a.Critical+a.High), cmp.Compare(b.Critical, a.Critical),
			cmp.Compare(b.Open, a.Open), cmp.Compare(a.Account, b.Account))
	})
	for sev, s := range sums {
		mttr[string(sev)] = [2]float64{s[0], s[1] / s[0]}
	}
	return rules, resources, accounts, mttr
}

// TestDashboardRankings answers a dashboard's first questions in one
// query for two tenants and checks each answer against what that tenant's
// own findings say (so nothing of the other tenant can be in it): top
// rules, top resources, accounts by critical+high, mean time to resolve per
// severity. Then a decision made through the API moves the account
// ranking as it moves findingStats, a token without findings:read is
// refused, and bad arguments are coded errors.
func TestDashboardRankings(t *testing.T) {
	e := newReportEnv(t)
	for _, tc := range []struct {
		name  string
		token string
		seed  testserver.TenantSeed
		other testserver.TenantSeed
	}{{"tenant A", e.tokA, e.a, e.b}, {"tenant B", e.tokB, e.b, e.a}} {
		t.Run(tc.name, func(t *testing.T) {
			a, fs := reseedWithResolutionTimes(t, e, tc.seed)
			got := data[dashboardAnswer](t, e.gql(t, tc.token, dashboardQuery, nil))
			rules, resources, accounts, mttr := expectedDashboard(fs)

			if len(got.TopRules) != min(5, len(rules)) {
				t.Fatalf("topRules: %d entries, want %d", len(got.TopRules), min(5, len(rules)))
			}
			for i, r := range got.TopRules {
				if rules[r.RuleID] != r.Open || r.Title == "" {
					t.Errorf("topRules[%d] = %+v; the tenant's open findings of %s: %d", i, r, r.RuleID, rules[r.RuleID])
				}
				if i > 0 && r.Open > got.TopRules[i-1].Open {
					t.Errorf("topRules not ranked: %+v after %+v", r, got.TopRules[i-1])
				}
			}
			counts := slices.Sorted(maps.Values(rules))
			if max := counts[len(counts)-1]; got.TopRules[0].Open != max {
				t.Errorf("topRules[0].open = %d, want the most, %d", got.TopRules[0].Open, max)
			}

			ownIDs := map[string]bool{}
			for _, r := range tc.seed.Resources {
				ownIDs[r.ID] = true
			}
			for i, r := range got.TopResources {
				if !ownIDs[r.ResourceID] || resources[r.ResourceID] != r.Open || r.Name == "" {
					t.Errorf("topResources[%d] = %+v; own resource: %v, its open findings: %d", i, r, ownIDs[r.ResourceID], resources[r.ResourceID])
				}
				if i > 0 && r.Weighted > got.TopResources[i-1].Weighted {
					t.Errorf("topResources not ranked by weight: %+v after %+v", r, got.TopResources[i-1])
				}
			}
			if len(got.TopResources) != min(5, len(resources)) {
				t.Errorf("topResources: %d entries, want %d", len(got.TopResources), min(5, len(resources)))
			}

			if diff := gocmp.Diff(accounts[:min(10, len(accounts))], got.TopAccounts); diff != "" {
				t.Errorf("topAccounts (-want +got):\n%s", diff)
			}

			gotMTTR := map[string][2]float64{}
			for i, m := range got.MTTR {
				gotMTTR[m.Severity] = [2]float64{float64(m.Resolved), m.MeanSeconds}
				if i > 0 && engine.Severity(lower(m.Severity)).Rank() > engine.Severity(lower(got.MTTR[i-1].Severity)).Rank() {
					t.Errorf("meanTimeToResolve not most severe first: %+v", got.MTTR)
				}
			}
			want := map[string][2]float64{}
			for sev, v := range mttr {
				want[upper(sev)] = v
			}
			if diff := gocmp.Diff(want, gotMTTR); diff != "" || len(want) == 0 {
				t.Errorf("meanTimeToResolve (-want +got):\n%s", diff)
			}

			// Nothing of the other tenant in the answer: none of its resource,
			// finding or audit ids.
			raw := e.gql(t, tc.token, dashboardQuery, nil).Data
			for _, id := range append(otherIDs(tc.other), tc.other.Audit.ID) {
				if strings.Contains(string(raw), id) {
					t.Errorf("the answer names the other tenant's %s", id)
				}
			}
			// Another tenant's audit is not found; the ranking reads nothing of it.
			r := e.gql(t, tc.token, dashboardQuery, map[string]any{"a": tc.other.Audit.ID})
			if r.code() != "not_found" {
				t.Errorf("other tenant's audit: code %q, want not_found", r.code())
			}
			// A named audit of one's own answers that snapshot.
			named := data[dashboardAnswer](t, e.gql(t, tc.token, dashboardQuery, map[string]any{"a": a.ID}))
			if diff := gocmp.Diff(got, named); diff != "" {
				t.Errorf("auditId of the latest audit answers differently (-latest +named):\n%s", diff)
			}
		})
	}

	t.Run("REST answers the same", func(t *testing.T) {
		for _, tok := range []string{e.tokA, e.tokB} {
			q := `{ topRules(first: 4) { ruleId title severity dimension open }
			  topResources(first: 4) { resourceId name type account region open weighted worstSeverity }
			  topAccounts(first: 4) { account critical high open }
			  meanTimeToResolve { severity resolved meanSeconds } }`
			g := data[dashboardAnswer](t, e.gql(t, tok, q, nil))
			var r struct {
				TopRules          []engine.RuleRank       `json:"top_rules"`
				TopResources      []engine.ResourceRank   `json:"top_resources"`
				TopAccounts       []engine.AccountRank    `json:"top_accounts"`
				MeanTimeToResolve []engine.ResolutionTime `json:"mean_time_to_resolve"`
			}
			if status := e.rest(t, "/v1/findings/rankings?limit=4", tok, &r); status != 200 {
				t.Fatalf("REST rankings: %d", status)
			}
			type rank struct {
				ID, Severity string
				Open         int64
			}
			var gr, rr, gres, rres []rank
			for _, x := range g.TopRules {
				gr = append(gr, rank{x.RuleID + " " + x.Title + " " + lower(x.Dimension), lower(x.Severity), x.Open})
			}
			for _, x := range r.TopRules {
				rr = append(rr, rank{x.RuleID + " " + x.Title + " " + string(x.Dimension), string(x.Severity), x.Open})
			}
			for _, x := range g.TopResources {
				gres = append(gres, rank{fmt.Sprintf("%s %s %g", x.ResourceID, x.Name, x.Weighted), lower(x.WorstSeverity), x.Open})
			}
			for _, x := range r.TopResources {
				rres = append(rres, rank{fmt.Sprintf("%s %s %g", x.ResourceID, x.Name, x.Weighted), string(x.WorstSeverity), x.Open})
			}
			gm := map[string][2]float64{}
			for _, m := range g.MTTR {
				gm[lower(m.Severity)] = [2]float64{float64(m.Resolved), m.MeanSeconds}
			}
			rm := map[string][2]float64{}
			for _, m := range r.MeanTimeToResolve {
				rm[string(m.Severity)] = [2]float64{float64(m.Resolved), m.MeanSeconds}
			}
			for name, d := range map[string]string{"rules": gocmp.Diff(gr, rr), "resources": gocmp.Diff(gres, rres),
				"accounts": gocmp.Diff(g.TopAccounts, r.TopAccounts), "mttr": gocmp.Diff(gm, rm)} {
				if d != "" {
					t.Errorf("%s: GraphQL vs REST (-graphql +rest):\n%s", name, d)
				}
			}
			if len(rr) == 0 || len(rres) == 0 || len(rm) == 0 {
				t.Errorf("REST rankings empty: %+v", r)
			}
		}
	})

	t.Run("a decision moves the ranking as it moves findingStats", func(t *testing.T) {
		var target string
		got := data[dashboardAnswer](t, e.gql(t, e.tokA, dashboardQuery, nil))
		for _, f := range e.a.Findings {
			if f.Status == engine.StatusOpen && f.Severity == engine.SeverityCritical {
				target = f.ID
				break
			}
		}
		resolve := e.gql(t, e.tokA, `mutation($id: ID!) { resolveFinding(input: {id: $id, note: "known"}) { id status } }`, map[string]any{"id": target})
		data[map[string]any](t, resolve)
		after := data[dashboardAnswer](t, e.gql(t, e.tokA, dashboardQuery, nil))
		stats := data[struct {
			FindingStats struct {
				Groups []struct {
					Account  string `json:"account"`
					Severity string `json:"severity"`
					Count    int64  `json:"count"`
				} `json:"groups"`
			} `json:"findingStats"`
		}](t, e.gql(t, e.tokA, `{ findingStats(groupBy: [ACCOUNT, SEVERITY], filter: {status: OPEN}) { groups { account severity count } } }`, nil))
		want := map[string]engine.AccountRank{}
		for _, g := range stats.FindingStats.Groups {
			a := want[g.Account]
			a.Account = g.Account
			a.Open += g.Count
			switch g.Severity {
			case "CRITICAL":
				a.Critical += g.Count
			case "HIGH":
				a.High += g.Count
			}
			want[g.Account] = a
		}
		var before, now int64
		for _, a := range after.TopAccounts {
			if diff := gocmp.Diff(want[a.Account], a); diff != "" {
				t.Errorf("account %s: topAccounts vs findingStats (-stats +top):\n%s", a.Account, diff)
			}
			now += a.Critical
		}
		for _, a := range got.TopAccounts {
			before += a.Critical
		}
		if now != before-1 {
			t.Errorf("critical open findings: %d before the decision, %d after; want one fewer", before, now)
		}
	})

	t.Run("scope and arguments", func(t *testing.T) {
		for _, tc := range []struct{ name, token, query, code string }{
			{"no findings:read", e.tokAResources, `{ topRules { ruleId } }`, "insufficient_scope"},
			{"no findings:read (mttr)", e.tokAResources, `{ meanTimeToResolve { severity } }`, "insufficient_scope"},
			{"first 0", e.tokA, `{ topAccounts(first: 0) { account } }`, "invalid_limit"},
			{"first 101", e.tokA, `{ topResources(first: 101) { resourceId } }`, "invalid_limit"},
			{"bad audit id", e.tokA, `{ topRules(auditId: "nope") { ruleId } }`, "not_found"},
			{"too costly", e.tokA, `{ topRules(first: 100000) { ruleId title severity dimension open } }`, "query_too_complex"},
		} {
			if r := e.gql(t, tc.token, tc.query, nil); r.code() != tc.code || r.status >= 500 {
				t.Errorf("%s: status %d code %q, want %s", tc.name, r.status, r.code(), tc.code)
			}
		}
		short := data[dashboardAnswer](t, e.gql(t, e.tokA, `{ topAccounts(first: 2) { account critical high open } }`, nil))
		if len(short.TopAccounts) != 2 {
			t.Errorf("topAccounts(first: 2): %d entries", len(short.TopAccounts))
		}
	})
}

func upper(s string) string { return strings.ToUpper(s) }
func lower(s string) string { return strings.ToLower(s) }

// otherIDs are a tenant's resource and finding ids.
func otherIDs(s testserver.TenantSeed) []string {
	var ids []string
	for _, r := range s.Resources {
		ids = append(ids, r.ID)
	}
	for _, f := range s.Findings {
		ids = append(ids, f.ID)
	}
	return ids
}
