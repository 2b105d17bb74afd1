package reporting

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/fourd-dev/fourd/engine"
)

// errNotConfigured answers every report use case of a nil Service (an
// adapter given none).
func errNotConfigured() error {
	return engine.Errorf(engine.CodeUnavailable, "reports are not configured on this server")
}

func (s *Service) reportJobs() (Jobs, error) {
	if s == nil || s.cfg.Jobs == nil {
		return nil, engine.Errorf(engine.CodeUnavailable, "report generation is not configured on this server")
	}
	return s.cfg.Jobs, nil
}

// GenerateReport validates the request and queues a pending report, which
// a report worker turns ready or failed. validation_failed for an unknown
// kind or bad filters; not_found for an audit id that is missing or
// another tenant's; conflict for an audit that is not completed, or when
// the tenant has no completed audit and none was named.
func (s *Service) GenerateReport(ctx context.Context, p engine.Principal, in engine.GenerateReportInput) (engine.Report, error) {
	if err := p.Require(engine.ScopeReportsWrite); err != nil {
		return engine.Report{}, err
	}
	jobs, err := s.reportJobs()
	if err != nil {
		return engine.Report{}, err
	}
	kind, err := engine.OneOf("kind", in.Kind, engine.ReportKinds)
	if err != nil {
		return engine.Report{}, err
	}
	filters, err := in.Filters.Parse(kind)
	if err != nil {
		return engine.Report{}, err
	}
	audit, err := s.reportAudit(ctx, p.TenantID, in.AuditID)
	if err != nil {
		return engine.Report{}, err
	}
	raw, err := json.Marshal(filters)
	if err != nil {
		return engine.Report{}, err
	}
	r := engine.Report{ID: engine.NewID(engine.PrefixReport, s.now()), TenantID: p.TenantID, Kind: kind, Status: engine.ReportPending,
		AuditID: audit.ID, Filters: raw, CreatedAt: s.now().UTC()}
	if err := jobs.CreateReport(ctx, r); err != nil {
		return engine.Report{}, err
	}
	return r, nil
}

// reportAudit returns the completed audit a report describes.
func (s *Service) reportAudit(ctx context.Context, tenantID, id string) (engine.Audit, error) {
	if id == "" {
		a, err := s.cfg.Audits.LatestCompletedAudit(ctx, tenantID)
		if engine.IsNotFound(err) {
			return engine.Audit{}, &engine.Error{Code: engine.CodeConflict, Field: "audit_id",
				Message: "the tenant has no completed audit yet; run an audit first"}
		}
		return a, err
	}
	if !engine.ValidID(engine.PrefixAudit, id) {
		return engine.Audit{}, engine.ErrNotFound("audit", id)
	}
	a, err := s.cfg.Audits.GetAudit(ctx, tenantID, id)
	if err != nil {
		return engine.Audit{}, err
	}
	if a.Status != engine.AuditCompleted {
		return engine.Audit{}, &engine.Error{Code: engine.CodeConflict, Field: "audit_id",
			Message: "audit " + id + " is " + string(a.Status) + "; a report needs a completed audit"}
	}
	return a, nil
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
func (s *Service) DownloadReport(ctx context.Context, p engine.Principal, id, format string) (engine.ReportDownload, error) {
	if err := p.Require(engine.ScopeReportsRead); err != nil {
		return engine.ReportDownload{}, err
	}
	ctype, ok := reportFormats[format]
	if !ok {
		return engine.ReportDownload{}, engine.FieldErrorf("format", "format must be json, pdf or html; got %s", engine.Quote(format))
	}
	r, err := s.GetReport(ctx, p, id)
	if err != nil {
		return engine.ReportDownload{}, err
	}
	// A missing or foreign report is not_found even where reporting is
	// not configured.
	jobs, err := s.reportJobs()
	if err != nil {
		return engine.ReportDownload{}, err
	}
	switch r.Status {
	case engine.ReportPending:
		return engine.ReportDownload{}, engine.Errorf(engine.CodeConflict, "report %s is still being generated; retry when its status is ready", id)
	case engine.ReportFailed:
		return engine.ReportDownload{}, engine.Errorf(engine.CodeConflict, "report %s failed: %s", id, r.Error)
	}
	stored := format
	if format == "html" {
		stored = "json"
	}
	b, err := jobs.ReportContent(ctx, p.TenantID, id, stored)
	if err != nil {
		return engine.ReportDownload{}, err
	}
	if format == "html" {
		if b, err = s.reportHTML(b); err != nil {
			return engine.ReportDownload{}, err
		}
	}
	sum := sha256.Sum256(b)
	return engine.ReportDownload{Content: b, ContentType: ctype, ETag: `"` + hex.EncodeToString(sum[:]) + `"`,
		Filename: "fourd-" + string(r.Kind) + "-" + r.AuditID + "-" + r.ID + "." + format}, nil
}

// reportHTML renders a stored JSON document as HTML.
func (s *Service) reportHTML(stored []byte) ([]byte, error) {
	if s.cfg.Renderer == nil {
		return nil, engine.Errorf(engine.CodeUnavailable, "reports are not configured on this server")
	}
	var doc engine.ReportDocument
	if err := json.Unmarshal(stored, &doc); err != nil {
		return nil, fmt.Errorf("decoding the stored report document: %w", err)
	}
	var buf bytes.Buffer
	if err := s.cfg.Renderer.RenderHTML(&buf, doc); err != nil {
		return nil, fmt.Errorf("rendering the report as HTML: %w", err)
	}
	return buf.Bytes(), nil
}

// ListReports returns a page of the tenant's reports, newest first.
func (s *Service) ListReports(ctx context.Context, p engine.Principal, pr engine.PageRequest) (engine.Page[engine.Report], error) {
	if err := p.Require(engine.ScopeReportsRead); err != nil {
		return engine.Page[engine.Report]{}, err
	}
	if s == nil {
		return engine.Page[engine.Report]{}, errNotConfigured()
	}
	return engine.IDPage(s.cursors, p, "reports", pr, func(r engine.Report) string { return r.ID }, func(before string, limit int) ([]engine.Report, error) {
		return s.cfg.Reports.ListReports(ctx, engine.ReportQuery{TenantID: p.TenantID, BeforeID: before, Limit: limit})
	})
}

// GetReport returns one report of the tenant.
func (s *Service) GetReport(ctx context.Context, p engine.Principal, id string) (engine.Report, error) {
	if err := p.Require(engine.ScopeReportsRead); err != nil {
		return engine.Report{}, err
	}
	if s == nil {
		return engine.Report{}, errNotConfigured()
	}
	if !engine.ValidID(engine.PrefixReport, id) {
		return engine.Report{}, engine.ErrNotFound("report", id)
	}
	return s.cfg.Reports.GetReport(ctx, p.TenantID, id)
}

// ReportCursor returns the cursor after the report with id in ListReports.
func (s *Service) ReportCursor(p engine.Principal, id string) string {
	return s.cursors.Encode(p.TenantID, "reports", id)
}
