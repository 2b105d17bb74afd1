package reporting

import (
	"context"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// reportTrendAudits is how many completed audits, the report's included,
// an executive summary's trend shows.
const reportTrendAudits = 8

// reportBuilder builds one report's document from the analytic queries.
type reportBuilder struct {
	svc     *Service
	job     engine.ReportJob
	audit   engine.Audit
	prev    []engine.Audit // completed audits before audit, newest first
	filters engine.ReportFilters
	scope   engine.ReportScope
	counts  []engine.ReportCount // open findings with people's decisions and mutes applied
	muted   int64                // open findings in scope that active mute rules silence
	timings engine.ReportTimings
}

func (s *Service) newReportBuilder(ctx context.Context, job engine.ReportJob, audit engine.Audit, filters engine.ReportFilters) (*reportBuilder, error) {
	start := time.Now()
	b := &reportBuilder{svc: s, job: job, audit: audit, filters: filters,
		scope: engine.ReportScope{TenantID: audit.TenantID, AuditID: audit.ID, Filters: filters}}
	if b.scope.TenantID == "" {
		b.scope.TenantID = job.Report.TenantID
	}
	prev, err := s.cfg.Audits.ListAudits(ctx, engine.AuditQuery{TenantID: b.scope.TenantID, Status: engine.AuditCompleted,
		BeforeID: audit.ID, Limit: reportTrendAudits - 1})
	if err != nil {
		return nil, err
	}
	b.prev = prev
	if b.counts, b.muted, err = s.cfg.Reads.OpenCounts(ctx, &b.scope); err != nil {
		return nil, err
	}
	b.timings.Queries += time.Since(start)
	return b, nil
}

// document is the report's document without its body.
func (b *reportBuilder) document() engine.ReportDocument {
	h := engine.ReportHeader{ReportID: b.job.Report.ID, Kind: b.job.Report.Kind, TenantID: b.scope.TenantID,
		TenantName: b.job.TenantName, AuditID: b.audit.ID, AuditCompletedAt: b.audit.CompletedAt.UTC(),
		GeneratedAt: b.svc.now().UTC(), Filters: b.filters, MutedFindings: b.muted}
	if len(b.prev) > 0 {
		h.PreviousAuditID = b.prev[0].ID
	}
	for _, l := range []*[]string{&h.Filters.Accounts, &h.Filters.Frameworks} {
		if *l == nil {
			*l = []string{}
		}
	}
	if h.Filters.Dimensions == nil {
		h.Filters.Dimensions = []engine.Dimension{}
	}
	if h.Filters.Severities == nil {
		h.Filters.Severities = []engine.Severity{}
	}
	return engine.ReportDocument{SchemaVersion: engine.ReportSchemaVersion, Header: h}
}

// severityMatrix folds counts into one row per severity, critical first.
func severityMatrix(counts []engine.ReportCount) []engine.SeverityRow {
	rows := make([]engine.SeverityRow, 0, len(engine.Severities))
	for i := len(engine.Severities) - 1; i >= 0; i-- {
		rows = append(rows, engine.SeverityRow{Severity: engine.Severities[i]})
	}
	for _, c := range counts {
		for i := range rows {
			if rows[i].Severity == c.Severity {
				rows[i].Add(c.Dimension, c.Count)
			}
		}
	}
	return rows
}

// ruleTitle is a rule's title from the catalog, else from its findings.
func (b *reportBuilder) ruleTitle(id, fromRows string) string {
	if r, ok := b.svc.cfg.Catalog.Rule(id); ok {
		return r.Title
	}
	if fromRows != "" {
		return fromRows
	}
	return id
}
