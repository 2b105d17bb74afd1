package engine

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"
)

// The compliance judge: one audit's posture against every control of a
// framework. The compliance posture API (ComplianceFrameworks,
// ComplianceFramework), the posture recorded for the trend, the compliance
// evidence report and the executive summary's compliance section all judge
// controls here, so that they agree.
//
// What counts as failing: a control fails on an open finding of one of its
// checks, read as the findings API reads it — a finding people resolved as
// accepted_risk or false_positive is not open, so it does not fail the
// control (as AWS Security Hub leaves suppressed findings out of a
// control's status): the decision to accept it was made, with a reason, by
// someone entitled to make it. Findings an active mute rule matches are
// left out the same way. docs/compliance.md says the same.

// ControlStatuses lists the statuses a control can have, in the order
// counts are shown.
var ControlStatuses = []ControlStatus{ControlPass, ControlFail, ControlInsufficientData, ControlNotApplicable, ControlManual, ControlNotAssessed}

// ControlCounts counts a framework's controls by status.
type ControlCounts struct {
	Passed           int `json:"passed"`
	Failed           int `json:"failed"`
	InsufficientData int `json:"insufficient_data"`
	NotApplicable    int `json:"not_applicable"`
	Manual           int `json:"manual"`
	NotAssessed      int `json:"not_assessed"`
}

// add counts one control of the given status.
func (c *ControlCounts) add(status ControlStatus) {
	switch status {
	case ControlPass:
		c.Passed++
	case ControlFail:
		c.Failed++
	case ControlInsufficientData:
		c.InsufficientData++
	case ControlNotApplicable:
		c.NotApplicable++
	case ControlManual:
		c.Manual++
	default:
		c.NotAssessed++
	}
}

// ScorePercent is the share of assessed (passed or failed) controls that
// passed, 100 × Passed / (Passed + Failed) with one decimal; nil when no
// control was assessed.
func (c ControlCounts) ScorePercent() *float64 {
	assessed := c.Passed + c.Failed
	if assessed == 0 {
		return nil
	}
	score := math.Round(1000*float64(c.Passed)/float64(assessed)) / 10
	return &score
}

// ControlPosture is one control as an audit judges it.
type ControlPosture struct {
	ID      string `json:"id"` // e.g. 2.1.4, SC-7(4)
	Title   string `json:"title"`
	Section string `json:"section"`
	// Level is the CIS profile level and Assessment CIS's automated or
	// manual; both empty for other frameworks.
	Level      string `json:"level,omitempty"`
	Assessment string `json:"assessment,omitempty"`
	// Status is one of ControlStatuses.
	Status ControlStatus `json:"status"`
	// Reason says why a control is not passed or failed: manual, not
	// assessed (why no check maps to it, when known), insufficient data or
	// not applicable; empty for passed and failed.
	Reason string `json:"reason,omitempty"`
	// Checks are the rule ids mapped to the control.
	Checks []string `json:"checks"`
	// FailingResources counts, over the checks, the resources with an open
	// finding (a resource failing two checks counts twice); FailingFindings
	// counts those findings: the same number, as a finding is one check on
	// one resource.
	FailingResources int64 `json:"failing_resources"`
	FailingFindings  int64 `json:"failing_findings"`
	// ResourcesChecked counts the tenant's resources of the checks' types
	// (at least the failing ones); ResourcesNotEvaluated, over the checks,
	// the resources the audit could not judge for want of data.
	ResourcesChecked      int64 `json:"resources_checked"`
	ResourcesNotEvaluated int64 `json:"resources_not_evaluated"`
}

// CompliancePosture is one framework as an audit judges it.
type CompliancePosture struct {
	ID      string `json:"id"` // e.g. CIS-AWS-4.0.1
	Name    string `json:"name"`
	Version string `json:"version"`
	// Controls is how many controls the framework's catalog holds.
	Controls int           `json:"controls"`
	Counts   ControlCounts `json:"counts"`
	// ScorePercent: see ControlCounts.ScorePercent.
	ScorePercent *float64 `json:"score_percent"`
	// AuditID is the completed audit the posture is computed from; empty
	// (null) before the tenant's first audit completes, when every
	// control a check maps to is not_assessed.
	AuditID          string     `json:"audit_id"`
	AuditCompletedAt *time.Time `json:"audit_completed_at"`
}

// Reasons a control is neither passed nor failed.
const (
	reasonManual        = "CIS marks this control Manual: a person assesses it; no fourd check maps to it"
	reasonNoCheck       = "no fourd check maps to this control"
	reasonNoAudit       = "no completed audit yet"
	reasonNotApplicable = "no resource of the checks' types was audited"
)

