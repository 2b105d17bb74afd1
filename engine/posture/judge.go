package posture

import (
	"context"
	"fmt"
	"slices"

	"github.com/fourd-dev/fourd/engine"
)

// Reasons a control is neither passed nor failed.
const (
	reasonManual        = "CIS marks this control Manual: a person assesses it; no fourd check maps to it"
	reasonNoCheck       = "no fourd check maps to this control"
	reasonNoAudit       = "no completed audit yet"
	reasonNotApplicable = "no resource of the checks' types was audited"
)

// Facts is what one audit says that controls are judged from. The zero
// Facts judges every control "not assessed: no completed audit yet".
type Facts struct {
	audit   engine.Audit // zero before the first audit completes
	catalog engine.RuleCatalog
	byRule  map[string]engine.RuleTotals // open findings per rule, decisions applied
	types   map[string]int64             // the tenant's resources by type
}

// TypeCounter counts a tenant's resources by type (store/clickhouse).
type TypeCounter interface {
	ResourceCountsByType(ctx context.Context, tenantID string) (map[string]int64, error)
}

// Gather collects what the judge needs of audit a: counts are its
// snapshot's open findings by rule (with the decisions people made and the
// active mute rules applied, as reports and the dashboard read them), and
// the tenant's resources are counted by type. A finding is one check on
// one resource (its id is derived from both), so a rule's open findings
// are also its failing resources: the precomputed counts answer both,
// without a pass over the snapshot's rows.
func Gather(ctx context.Context, types TypeCounter, catalog engine.RuleCatalog, tenantID string, a engine.Audit, counts []engine.ReportCount) (Facts, error) {
	f := Facts{audit: a, catalog: catalog, byRule: map[string]engine.RuleTotals{}, types: map[string]int64{}}
	if a.ID == "" {
		return f, nil
	}
	for _, c := range counts {
		t := f.byRule[c.RuleID]
		t.RuleID = c.RuleID
		t.Findings += c.Count
		t.Resources += c.Count
		f.byRule[c.RuleID] = t
	}
	var err error
	if f.types, err = types.ResourceCountsByType(ctx, tenantID); err != nil {
		return f, err
	}
	return f, nil
}

// Failing is how many open findings rule r has in the audit (decisions
// and mutes applied).
func (f Facts) Failing(r string) int64 { return f.byRule[r].Findings }

// JudgeFramework judges every control of fw, in catalog order, and sums
// them up.
func (f Facts) JudgeFramework(fw engine.CatalogFramework) (engine.CompliancePosture, []engine.ControlPosture) {
	p := engine.CompliancePosture{ID: fw.ID, Name: fw.Title, Version: fw.Version, Controls: len(fw.Controls), AuditID: f.audit.ID}
	if f.audit.CompletedAt != nil {
		at := f.audit.CompletedAt.UTC()
		p.AuditCompletedAt = &at
	}
	out := make([]engine.ControlPosture, len(fw.Controls))
	for i, c := range fw.Controls {
		out[i] = f.judgeControl(c)
		p.Counts.Add(out[i].Status)
	}
	p.ScorePercent = p.Counts.ScorePercent()
	return p, out
}

// judgeControl judges one control.
func (f Facts) judgeControl(c engine.CatalogControl) engine.ControlPosture {
	out := engine.ControlPosture{ID: c.ID, Title: c.Title, Section: c.Section, Level: c.Level, Assessment: c.Assessment,
		Checks: slices.Clone(c.Rules)}
	if out.Checks == nil {
		out.Checks = []string{}
	}
	switch {
	case len(c.Rules) == 0 && c.Assessment == engine.AssessmentManual:
		out.Status, out.Reason = engine.ControlManual, reasonManual
		return out
	case len(c.Rules) == 0:
		out.Status, out.Reason = engine.ControlNotAssessed, reasonNoCheck
		if c.Gap != "" {
			out.Reason = c.Gap
		}
		return out
	case f.audit.ID == "":
		out.Status, out.Reason = engine.ControlNotAssessed, reasonNoAudit
		return out
	}
	for _, t := range c.ResourceTypes {
		out.ResourcesChecked += f.types[t]
	}
	judged := false
	for _, r := range c.Rules {
		var notEvaluated int64
		if f.audit.Summary != nil {
			notEvaluated = f.audit.Summary.NotEvaluated[r]
		}
		judged = judged || f.ruleJudged(r)
		out.ResourcesNotEvaluated += notEvaluated
		out.FailingFindings += f.byRule[r].Findings
		out.FailingResources += f.byRule[r].Resources
	}
	// Checked counts the resources of the rules' types; a failing
	// account-level rule has none, so count what failed.
	out.ResourcesChecked = max(out.ResourcesChecked, out.FailingResources)
	out.Status = controlStatus(out.FailingFindings, judged, out.ResourcesChecked, out.ResourcesNotEvaluated)
	switch out.Status {
	case engine.ControlInsufficientData:
		out.Reason = fmt.Sprintf("the checks could not judge the %d resources they met: the inventory lacks what they read", out.ResourcesNotEvaluated)
		if out.ResourcesNotEvaluated == 0 {
			out.Reason = fmt.Sprintf("no check ran on the %d resources of its types: the audit evaluated none of them", out.ResourcesChecked)
		}
	case engine.ControlNotApplicable:
		out.Reason = reasonNotApplicable
	}
	return out
}

// controlStatus judges a control some rules check: failed on a finding;
// passed when some rule judged a resource (see ruleJudged); not applicable
// when there was nothing to check; insufficient data otherwise — the
// resources were left not evaluated, or no check ran on them.
func controlStatus(failingFindings int64, judged bool, checked, notEvaluated int64) engine.ControlStatus {
	switch {
	case failingFindings > 0:
		return engine.ControlFail
	case judged:
		return engine.ControlPass
	case checked == 0 && notEvaluated == 0:
		return engine.ControlNotApplicable
	}
	return engine.ControlInsufficientData
}

// ruleJudged reports whether rule r judged (passed or failed) some
// resource in the audit: by the audit's Evaluated counts, or for an audit
// completed before fourd counted them, when the rule met more resources of
// its types than it left not evaluated.
func (f Facts) ruleJudged(r string) bool {
	if sum := f.audit.Summary; sum != nil && sum.Evaluated != nil {
		return sum.Evaluated[r] > 0
	}
	return f.rulePassing(r)+f.byRule[r].Findings > 0
}

// rulePassing is how many resources rule r passed in the audit: those it
// judged less those it failed (Evaluated counts both); for an audit
// completed before fourd counted them, the resources of its types less its
// findings and those it left not evaluated.
func (f Facts) rulePassing(r string) int64 {
	sum := f.audit.Summary
	if sum != nil && sum.Evaluated != nil {
		return max(sum.Evaluated[r]-f.byRule[r].Findings, 0)
	}
	var ofTypes, notEvaluated int64
	if f.catalog != nil {
		if info, ok := f.catalog.Rule(r); ok {
			for _, t := range info.ResourceTypes {
				ofTypes += f.types[t]
			}
		}
	}
	if sum != nil {
		notEvaluated = sum.NotEvaluated[r]
	}
	return max(ofTypes-f.byRule[r].Findings-notEvaluated, 0)
}

// PassingCount counts, over a control's rules, the resources each judged
// and passed in the audit (a resource passing two rules counts twice, as
// failing resources do).
func (f Facts) PassingCount(rules []string) int64 {
	var n int64
	for _, r := range rules {
		n += f.rulePassing(r)
	}
	return n
}
