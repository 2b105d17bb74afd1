package engine

import (
	"time"
)

// ActivityKind says what one entry of a finding's activity records.
type ActivityKind string

// Activity kinds: the first three are people's changes (PostgreSQL), the
// last two come from the audit snapshots that saw the finding.
const (
	ActivityStatusChanged   ActivityKind = "status_changed"
	ActivityAssigned        ActivityKind = "assigned"
	ActivityNote            ActivityKind = "note"
	ActivitySeen            ActivityKind = "seen"
	ActivitySeverityChanged ActivityKind = "severity_changed"
)

// FindingActivity is one entry of a finding's history.
type FindingActivity struct {
	At   time.Time    `json:"at"`
	Kind ActivityKind `json:"kind"`
	// Actor is the id of the user who made the change; empty for what an
	// audit saw.
	Actor string `json:"actor"`
	// From and To are the values before and after: workflow statuses for
	// status_changed, user ids for assigned ("" for nobody), severities for
	// severity_changed.
	From string `json:"from"`
	To   string `json:"to"`
	Note string `json:"note"`
	// AuditID is the audit that saw the finding (seen, severity_changed).
	AuditID string `json:"audit_id"`
	// Cursor, set on the entries of a page, is the cursor after the entry.
	Cursor string `json:"-"`
}
