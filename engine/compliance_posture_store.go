package engine

import (
	"context"
	"time"
)

// The compliance trend: each audit's posture per framework, recorded when
// the audit completes (with the decisions people had made by then), so
// that a trend is one indexed read rather than one judgement per audit.
// Audits completed before the posture was recorded (or whose recording
// failed) have no point: the trend says nothing of them rather than
// recomputing them from snapshots that may be gone.

// CompliancePostureStore keeps the postures recorded for the trend
// (store/postgres).
type CompliancePostureStore interface {
	// PutCompliancePostures records the posture of each framework for one
	// completed audit (AuditID and AuditCompletedAt set), replacing what
	// was recorded for that audit. A posture of an audit the store does
	// not hold (deleted meanwhile) is not recorded.
	PutCompliancePostures(ctx context.Context, tenantID string, postures []CompliancePosture) error
	// ListCompliancePostures returns the recorded postures of one
	// framework, newest audit first (by completion time, then audit id),
	// after q.After when set, at most q.Limit.
	ListCompliancePostures(ctx context.Context, q CompliancePostureQuery) ([]CompliancePosture, error)
}

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
