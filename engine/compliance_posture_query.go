package engine

import (
	"time"
)

// The compliance trend: each audit's posture per framework, recorded when
// the audit completes (with the decisions people had made by then), so
// that a trend is one indexed read rather than one judgement per audit.
// Audits completed before the posture was recorded (or whose recording
// failed) have no point: the trend says nothing of them rather than
// recomputing them from snapshots that may be gone.

// CompliancePostureQuery selects recorded postures of one framework.
type CompliancePostureQuery struct {
	TenantID    string
	FrameworkID string
	After       *TrendKey // the last point of the previous page
	Limit       int
}

// TrendKey is a point's position in a trend: its audit's completion time
// and id.
type TrendKey struct {
	At      time.Time `json:"t"`
	AuditID string    `json:"a"`
}
