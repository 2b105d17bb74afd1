package engine

import (
	"slices"
	"strings"
)

// Severity is how bad a finding is. Its rank orders findings: critical first.
type Severity string

// The five severities, least to most severe.
const (
	SeverityInfo     Severity = "info"
	SeverityLow      Severity = "low"
	SeverityMedium   Severity = "medium"
	SeverityHigh     Severity = "high"
	SeverityCritical Severity = "critical"
)

// Severities lists every severity, least to most severe.
var Severities = []Severity{SeverityInfo, SeverityLow, SeverityMedium, SeverityHigh, SeverityCritical}

// Rank is 1 (info) to 5 (critical); 0 for an unknown value. (A switch,
// not a search of Severities: every finding written is ranked.)
func (s Severity) Rank() int {
	switch s {
	case SeverityInfo:
		return 1
	case SeverityLow:
		return 2
	case SeverityMedium:
		return 3
	case SeverityHigh:
		return 4
	case SeverityCritical:
		return 5
	}
	return 0
}

// Valid reports whether s is one of the five severities.
func (s Severity) Valid() bool { return s.Rank() > 0 }

// SeverityFromRank is the inverse of Rank.
func SeverityFromRank(r int) Severity {
	if r < 1 || r > len(Severities) {
		return ""
	}
	return Severities[r-1]
}

// ParseSeverity validates a severity filter value; anything outside the five
// values is invalid_severity_filter, whose message names them.
func ParseSeverity(s string) (Severity, error) {
	v := Severity(s)
	if !v.Valid() {
		return "", &Error{Code: CodeInvalidSeverityFilter, Field: "severity",
			Message: "severity must be one of info, low, medium, high, critical; got " + quote(s)}
	}
	return v, nil
}

// Dimension is one of the four dimensions of the 4D audit.
type Dimension string

// The four dimensions.
const (
	DimensionSecurity     Dimension = "security"
	DimensionCost         Dimension = "cost"
	DimensionArchitecture Dimension = "architecture"
	DimensionCompliance   Dimension = "compliance"
)

// Dimensions lists the four dimensions.
var Dimensions = []Dimension{DimensionSecurity, DimensionCost, DimensionArchitecture, DimensionCompliance}

// Number is d's place in Dimensions counted from 1 (security 1 …
// compliance 4); 0 for an unknown value.
func (d Dimension) Number() int {
	switch d {
	case DimensionSecurity:
		return 1
	case DimensionCost:
		return 2
	case DimensionArchitecture:
		return 3
	case DimensionCompliance:
		return 4
	}
	return 0
}

// Valid reports whether d is one of the four dimensions.
func (d Dimension) Valid() bool { return d.Number() > 0 }

// FindingStatus is open or resolved.
type FindingStatus string

// Finding statuses.
const (
	StatusOpen     FindingStatus = "open"
	StatusResolved FindingStatus = "resolved"
)

// Valid reports whether s is a known finding status.
func (s FindingStatus) Valid() bool { return s == StatusOpen || s == StatusResolved }

// Resolution says why a finding is resolved.
type Resolution string

// Resolutions: fixed (no longer detected) or accepted as a known risk.
const (
	ResolutionNone         Resolution = ""
	ResolutionFixed        Resolution = "fixed"
	ResolutionAcceptedRisk Resolution = "accepted_risk"
	// ResolutionFalsePositive: a person judged the rule wrong about this
	// resource; held across audits like an accepted risk.
	ResolutionFalsePositive Resolution = "false_positive"
)

// Manual reports whether r is a person's decision that resolves a finding
// (accepted_risk or false_positive), as opposed to fixed.
func (r Resolution) Manual() bool {
	return r == ResolutionAcceptedRisk || r == ResolutionFalsePositive
}

// WorkflowStatus is where a finding stands in its triage: open or
// in_progress (both status open), accepted_risk, false_positive or fixed
// (status resolved, the resolution).
type WorkflowStatus string

// Workflow statuses.
const (
	WorkflowOpen          WorkflowStatus = "open"
	WorkflowInProgress    WorkflowStatus = "in_progress"
	WorkflowAcceptedRisk  WorkflowStatus = "accepted_risk"
	WorkflowFalsePositive WorkflowStatus = "false_positive"
	WorkflowFixed         WorkflowStatus = "fixed"
)

// AuditStatus is the state of an audit: queued → running → completed | failed,
// or canceled from queued or running.
type AuditStatus string

// Audit states.
const (
	AuditQueued    AuditStatus = "queued"
	AuditRunning   AuditStatus = "running"
	AuditCompleted AuditStatus = "completed"
	AuditFailed    AuditStatus = "failed"
	AuditCanceled  AuditStatus = "canceled"
)

// ReportStatus is the state of a report: pending → ready | failed.
type ReportStatus string

// Report states.
const (
	ReportPending ReportStatus = "pending"
	ReportReady   ReportStatus = "ready"
	ReportFailed  ReportStatus = "failed"
)

// ReportKind is the kind of deliverable a report is.
type ReportKind string

// Report kinds.
const (
	ReportExecutiveSummary   ReportKind = "executive_summary"
	ReportRemediationPlan    ReportKind = "remediation_plan"
	ReportComplianceEvidence ReportKind = "compliance_evidence"
)

// ReportKinds lists the report kinds.
var ReportKinds = []ReportKind{ReportExecutiveSummary, ReportRemediationPlan, ReportComplianceEvidence}

// Valid reports whether k is a known report kind.
func (k ReportKind) Valid() bool { return slices.Contains(ReportKinds, k) }

// OneOf validates a filter value against a closed set, with an error that
// names the allowed values.
func OneOf[T ~string](field, value string, allowed []T) (T, error) {
	for _, a := range allowed {
		if string(a) == value {
			return a, nil
		}
	}
	names := make([]string, len(allowed))
	for i, a := range allowed {
		names[i] = string(a)
	}
	return "", &Error{Code: CodeValidationFailed, Field: field,
		Message: field + " must be one of " + strings.Join(names, ", ") + "; got " + quote(value)}
}

func quote(s string) string {
	if len(s) > 64 {
		s = s[:64] + "…"
	}
	return "\"" + strings.ToValidUTF8(s, "?") + "\""
}

// Quote quotes a value for an error message: at most 64 bytes of it, as
// valid UTF-8.
func Quote(s string) string { return quote(s) }
