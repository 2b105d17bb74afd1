package clickhouse_test

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/audit"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// TestMuteSetAgreesWithMatches is the differential test of the
// materialised mute set against the matches it is built from: for growing
// sets of overlapping generated rules, the set's build mutes exactly the
// findings some rule matched, each shown with the first matching rule;
// its counts (any filter, group-by, resource, excluded ids) are those of
// the muted findings (counted here); status=open and status=muted lists
// read through the set equal those read through the matches.
func TestMuteSetAgreesWithMatches(t *testing.T) {
	t.Parallel()
	s := chtest.New(t)
	ctx := context.Background()
	tenantID, auditID := "ten_muteset", engine.NewID(engine.PrefixAudit, testNow)
	r := rand.New(rand.NewPCG(33, 2))
	pick := func(f string) string { vs := muteGenValues[f]; return vs[r.IntN(len(vs)-1)] }
	var findings []engine.Finding
	for i := range 600 {
		resID := engine.ResourceID(tenantID, "aws", "arn:"+strconv.Itoa(i%53))
		rule := pick("finding.rule_id")
		f := engine.Finding{ID: engine.FindingID(tenantID, rule+strconv.Itoa(i), resID), TenantID: tenantID, AuditID: auditID,
			ResourceID: resID, RuleID: rule, Severity: engine.Severity(pick("finding.severity")),
			Dimension: engine.Dimension(pick("finding.dimension")), Status: engine.StatusOpen, Title: "t",
			ResourceType: pick("resource.type"), Provider: pick("resource.provider"),
			Account: pick("resource.account"), Region: pick("resource.region"), FirstSeenAt: testNow, LastSeenAt: testNow}
		if i%7 == 3 {
			f.Status, f.Resolution = engine.StatusResolved, engine.ResolutionFixed
			at := testNow
			f.ResolvedAt = &at
		}
		findings = append(findings, f)
	}
	if _, err := s.WriteSnapshot(ctx, tenantID, auditID, sliceSeq(findings)); err != nil {
		t.Fatal(err)
	}
	keys := make([]engine.FindingKey, len(findings))
	for i, f := range findings {
		keys[i] = engine.FindingKey{SeverityRank: f.Severity.Rank(), ID: f.ID}
	}
	ev := audit.New(nil)
	var refs []engine.MuteRef
	exprs := []string{`finding.severity == "high"`, `resource.account == "111"`, `finding.dimension in ["cost", "security"]`}
	for len(exprs) < 8 {
		exprs = append(exprs, muteGenExpr(r, 2))
	}
	for i, expr := range exprs {
		m, err := ev.CompileMute(expr)
		if err != nil {
			t.Fatal(err)
		}
		cond, _ := m.(engine.MuteConditioner).Condition()
		ref := engine.MuteRef{RuleID: "mrl_set" + strconv.Itoa(i), Version: 1}
		if _, err := s.PutMuteMatchesWhere(ctx, tenantID, auditID, ref, cond); err != nil {
			t.Fatal(err)
		}
		refs = append(refs, ref)
	}
	m0, _ := ev.CompileMute(exprs[0])
	cond0, _ := m0.(engine.MuteConditioner).Condition()
	resolved := []string{findings[0].ID, findings[5].ID, findings[8].ID, findings[13].ID}
	filters := []engine.FindingFilter{{}, {Severity: engine.SeverityHigh}, {Account: "111"}, {Dimension: "cost", Region: "eu-west-1"},
		{ResourceID: findings[2].ResourceID}, {RuleID: "rule_a"}}
	groupBys := [][]engine.GroupBy{nil, {engine.GroupBySeverity}, {engine.GroupByAccount, engine.GroupByRule}, {engine.GroupByStatus}}
	for _, n := range []int{1, 2, 3, len(refs)} {
		set := refs[:n]
		build := fmt.Sprintf("build-%d", n)
		muted, err := s.PutMuteSet(ctx, tenantID, auditID, build, set)
		if err != nil {
			t.Fatal(err)
		}
		want, err := s.MutedAmong(ctx, tenantID, auditID, set, "", keys)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.MutedAmong(ctx, tenantID, auditID, set, build, keys)
		if err != nil {
			t.Fatal(err)
		}
		if muted != int64(len(want)) || !maps.Equal(got, want) {
			t.Fatalf("%d rules: the set mutes %d (%d looked up), the matches %d, or rules differ", n, muted, len(got), len(want))
		}
		if n == len(refs) && (len(want) == 0 || len(want) > len(findings)*9/10) {
			t.Fatalf("the generated rules mute %d of %d: not a useful case", len(want), len(findings))
		}
		for _, f := range filters {
			f.AuditID = auditID
			for _, gb := range groupBys {
				for _, exclude := range [][]string{nil, resolved} {
					q := engine.FindingCountQuery{TenantID: tenantID, Filter: f, GroupBy: gb, MuteSet: build}
					b, err := s.CountMuted(ctx, q, set, exclude)
					if err != nil {
						t.Fatal(err)
					}
					if a := countIn(findings, want, f, gb, exclude); fmt.Sprint(a) != fmt.Sprint(sortedCounts(b)) {
						t.Errorf("%d rules, filter %+v, group by %v, exclude %d: set counts %v, matches %v", n, f, gb, len(exclude),
							sortedCounts(b), a)
					}
				}
			}
		}
		for _, status := range []engine.FindingStatus{engine.StatusOpen, engine.StatusMuted} {
			for _, f := range []engine.FindingFilter{{Status: status}, {Status: status, Severity: engine.SeverityMedium},
				{Status: status, ResourceID: findings[2].ResourceID}} {
				f.AuditID = auditID
				q := engine.FindingQuery{TenantID: tenantID, Filter: f, Limit: 10000, Mutes: set, ForceResolved: resolved[:2]}
				a, err := s.ListFindings(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				q.MuteSet = build
				b, err := s.ListFindings(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(findingIDs(a), findingIDs(b)) {
					t.Errorf("%d rules, %+v: %d findings through the set, %d through the matches", n, f, len(b), len(a))
				}
			}
		}
		if n == 1 {
			// The first rule applied twice (a retried application): its
			// matches are stored twice, and still mute each finding once.
			// (The set of 1 rule was built without any finding matched twice.)
			if _, err := s.PutMuteMatchesWhere(ctx, tenantID, auditID, refs[0], cond0); err != nil {
				t.Fatal(err)
			}
		}
	}
	// Another snapshot's read of the same build finds nothing.
	other, err := s.MutedAmong(ctx, "ten_other", auditID, refs, "build-1", keys)
	if err != nil || len(other) != 0 {
		t.Errorf("another tenant's set: %v %v", other, err)
	}
}

// sortedCounts renders counts in a stable order.
func sortedCounts(cs []engine.FindingCount) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		ks := slices.Sorted(maps.Keys(c.Key))
		s := ""
		for _, k := range ks {
			s += string(k) + "=" + c.Key[k] + ","
		}
		out[i] = s + strconv.FormatInt(c.Count, 10)
	}
	slices.Sort(out)
	return out
}

