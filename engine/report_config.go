package engine

import (
	"slices"
)

// Bounds of a report's filters.
const (
	maxReportFilterAccounts   = 100
	maxReportFilterFrameworks = 20
)

// GenerateReportInput asks for a report as callers send it.
type GenerateReportInput struct {
	Kind string `json:"kind"`
	// AuditID is the completed audit the report describes; empty means the
	// tenant's latest completed audit.
	AuditID string             `json:"audit_id"`
	Filters ReportFiltersInput `json:"filters"`
}

// ReportFiltersInput is ReportFilters as callers send them.
type ReportFiltersInput struct {
	Dimensions []string `json:"dimensions"`
	Severities []string `json:"severities"`
	Accounts   []string `json:"accounts"`
	Frameworks []string `json:"frameworks"`
}

// Parse validates the filters: validation_failed for an unknown dimension,
// too many accounts or frameworks, or frameworks on a report other than
// compliance_evidence; invalid_severity_filter for an unknown severity.
// Values are deduplicated and sorted so equal filters compare equal.
func (in ReportFiltersInput) Parse(kind ReportKind) (ReportFilters, error) {
	f := ReportFilters{Dimensions: []Dimension{}, Severities: []Severity{}, Accounts: []string{}, Frameworks: []string{}}
	for _, d := range in.Dimensions {
		v, err := OneOf("filters.dimensions", d, Dimensions)
		if err != nil {
			return f, err
		}
		f.Dimensions = append(f.Dimensions, v)
	}
	for _, s := range in.Severities {
		v, err := ParseSeverity(s)
		if err != nil {
			return f, err
		}
		f.Severities = append(f.Severities, v)
	}
	switch {
	case len(in.Accounts) > maxReportFilterAccounts:
		return f, FieldErrorf("filters.accounts", "at most %d accounts", maxReportFilterAccounts)
	case len(in.Frameworks) > maxReportFilterFrameworks:
		return f, FieldErrorf("filters.frameworks", "at most %d frameworks", maxReportFilterFrameworks)
	case len(in.Frameworks) > 0 && kind != ReportComplianceEvidence:
		return f, FieldErrorf("filters.frameworks", "frameworks filter only a compliance_evidence report")
	}
	for _, a := range in.Accounts {
		if a == "" {
			return f, FieldErrorf("filters.accounts", "an account cannot be empty")
		}
	}
	for _, fw := range in.Frameworks {
		if fw == "" {
			return f, FieldErrorf("filters.frameworks", "a framework cannot be empty")
		}
	}
	f.Accounts = append(f.Accounts, in.Accounts...)
	f.Frameworks = append(f.Frameworks, in.Frameworks...)
	sortUnique(&f.Dimensions)
	sortUnique(&f.Severities)
	sortUnique(&f.Accounts)
	sortUnique(&f.Frameworks)
	return f, nil
}

func sortUnique[T ~string](xs *[]T) {
	slices.Sort(*xs)
	*xs = slices.Compact(*xs)
}

// ReportDownload is a report's content in one format, with what an HTTP
// response needs.
type ReportDownload struct {
	Content     []byte
	ContentType string
	Filename    string
	// ETag is the quoted hex SHA-256 of Content; reports are immutable once
	// ready, so it never changes.
	ETag string
}
