package engine

import (
	"encoding/json"
	"time"
)

// Report is a generated deliverable, downloadable as JSON or PDF once ready.
type Report struct {
	ID          string          `json:"id"`
	TenantID    string          `json:"-"`
	Kind        ReportKind      `json:"kind"`
	Status      ReportStatus    `json:"status"`
	AuditID     string          `json:"audit_id"`
	Filters     json.RawMessage `json:"filters"`
	Error       string          `json:"error,omitempty"`
	Checksum    string          `json:"checksum,omitempty"` // sha256 of the JSON document
	CreatedAt   time.Time       `json:"created_at"`
	CompletedAt *time.Time      `json:"completed_at"`
}

// ReportQuery is one page of a tenant's reports, newest first.
type ReportQuery struct {
	TenantID string
	BeforeID string
	Limit    int
}
