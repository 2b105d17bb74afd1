package engine

import (
	"time"
)

// TrendQuery asks for the findings of the snapshots of the audits completed
// between From and To (inclusive), counted by GroupBy.
type TrendQuery struct {
	From, To time.Time
	Filter   FindingFilter // AuditID must be empty
	GroupBy  []GroupBy
}

// TrendPoint is one snapshot of a trend: its audit, when it completed, and
// the counts of its findings as the audit wrote them (later manual
// decisions are not applied to past snapshots), less the findings the
// active mute rules applied to the snapshot match (status muted).
type TrendPoint struct {
	AuditID     string         `json:"audit_id"`
	CompletedAt time.Time      `json:"completed_at"`
	Total       int64          `json:"total"`
	Groups      []FindingCount `json:"groups"`
}
