package engine

import (
	"context"
	"time"
)

// ReportQueue is the job side of reports a worker uses (store/postgres).
type ReportQueue interface {
	// ClaimReportJob gives worker the oldest pending report for lease; a
	// report whose worker's lease expired is claimed again. not_found when
	// nothing is pending.
	ClaimReportJob(ctx context.Context, worker string, lease time.Duration) (ReportJob, error)
	// CompleteReport stores a claimed report's outcome: ready with its
	// content, or failed with a reason. not_found when the report is no
	// longer pending (it is finished once).
	CompleteReport(ctx context.Context, out ReportOutcome) error
}

// ReportJob is a claimed report with what its header needs.
type ReportJob struct {
	Report     Report
	TenantName string
}

// ReportOutcome is a generated report's content, or why it failed.
type ReportOutcome struct {
	TenantID string
	ID       string
	// Document is the JSON document, Checksum its hex SHA-256, PDF the
	// rendering of the same document; set when Error is empty.
	Document []byte
	Checksum string
	PDF      []byte
	// Error marks the report failed with this message (safe to show).
	Error       string
	CompletedAt time.Time
}

// ReportTimings says where a report's generation spent its time: the
// analytic queries, or rendering the formats.
type ReportTimings struct {
	Queries   time.Duration
	Rendering time.Duration
}
