package engine

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// ReportJobs is the write side of reports: the job queue and the stored
// content (store/postgres).
type ReportJobs interface {
	// CreateReport stores a new pending report; conflict when the id exists,
	// validation_failed for an audit that is not the tenant's.
	CreateReport(ctx context.Context, r Report) error
	// ReportContent returns a ready report's content in format "json" or
	// "pdf"; not_found when the report is missing, another tenant's or not
	// ready; validation_failed for another format.
	ReportContent(ctx context.Context, tenantID, id, format string) ([]byte, error)
}

// ReportConfig is what report generation needs; without Jobs, generating
// and downloading reports is unavailable.
type ReportConfig struct {
	Jobs     ReportJobs
	Renderer ReportRenderer
	// Queue, Analytics and Catalog are what report workers need to turn
	// pending reports ready (engine/report_worker.go); Lease is how long a
	// worker holds a report before another may claim it (default 10 min).
	Queue     ReportQueue
	Analytics ReportAnalytics
	Catalog   RuleCatalog
	Lease     time.Duration
}

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
		v, err := oneOf("filters.dimensions", d, Dimensions)
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

func (s *Service) reportJobs() (ReportJobs, error) {
	if s.cfg.Reporting.Jobs == nil {
		return nil, Errorf(CodeUnavailable, "report generation is not configured on this server")
	}
	return s.cfg.Reporting.Jobs, nil
}

// GenerateReport validates the request and queues a pending report, which
// a report worker turns ready or failed. validation_failed for an unknown
// kind or bad filters; not_found for an audit id that is missing or
// another tenant's; conflict for an audit that is not completed, or when
// the tenant has no completed audit and none was named.
func (s *Service) GenerateReport(ctx context.Context, p Principal, in GenerateReportInput) (Report, error) {
	if err := p.Require(ScopeReportsWrite); err != nil {
		return Report{}, err
	}
	jobs, err := s.reportJobs()
	if err != nil {
		return Report{}, err
	}
	kind, err := oneOf("kind", in.Kind, ReportKinds)
	if err != nil {
		return Report{}, err
	}
	filters, err := in.Filters.Parse(kind)
	if err != nil {
		return Report{}, err
	}
	audit, err := s.reportAudit(ctx, p.TenantID, in.AuditID)
	if err != nil {
		return Report{}, err
	}
	raw, err := json.Marshal(filters)
	if err != nil {
		return Report{}, err
	}
	r := Report{ID: NewID(PrefixReport, s.now()), TenantID: p.TenantID, Kind: kind, Status: ReportPending,
		AuditID: audit.ID, Filters: raw, CreatedAt: s.now().UTC()}
	if err := jobs.CreateReport(ctx, r); err != nil {
		return Report{}, err
	}
	return r, nil
}

// reportAudit returns the completed audit a report describes.
func (s *Service) reportAudit(ctx context.Context, tenantID, id string) (Audit, error) {
	if id == "" {
		a, err := s.cfg.Audits.LatestCompletedAudit(ctx, tenantID)
		if IsNotFound(err) {
			return Audit{}, &Error{Code: CodeConflict, Field: "audit_id",
				Message: "the tenant has no completed audit yet; run an audit first"}
		}
		return a, err
	}
	if !ValidID(PrefixAudit, id) {
		return Audit{}, ErrNotFound("audit", id)
	}
	a, err := s.cfg.Audits.GetAudit(ctx, tenantID, id)
	if err != nil {
		return Audit{}, err
	}
	if a.Status != AuditCompleted {
		return Audit{}, &Error{Code: CodeConflict, Field: "audit_id",
			Message: "audit " + id + " is " + string(a.Status) + "; a report needs a completed audit"}
	}
	return a, nil
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

// reportFormats maps download formats to their media types. json and pdf
// are stored when the report is generated; html is rendered from the
// stored JSON document when it is downloaded (a report is immutable, so
// the page is too).
var reportFormats = map[string]string{"json": "application/json", "pdf": "application/pdf",
	"html": "text/html; charset=utf-8"}

// DownloadReport returns a ready report's content. validation_failed for a
// format other than json, pdf or html; not_found for a missing or foreign report;
// conflict while the report is pending, or when it failed (the message
// says why).
func (s *Service) DownloadReport(ctx context.Context, p Principal, id, format string) (ReportDownload, error) {
	if err := p.Require(ScopeReportsRead); err != nil {
		return ReportDownload{}, err
	}
	ctype, ok := reportFormats[format]
	if !ok {
		return ReportDownload{}, FieldErrorf("format", "format must be json, pdf or html; got %s", quote(format))
	}
	r, err := s.GetReport(ctx, p, id)
	if err != nil {
		return ReportDownload{}, err
	}
	// A missing or foreign report is not_found even where reporting is
	// not configured.
	jobs, err := s.reportJobs()
	if err != nil {
		return ReportDownload{}, err
	}
	switch r.Status {
	case ReportPending:
		return ReportDownload{}, Errorf(CodeConflict, "report %s is still being generated; retry when its status is ready", id)
	case ReportFailed:
		return ReportDownload{}, Errorf(CodeConflict, "report %s failed: %s", id, r.Error)
	}
	stored := format
	if format == "html" {
		stored = "json"
	}
	b, err := jobs.ReportContent(ctx, p.TenantID, id, stored)
	if err != nil {
		return ReportDownload{}, err
	}
	if format == "html" {
		if b, err = s.reportHTML(b); err != nil {
			return ReportDownload{}, err
		}
	}
	sum := sha256.Sum256(b)
	return ReportDownload{Content: b, ContentType: ctype, ETag: `"` + hex.EncodeToString(sum[:]) + `"`,
		Filename: "fourd-" + string(r.Kind) + "-" + r.AuditID + "-" + r.ID + "." + format}, nil
}

// reportHTML renders a stored JSON document as HTML.
func (s *Service) reportHTML(stored []byte) ([]byte, error) {
	if s.cfg.Reporting.Renderer == nil {
		return nil, Errorf(CodeUnavailable, "reports are not configured on this server")
	}
	var doc ReportDocument
	if err := json.Unmarshal(stored, &doc); err != nil {
		return nil, fmt.Errorf("decoding the stored report document: %w", err)
	}
	var buf bytes.Buffer
	if err := s.cfg.Reporting.Renderer.RenderHTML(&buf, doc); err != nil {
		return nil, fmt.Errorf("rendering the report as HTML: %w", err)
	}
	return buf.Bytes(), nil
}
