package engine

import "time"

// Audit is one forensic pass over a tenant's inventory. A completed audit
// owns the finding snapshot tagged with its id.
type Audit struct {
	ID       string      `json:"id"`
	TenantID string      `json:"-"`
	Status   AuditStatus `json:"status"`
	// ParentID is the audit a reanalysis re-evaluated; empty otherwise.
	ParentID    string        `json:"parent_id,omitempty"`
	RequestedBy string        `json:"requested_by,omitempty"` // user id, or "system"
	Progress    AuditProgress `json:"progress"`
	Summary     *AuditSummary `json:"summary"`
	Error       string        `json:"error,omitempty"`
	CreatedAt   time.Time     `json:"created_at"`
	StartedAt   *time.Time    `json:"started_at"`
	CompletedAt *time.Time    `json:"completed_at"`
	// Attempts counts how often a worker claimed the audit; above 1 the
	// audit is a retry after a worker died.
	Attempts int `json:"-"`
}

// AuditProgress says how far a running audit is.
type AuditProgress struct {
	ResourcesTotal   int64 `json:"resources_total"`
	ResourcesScanned int64 `json:"resources_scanned"`
}

// AuditSummary is what a completed audit found, compared with the previous one.
type AuditSummary struct {
	ResourcesScanned int64               `json:"resources_scanned"`
	FindingsOpen     int64               `json:"findings_open"`
	FindingsNew      int64               `json:"findings_new"`
	FindingsResolved int64               `json:"findings_resolved"`
	BySeverity       map[Severity]int64  `json:"by_severity"`
	ByDimension      map[Dimension]int64 `json:"by_dimension"`
	// NotEvaluated counts, per rule id, the resources (or accounts) the
	// rule could not judge because the inventory lacked the attributes it
	// reads (unknown is not false: no finding either way). Rules that
	// judged everything are absent. Null for audits that completed before
	// fourd counted them.
	NotEvaluated map[string]int64 `json:"not_evaluated"`
	// Evaluated counts, per rule id, the resources (or accounts) the rule
	// judged, passed or failed: the checks that actually ran. Rules that
	// judged nothing are absent; empty when no check ran (a `fourd loadgen`
	// audit, recorded without evaluation); null for audits that completed
	// before fourd counted them. The compliance posture passes a control
	// only on checks that judged resources.
	Evaluated map[string]int64 `json:"evaluated"`
	// PolicyErrors lists the policies whose evaluation failed on some
	// resources (cost or size limit, runtime error): the audit completes
	// without their verdict on those resources. Null when none failed.
	PolicyErrors []PolicyErrors `json:"policy_errors"`
}

// PolicyErrors is how often one policy's evaluation failed in an audit,
// with the first failure.
type PolicyErrors struct {
	PolicyID   string `json:"policy_id"`
	PolicyName string `json:"policy_name"`
	Errors     int64  `json:"errors"`
	// Reason (cost_limit_exceeded, size_limit_exceeded, runtime_error,
	// not_bool), Message and ResourceID describe the first failure.
	Reason     string `json:"reason"`
	Message    string `json:"message"`
	ResourceID string `json:"resource_id"`
}

// AuditQuery is one page of a tenant's audits, newest first.
type AuditQuery struct {
	TenantID string
	Status   AuditStatus
	BeforeID string // keyset: ids are time-sortable; empty for the first page
	Limit    int
}
