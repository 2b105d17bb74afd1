package engine

import (
	"math"
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

// Add counts one control of the given status.
func (c *ControlCounts) Add(status ControlStatus) {
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
