package posture

import (
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// TestControlStatus checks a control is insufficient data only when no
// rule judged any resource, and passes when one did even though another
// lacked data.
func TestControlStatus(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		failing               int64
		judged                bool
		checked, notEvaluated int64
		want                  engine.ControlStatus
	}{
		{"a finding fails", 1, true, 10, 0, engine.ControlFail},
		{"a finding fails despite unknowns", 1, false, 10, 10, engine.ControlFail},
		{"all not evaluated", 0, false, 10, 10, engine.ControlInsufficientData},
		{"some judged, some not evaluated", 0, true, 10, 4, engine.ControlPass},
		{"nothing to check", 0, false, 0, 0, engine.ControlNotApplicable},
		{"judged, all passed", 0, true, 10, 0, engine.ControlPass},
		// A loadgen tenant's audit ran no check: its 10 resources are not
		// evidence of a pass (the old code passed the control).
		{"no check ran", 0, false, 10, 0, engine.ControlInsufficientData},
	} {
		if got := controlStatus(tc.failing, tc.judged, tc.checked, tc.notEvaluated); got != tc.want {
			t.Errorf("%s: controlStatus = %s; want %s", tc.name, got, tc.want)
		}
	}
}

// oneRuleCatalog is a catalog of one framework whose one control rule r
// of type typ checks.
type oneRuleCatalog struct{ r, typ string }

func (c oneRuleCatalog) Rule(id string) (engine.RuleInfo, bool) {
	return engine.RuleInfo{ID: id, ResourceTypes: []string{c.typ}}, id == c.r
}

func (c oneRuleCatalog) Frameworks() []engine.CatalogFramework {
	return []engine.CatalogFramework{{ID: "F", Controls: []engine.CatalogControl{{ID: "1", Rules: []string{c.r}, ResourceTypes: []string{c.typ}}}}}
}

// TestJudgeCountsChecksThatRan: a control passes only on checks that
// judged resources in the audit (AuditSummary.Evaluated). A `fourd
// loadgen` audit evaluates nothing (Evaluated empty): its control is
// insufficient data with no passing resource, where the old judge said
// "passed, 100,000 checked" from the resources of the rule's type alone.
// An audit from before the counts (Evaluated null) is judged as before.
func TestJudgeCountsChecksThatRan(t *testing.T) {
	cat := oneRuleCatalog{"aws-s3-004", "aws_s3_bucket"}
	fw := cat.Frameworks()[0]
	for _, tc := range []struct {
		name      string
		evaluated map[string]int64
		findings  int64
		want      engine.ControlStatus
		passing   int64
	}{
		{"loadgen: nothing ran", map[string]int64{}, 0, engine.ControlInsufficientData, 0},
		{"loadgen with synthetic findings", map[string]int64{}, 7, engine.ControlFail, 0},
		{"ran on some", map[string]int64{"aws-s3-004": 40}, 0, engine.ControlPass, 40},
		{"ran, some failed", map[string]int64{"aws-s3-004": 40}, 7, engine.ControlFail, 33},
		{"before the counts", nil, 7, engine.ControlFail, 100000 - 7},
	} {
		f := Facts{audit: engine.Audit{ID: "a", Summary: &engine.AuditSummary{Evaluated: tc.evaluated}}, catalog: cat,
			byRule: map[string]engine.RuleTotals{}, types: map[string]int64{"aws_s3_bucket": 100000}}
		if tc.findings > 0 {
			f.byRule["aws-s3-004"] = engine.RuleTotals{RuleID: "aws-s3-004", Findings: tc.findings, Resources: tc.findings}
		}
		p, controls := f.JudgeFramework(fw)
		if got := controls[0].Status; got != tc.want {
			t.Errorf("%s: %s (%s); want %s", tc.name, got, controls[0].Reason, tc.want)
		}
		if got := f.PassingCount(controls[0].Checks); got != tc.passing {
			t.Errorf("%s: %d passing; want %d", tc.name, got, tc.passing)
		}
		if tc.want == engine.ControlInsufficientData && (p.Counts.Passed != 0 || p.ScorePercent != nil) {
			t.Errorf("%s: posture %+v counts a pass", tc.name, p.Counts)
		}
	}
}