// postureFacts is what one audit says that controls are judged from.
type postureFacts struct {
	audit   Audit // zero before the first audit completes
	catalog RuleCatalog
	byRule  map[string]RuleTotals // open findings per rule, decisions applied
	types   map[string]int64      // the tenant's resources by type
}

// postureFacts gathers what the judge needs of audit a: counts are its
// snapshot's open findings by rule (OpenCounts with the decisions people
// made applied, as reports and the dashboard read them), and the tenant's
// resources are counted by type. A finding is one check on one resource
// (its id is derived from both), so a rule's open findings are also its
// failing resources: the precomputed counts answer both, without a pass
// over the snapshot's rows.
func (s *Service) postureFacts(ctx context.Context, tenantID string, a Audit, counts []ReportCount) (postureFacts, error) {
	f := postureFacts{audit: a, catalog: s.cfg.Reporting.Catalog, byRule: map[string]RuleTotals{}, types: map[string]int64{}}
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
	if f.types, err = s.cfg.Reporting.Analytics.ResourceCountsByType(ctx, tenantID); err != nil {
		return f, err
	}
	return f, nil
}

// judgeFramework judges every control of fw, in catalog order, and sums
// them up.
func (f postureFacts) judgeFramework(fw CatalogFramework) (CompliancePosture, []ControlPosture) {
	p := CompliancePosture{ID: fw.ID, Name: fw.Title, Version: fw.Version, Controls: len(fw.Controls), AuditID: f.audit.ID}
	if f.audit.CompletedAt != nil {
		at := f.audit.CompletedAt.UTC()
		p.AuditCompletedAt = &at
	}
	out := make([]ControlPosture, len(fw.Controls))
	for i, c := range fw.Controls {
		out[i] = f.judgeControl(c)
		p.Counts.add(out[i].Status)
	}
	p.ScorePercent = p.Counts.ScorePercent()
	return p, out
}

// judgeControl judges one control.
func (f postureFacts) judgeControl(c CatalogControl) ControlPosture {
	out := ControlPosture{ID: c.ID, Title: c.Title, Section: c.Section, Level: c.Level, Assessment: c.Assessment,
		Checks: slices.Clone(c.Rules)}
	if out.Checks == nil {
		out.Checks = []string{}
	}
	switch {
	case len(c.Rules) == 0 && c.Assessment == AssessmentManual:
		out.Status, out.Reason = ControlManual, reasonManual
		return out
	case len(c.Rules) == 0:
		out.Status, out.Reason = ControlNotAssessed, reasonNoCheck
		if c.Gap != "" {
			out.Reason = c.Gap
		}
		return out
	case f.audit.ID == "":
		out.Status, out.Reason = ControlNotAssessed, reasonNoAudit
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
	case ControlInsufficientData:
		out.Reason = fmt.Sprintf("the checks could not judge the %d resources they met: the inventory lacks what they read", out.ResourcesNotEvaluated)
		if out.ResourcesNotEvaluated == 0 {
			out.Reason = fmt.Sprintf("no check ran on the %d resources of its types: the audit evaluated none of them", out.ResourcesChecked)
		}
	case ControlNotApplicable:
		out.Reason = reasonNotApplicable
	}
	return out
}

// controlStatus judges a control some rules check: failed on a finding;
// passed when some rule judged a resource (see ruleJudged); not applicable
// when there was nothing to check; insufficient data otherwise — the
// resources were left not evaluated, or no check ran on them.
func controlStatus(failingFindings int64, judged bool, checked, notEvaluated int64) ControlStatus {
	switch {
	case failingFindings > 0:
		return ControlFail
	case judged:
		return ControlPass
	case checked == 0 && notEvaluated == 0:
		return ControlNotApplicable
	}
	return ControlInsufficientData
}

// ruleJudged reports whether rule r judged (passed or failed) some
// resource in the audit: by the audit's Evaluated counts, or for an audit
// completed before fourd counted them, when the rule met more resources of
// its types than it left not evaluated.
func (f postureFacts) ruleJudged(r string) bool {
	if sum := f.audit.Summary; sum != nil && sum.Evaluated != nil {
		return sum.Evaluated[r] > 0
	}
	return f.rulePassing(r)+f.byRule[r].Findings > 0
}

// rulePassing is how many resources rule r passed in the audit: those it
// judged less those it failed (Evaluated counts both); for an audit
// completed before fourd counted them, the resources of its types less its
// findings and those it left not evaluated.
func (f postureFacts) rulePassing(r string) int64 {
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
