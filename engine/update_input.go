package engine

import (
	"time"
)

// Statuses a FindingUpdate may ask for besides open and resolved.
const (
	StatusInProgress    FindingStatus = "in_progress"
	StatusFalsePositive FindingStatus = "false_positive"
)

// FindingUpdate is a person's change to a finding: a new workflow status
// (open, in_progress, resolved as accepted_risk or false_positive, or
// false_positive, short for resolved as false_positive; empty: unchanged),
// a note, and an assignee (nil: unchanged; empty: nobody).
type FindingUpdate struct {
	Status     FindingStatus
	Resolution Resolution
	Note       string
	ExpiresAt  *time.Time
	Assignee   *string
}
