package postgres

import (
	"context"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// ClaimReportJob implements reporting.Queue: ClaimReport plus the
// tenant's name for the report's header. not_found when nothing is
// pending.
func (s *Store) ClaimReportJob(ctx context.Context, worker string, lease time.Duration) (job engine.ReportJob, err error) {
	r, err := s.ClaimReport(ctx, worker, lease)
	if err != nil {
		return engine.ReportJob{}, err
	}
	defer wrap(&err, "ClaimReportJob(%q)", worker)
	job.Report = r
	err = s.pool.QueryRow(ctx, `SELECT name FROM tenants WHERE id = $1`, r.TenantID).Scan(&job.TenantName)
	return job, notFound(err, "tenant", r.TenantID)
}

// CompleteReport implements reporting.Queue through FinishReport.
func (s *Store) CompleteReport(ctx context.Context, out engine.ReportOutcome) error {
	return s.FinishReport(ctx, ReportResult{TenantID: out.TenantID, ID: out.ID, Document: out.Document,
		Checksum: out.Checksum, PDF: out.PDF, Error: out.Error, CompletedAt: out.CompletedAt})
}