// findingIDs are the ids of findings, in order.
func findingIDs(fs []engine.Finding) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.ID
	}
	return out
}

// countIn counts, as CountMuted answers, the findings in muted that pass f
// (its status aside), leaving out exclude, grouped by gb.
func countIn(fs []engine.Finding, muted map[string]string, f engine.FindingFilter, gb []engine.GroupBy, exclude []string) []string {
	n := map[string]int64{}
	keys := map[string]map[engine.GroupBy]string{}
	for _, x := range fs {
		if _, ok := muted[x.ID]; !ok || slices.Contains(exclude, x.ID) ||
			(f.Severity != "" && x.Severity != f.Severity) || (f.Dimension != "" && x.Dimension != f.Dimension) ||
			(f.Account != "" && x.Account != f.Account) || (f.Region != "" && x.Region != f.Region) ||
			(f.ResourceID != "" && x.ResourceID != f.ResourceID) || (f.RuleID != "" && x.RuleID != f.RuleID) {
			continue
		}
		k := map[engine.GroupBy]string{}
		for _, g := range gb {
			k[g] = map[engine.GroupBy]string{engine.GroupBySeverity: string(x.Severity), engine.GroupByAccount: x.Account,
				engine.GroupByRule: x.RuleID, engine.GroupByStatus: string(x.Status)}[g]
		}
		s := fmt.Sprint(k)
		n[s]++
		keys[s] = k
	}
	out := make([]engine.FindingCount, 0, len(n))
	for s, c := range n {
		out = append(out, engine.FindingCount{Key: keys[s], Count: c})
	}
	if len(gb) == 0 && len(out) == 0 {
		return nil
	}
	return sortedCounts(out)
}
