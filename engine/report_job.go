package engine

import (
	"time"
)

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
