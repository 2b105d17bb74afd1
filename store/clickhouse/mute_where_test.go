package clickhouse_test

import (
	"context"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/audit"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// muteGenValues are the values each field of the generated findings takes,
// with quotes, backslashes, LIKE wildcards, non-ASCII and empty text among
// them, and one value no finding has.
var muteGenValues = map[string][]string{
	"finding.rule_id":   {"rule_a", "rule_b", `it's`, `a\b`, "50%_off", "règle", "never"},
	"finding.severity":  {"critical", "high", "medium", "low", "info", "nope"},
	"finding.dimension": {"security", "cost", "architecture", "compliance", "speed"},
	"resource.type":     {"aws_s3_bucket", "aws_instance", `x"y`, "never"},
	"resource.provider": {"aws", "gcp", "never"},
	"resource.account":  {"111", "222", "", "never"},
	"resource.region":   {"eu-west-1", "us-east-1", "ap\tsouth", "never"},
}

// muteGenExpr is a random mute expression of the translatable forms:
// ==, != (either side literal), in a list literal (maybe empty), true,
// false, !, && and ||, nested up to depth.
func muteGenExpr(r *rand.Rand, depth int) string {
	fields := []string{"finding.rule_id", "finding.severity", "finding.dimension", "resource.type", "resource.provider",
		"resource.account", "resource.region", "resource.id"}
	if depth > 0 && r.IntN(3) > 0 {
		switch r.IntN(3) {
		case 0:
			return "!(" + muteGenExpr(r, depth-1) + ")"
		case 1:
			return "(" + muteGenExpr(r, depth-1) + " && " + muteGenExpr(r, depth-1) + ")"
		default:
			return "(" + muteGenExpr(r, depth-1) + " || " + muteGenExpr(r, depth-1) + ")"
		}
	}
	f := fields[r.IntN(len(fields))]
	vals := muteGenValues[f]
	if f == "resource.id" {
		vals = []string{"res_none"}
	}
	v := func() string { return strconv.Quote(vals[r.IntN(len(vals))]) }
	switch r.IntN(7) {
	case 0:
		return f + " == " + v()
	case 1:
		return v() + " == " + f
	case 2:
		return f + " != " + v()
	case 3:
		items := make([]string, r.IntN(4))
		for i := range items {
			items[i] = v()
		}
		return f + " in [" + strings.Join(items, ", ") + "]"
	case 4:
		return []string{"true", "false"}[r.IntN(2)]
	default:
		return f + " == " + v()
	}
}

// TestMuteConditionAgreesWithCEL is the differential test of the two ways
// a mute rule is applied: for generated expressions of every translatable
// form over a generated snapshot, the findings the store's INSERT … SELECT
// stores as matched (PutMuteMatchesWhere) are exactly the open findings
// CEL matches one by one, and the count it returns is theirs.
func TestMuteConditionAgreesWithCEL(t *testing.T) {
	t.Parallel()
	s := chtest.New(t)
	ctx := context.Background()
	tenantID, auditID := "ten_mutecond", engine.NewID(engine.PrefixAudit, testNow)
	r := rand.New(rand.NewPCG(33, 1))
	pick := func(f string) string { vs := muteGenValues[f]; return vs[r.IntN(len(vs)-1)] } // never the absent value
	var findings []engine.Finding
	for i := range 400 {
		resID := engine.ResourceID(tenantID, "aws", "arn:"+strconv.Itoa(i%97))
		rule := pick("finding.rule_id")
		f := engine.Finding{ID: engine.FindingID(tenantID, rule+strconv.Itoa(i), resID), TenantID: tenantID, AuditID: auditID,
			ResourceID: resID, RuleID: rule, Severity: engine.Severity(pick("finding.severity")),
			Dimension: engine.Dimension(pick("finding.dimension")), Status: engine.StatusOpen, Title: "t",
			Compliance: []string{}, ResourceType: pick("resource.type"), Provider: pick("resource.provider"),
			Account: pick("resource.account"), Region: pick("resource.region"), FirstSeenAt: testNow, LastSeenAt: testNow}
		if i%5 == 2 {
			f.Status, f.Resolution = engine.StatusResolved, engine.ResolutionFixed
			at := testNow
			f.ResolvedAt = &at
		}
		findings = append(findings, f)
	}
	if _, err := s.WriteSnapshot(ctx, tenantID, auditID, sliceSeq(findings)); err != nil {
		t.Fatal(err)
	}
	ids := make([]engine.FindingKey, len(findings))
	for i, f := range findings {
		ids[i] = engine.FindingKey{SeverityRank: f.Severity.Rank(), ID: f.ID}
	}
	ev := audit.New(nil)
	exprs := []string{`finding.severity == "high"`, `resource.account == ""`, `finding.rule_id in []`, `true`,
		`!(finding.dimension != "cost")`, `finding.rule_id == "it's" || finding.rule_id == "a\\b"`}
	for len(exprs) < 120 {
		exprs = append(exprs, muteGenExpr(r, 3))
	}
	matchedSome := 0
	for i, expr := range exprs {
		m, err := ev.CompileMute(expr)
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		mc, ok := m.(engine.MuteConditioner)
		if !ok {
			t.Fatalf("%T is no MuteConditioner", m)
		}
		cond, ok := mc.Condition()
		if !ok {
			t.Fatalf("%s: not translated", expr)
		}
		want := map[string]bool{}
		for j := range findings {
			f := &findings[j]
			hit, err := m.Match(ctx, f, nil)
			if err != nil {
				t.Fatalf("%s on %s: %v", expr, f.ID, err)
			}
			if hit && f.Status == engine.StatusOpen {
				want[f.ID] = true
			}
		}
		ref := engine.MuteRef{RuleID: "mrl_cond", Version: i + 1}
		n, err := s.PutMuteMatchesWhere(ctx, tenantID, auditID, ref, cond)
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		got, err := s.MutedAmong(ctx, tenantID, auditID, []engine.MuteRef{ref}, "", ids)
		if err != nil {
			t.Fatal(err)
		}
		if n != int64(len(want)) || len(got) != len(want) {
			t.Errorf("%s: the store matched %d (stored %d), CEL %d", expr, n, len(got), len(want))
		}
		for id := range want {
			if _, ok := got[id]; !ok {
				t.Errorf("%s: CEL matches %s, the store does not", expr, id)
				break
			}
		}
		if len(want) > 0 && len(want) < len(findings)*4/5 {
			matchedSome++
		}
	}
	if matchedSome < len(exprs)/4 {
		t.Errorf("only %d of %d expressions match some but not all findings: the generator is too narrow", matchedSome, len(exprs))
	}
	// A condition naming no known field is an error, not a match.
	if _, err := s.PutMuteMatchesWhere(ctx, tenantID, auditID, engine.MuteRef{RuleID: "mrl_bad", Version: 1},
		engine.MuteCond{Op: engine.MuteEq, Field: "finding.title", Values: []string{"t"}}); err == nil {
		t.Error("a condition on finding.title was accepted")
	}
	// Another tenant's snapshot is untouched.
	other, err := s.MutedAmong(ctx, "ten_other", auditID, []engine.MuteRef{{RuleID: "mrl_cond", Version: 4}}, "", ids)
	if err != nil || len(other) != 0 {
		t.Errorf("another tenant's matches: %v %v", other, err)
	}
}
