package reporting

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

const defaultReportLease = 10 * time.Minute

func (s *Service) reportWorkerDeps() error {
	if s == nil || s.cfg.Queue == nil || s.cfg.Analytics == nil || s.cfg.Renderer == nil || s.cfg.Catalog == nil {
		return engine.Errorf(engine.CodeUnavailable, "report workers are not configured on this server")
	}
	return nil
}

// Operator is the report workers' side, for cmd/fourd: claiming pending
// reports and generating them (RunReportWorker, RunReportOnce), which
// checks no caller. Only New returns one, so no API adapter holding the
// Service can run the queue; a nil Operator answers unavailable.
type Operator struct{ s *Service }

// service is the Operator's Service (nil for a nil Operator).
func (o *Operator) service() *Service {
	if o == nil {
		return nil
	}
	return o.s
}

// RunReportWorker claims pending reports and generates them until ctx is
// done, polling every poll when none is pending. A report whose worker
// dies is claimed again once its lease expires. It returns ctx's error,
// or unavailable when reporting is not configured.
func (o *Operator) RunReportWorker(ctx context.Context, worker string, poll time.Duration) error {
	s := o.service()
	if err := s.reportWorkerDeps(); err != nil {
		return err
	}
	for {
		_, ok, err := s.runReportOnce(ctx, worker)
		if err != nil && ctx.Err() == nil {
			s.log.Error("report worker", "worker", worker, "err", err)
		}
		if ok && err == nil {
			continue
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(poll):
		}
	}
}

// RunReportOnce claims one pending report and generates it. ok is false
// when nothing was pending. A report whose generation fails is stored as
// failed with the reason; err is only what kept the outcome from being
// stored.
func (o *Operator) RunReportOnce(ctx context.Context, worker string) (t engine.ReportTimings, ok bool, err error) {
	return o.service().runReportOnce(ctx, worker)
}

// runReportOnce is RunReportOnce.
func (s *Service) runReportOnce(ctx context.Context, worker string) (t engine.ReportTimings, ok bool, err error) {
	if err := s.reportWorkerDeps(); err != nil {
		return t, false, err
	}
	lease := s.cfg.Lease
	if lease <= 0 {
		lease = defaultReportLease
	}
	job, err := s.cfg.Queue.ClaimReportJob(ctx, worker, lease)
	if engine.IsNotFound(err) {
		return t, false, nil
	}
	if err != nil {
		return t, false, err
	}
	out, t, genErr := s.generateReport(ctx, job)
	if genErr != nil {
		if ctx.Err() != nil {
			return t, true, ctx.Err() // shutting down: the lease expires and another worker retries
		}
		out = engine.ReportOutcome{TenantID: job.Report.TenantID, ID: job.Report.ID, Error: reportFailure(genErr),
			CompletedAt: s.now().UTC()}
		s.log.Warn("report failed", "report", job.Report.ID, "err", genErr)
	}
	return t, true, s.cfg.Queue.CompleteReport(ctx, out)
}

// reportFailure is the reason a failed report shows: an engine error's
// message, or a generic one that hides internals.
func reportFailure(err error) string {
	var e *engine.Error
	if errors.As(err, &e) && e.Code != engine.CodeInternal {
		return e.Message
	}
	return "internal error while generating the report; generate it again, or contact support if it persists"
}

// generateReport builds a claimed report's document and renders both
// formats from it.
func (s *Service) generateReport(ctx context.Context, job engine.ReportJob) (out engine.ReportOutcome, t engine.ReportTimings, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("report %s: panic: %v", job.Report.ID, p)
		}
	}()
	r := job.Report
	var filters engine.ReportFilters
	if len(r.Filters) > 0 {
		if err := json.Unmarshal(r.Filters, &filters); err != nil {
			return out, t, fmt.Errorf("report %s: filters: %w", r.ID, err)
		}
	}
	audit, err := s.cfg.Audits.GetAudit(ctx, r.TenantID, r.AuditID)
	if err != nil {
		return out, t, err
	}
	if audit.Status != engine.AuditCompleted || audit.CompletedAt == nil {
		return out, t, engine.Errorf(engine.CodeConflict, "audit %s is %s; a report needs a completed audit", audit.ID, audit.Status)
	}
	b, err := s.newReportBuilder(ctx, job, audit, filters)
	if err != nil {
		return out, t, err
	}
	var jsonBuf, pdfBuf bytes.Buffer
	if r.Kind == engine.ReportRemediationPlan {
		err = b.writeRemediationPlan(ctx, &jsonBuf, &pdfBuf)
	} else {
		err = b.renderAggregate(ctx, &jsonBuf, &pdfBuf)
	}
	t = b.timings
	if err != nil {
		return out, t, err
	}
	sum := sha256.Sum256(jsonBuf.Bytes())
	return engine.ReportOutcome{TenantID: r.TenantID, ID: r.ID, Document: jsonBuf.Bytes(), Checksum: hex.EncodeToString(sum[:]),
		PDF: pdfBuf.Bytes(), CompletedAt: s.now().UTC()}, t, nil
}

// renderAggregate builds an executive summary or compliance evidence
// report, which are aggregates held in memory, and renders it.
func (b *reportBuilder) renderAggregate(ctx context.Context, jsonW, pdfW *bytes.Buffer) error {
	doc := b.document()
	var err error
	start := time.Now()
	switch b.job.Report.Kind {
	case engine.ReportExecutiveSummary:
		doc.ExecutiveSummary, err = b.executiveSummary(ctx)
	case engine.ReportComplianceEvidence:
		doc.ComplianceEvidence, err = b.complianceEvidence(ctx)
	default:
		return engine.FieldErrorf("kind", "unknown report kind %s", engine.Quote(string(b.job.Report.Kind)))
	}
	b.timings.Queries += time.Since(start)
	if err != nil {
		return err
	}
	start = time.Now()
	defer func() { b.timings.Rendering += time.Since(start) }()
	if err := b.svc.cfg.Renderer.RenderJSON(jsonW, doc); err != nil {
		return err
	}
	return b.svc.cfg.Renderer.RenderPDF(pdfW, doc)
}
