package engine

// Dashboard rankings: the first questions a security dashboard asks of
// the latest snapshot (or a named one), each one engine method over the
// analytic store reports read (ReportAnalytics), with the decisions people
// made since the snapshot was written and the active mute rules applied as
// in the findings API: a muted finding is not an open one.

// Bounds of a dashboard ranking's length.
const (
	DefaultDashboardLimit = 10
	MaxDashboardLimit     = 100
)

// DashboardQuery selects the findings a dashboard ranking reads.
type DashboardQuery struct {
	// AuditID names a completed audit's snapshot; empty means the latest.
	AuditID string
	// Dimension, when set, keeps that dimension's findings only.
	Dimension Dimension
	// Limit is how many entries a ranking returns: 0 means
	// DefaultDashboardLimit, else 1–MaxDashboardLimit (invalid_limit).
	Limit int
}

// ResolutionTime is how long the findings of one severity took to resolve,
// from first seen to resolved, over the resolved findings a snapshot
// carries.
type ResolutionTime struct {
	Severity    Severity `json:"severity"`
	Resolved    int64    `json:"resolved"`
	MeanSeconds float64  `json:"mean_seconds"`
}
