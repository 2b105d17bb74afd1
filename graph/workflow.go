package graph

import (
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// findingUpdate maps a GraphQL change of a finding to the engine's: a
// workflow status (FIXED refused), a note, an expiry, an assignee.
func findingUpdate(status *engine.WorkflowStatus, note *string, expiresAt *time.Time, assignee *string) (engine.FindingUpdate, error) {
	u := engine.FindingUpdate{ExpiresAt: expiresAt, Assignee: assignee}
	if note != nil {
		u.Note = *note
	}
	if status != nil {
		switch *status {
		case engine.WorkflowOpen:
			u.Status = engine.StatusOpen
		case engine.WorkflowInProgress:
			u.Status = engine.StatusInProgress
		case engine.WorkflowAcceptedRisk:
			u.Status, u.Resolution = engine.StatusResolved, engine.ResolutionAcceptedRisk
		case engine.WorkflowFalsePositive:
			u.Status = engine.StatusFalsePositive
		default:
			return u, engine.FieldErrorf("status", "status must be OPEN, IN_PROGRESS, ACCEPTED_RISK or FALSE_POSITIVE: a finding is fixed when an audit no longer detects it")
		}
	}
	return u, nil
}
