package triage

import (
	"context"
	"strings"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// maxOverrideNote bounds the note of a decision on a finding.
const maxOverrideNote = 2000

// validateUpdate checks u on its own, before any finding is read, and returns it
// normalized: status false_positive becomes resolved/false_positive.
func validateUpdate(u engine.FindingUpdate, now time.Time) (engine.FindingUpdate, error) {
	if u.Status == engine.StatusFalsePositive {
		if u.Resolution != "" && u.Resolution != engine.ResolutionFalsePositive {
			return u, engine.FieldErrorf("resolution", "status false_positive takes no other resolution; got %s", engine.Quote(string(u.Resolution)))
		}
		u.Status, u.Resolution = engine.StatusResolved, engine.ResolutionFalsePositive
	}
	switch {
	case u.Status == "" && u.Resolution != "":
		return u, engine.FieldErrorf("status", "a resolution needs status resolved")
	case u.Status == "" && u.Assignee == nil && u.Note == "":
		return u, engine.FieldErrorf("status", "nothing to change: give a status, an assignee or a note")
	case u.Status != "" && u.Status != engine.StatusOpen && u.Status != engine.StatusInProgress && u.Status != engine.StatusResolved:
		return u, engine.FieldErrorf("status", "status must be open, in_progress, resolved or false_positive; got %s", engine.Quote(string(u.Status)))
	case u.Status == engine.StatusResolved && !u.Resolution.Manual():
		return u, engine.FieldErrorf("resolution", "resolution must be accepted_risk or false_positive: a finding is fixed when an audit no longer detects it")
	case u.Status != engine.StatusResolved && (u.Resolution != "" || u.ExpiresAt != nil):
		return u, engine.FieldErrorf("status", "only a resolved status takes a resolution or an expiry")
	case u.Resolution == engine.ResolutionFalsePositive && strings.TrimSpace(u.Note) == "":
		return u, engine.FieldErrorf("note", "a false positive needs a note saying why")
	case len(u.Note) > maxOverrideNote:
		return u, engine.FieldErrorf("note", "note is at most %d bytes", maxOverrideNote)
	case u.ExpiresAt != nil && !u.ExpiresAt.After(now):
		return u, engine.FieldErrorf("expires_at", "expires_at must be in the future")
	case u.Assignee != nil && *u.Assignee != "" && !engine.ValidID(engine.PrefixUser, *u.Assignee):
		return u, engine.FieldErrorf("assignee", "assignee must be the id of a user of the tenant (usr_…) or empty; got %s", engine.Quote(*u.Assignee))
	}
	return u, nil
}

// UpdateFinding records a change to a finding of the latest snapshot. It
// shows in reads at once and later audits keep it: an accepted risk or a
// false positive stays resolved until it expires or is reopened; status
// in_progress and the assignee stay until changed. Every change is added
// to the finding's activity.
func (s *Service) UpdateFinding(ctx context.Context, p engine.Principal, id string, u engine.FindingUpdate) (engine.Finding, error) {
	if err := s.writable(p); err != nil {
		return engine.Finding{}, err
	}
	now := s.cfg.Now().UTC().Truncate(time.Microsecond) // as PostgreSQL keeps it: answers equal reads
	u, err := validateUpdate(u, now)
	if err != nil {
		return engine.Finding{}, err
	}
	if err := s.checkAssignee(ctx, p, u.Assignee); err != nil {
		return engine.Finding{}, err
	}
	f, err := s.cfg.Reads.GetFinding(ctx, p, id)
	if err != nil {
		return engine.Finding{}, err
	}
	cur, err := s.cfg.Reads.Decisions(ctx, p.TenantID)
	if err != nil {
		return engine.Finding{}, err
	}
	got, err := s.changeFinding(ctx, p, f, cur, u, now)
	if err != nil {
		return engine.Finding{}, err
	}
	// The answer is the finding as a read shows it now, mute rules applied.
	one := []engine.Finding{got}
	if err := s.cfg.Reads.MarkMuted(ctx, p.TenantID, one); err != nil {
		return engine.Finding{}, err
	}
	return one[0], nil
}

// checkAssignee checks that a new assignee is an enabled user of the tenant.
func (s *Service) checkAssignee(ctx context.Context, p engine.Principal, assignee *string) error {
	if assignee == nil || *assignee == "" {
		return nil
	}
	if s.cfg.Users == nil {
		return engine.Errorf(engine.CodeUnavailable, "assignment is not configured on this server")
	}
	usr, err := s.cfg.Users.GetUser(ctx, p.TenantID, *assignee)
	if engine.IsNotFound(err) || (err == nil && usr.DisabledAt != nil) {
		return engine.FieldErrorf("assignee", "assignee %s is not a user of this tenant", engine.Quote(*assignee))
	}
	return err
}

// changeFinding applies a validated update to f (as read, decisions
// applied), given the tenant's current decisions, and writes the decision
// and its activity. Nothing changed: f as it is, nothing written.
func (s *Service) changeFinding(ctx context.Context, p engine.Principal, f engine.Finding, cur map[string]engine.FindingOverride, u engine.FindingUpdate, now time.Time) (engine.Finding, error) {
	o, had := cur[f.ID]
	if !had {
		if len(cur) >= engine.MaxFindingOverrides {
			return engine.Finding{}, engine.Errorf(engine.CodeConflict, "the tenant already holds %d decisions on findings, the most it may", engine.MaxFindingOverrides)
		}
		o = engine.FindingOverride{TenantID: p.TenantID, FindingID: f.ID}
	}
	before := f.WorkflowStatus
	after := before
	switch u.Status {
	case engine.StatusOpen:
		after = engine.WorkflowOpen
	case engine.StatusInProgress:
		after = engine.WorkflowInProgress
	case engine.StatusResolved:
		after = engine.WorkflowStatus(u.Resolution)
	}
	var acts []engine.FindingActivity
	if after != before || (u.Status == engine.StatusResolved && !timePtrEqual(o.ExpiresAt, u.ExpiresAt)) {
		if before == engine.WorkflowFixed {
			return engine.Finding{}, engine.Errorf(engine.CodeConflict, "finding %s was fixed (no longer detected); its status cannot change", f.ID)
		}
		if after == engine.WorkflowInProgress && before != engine.WorkflowOpen {
			// in_progress is work on an open finding: a finding resolved
			// by a decision is reopened first, its own recorded change.
			return engine.Finding{}, engine.Errorf(engine.CodeConflict,
				"finding %s is resolved as %s: only an open finding can be in_progress; reopen it (status open) first", f.ID, before)
		}
		o.Resolution, o.State, o.ExpiresAt = engine.ResolutionNone, "", nil
		switch after {
		case engine.WorkflowInProgress:
			o.State = engine.WorkflowInProgress
		case engine.WorkflowAcceptedRisk, engine.WorkflowFalsePositive:
			o.Resolution, o.ExpiresAt = engine.Resolution(after), u.ExpiresAt
		}
		o.Note, o.CreatedBy, o.CreatedAt = u.Note, p.UserID, now
		acts = append(acts, engine.FindingActivity{At: now, Kind: engine.ActivityStatusChanged, Actor: p.UserID,
			From: string(before), To: string(after), Note: u.Note})
	} else if u.Note != "" {
		acts = append(acts, engine.FindingActivity{At: now, Kind: engine.ActivityNote, Actor: p.UserID, Note: u.Note})
	}
	if u.Assignee != nil && *u.Assignee != o.Assignee {
		acts = append(acts, engine.FindingActivity{At: now, Kind: engine.ActivityAssigned, Actor: p.UserID, From: o.Assignee, To: *u.Assignee})
		o.Assignee = *u.Assignee
	}
	if len(acts) == 0 {
		return f, nil
	}
	if o.CreatedAt.IsZero() {
		o.CreatedBy, o.CreatedAt = p.UserID, now
	}
	err := s.cfg.Decisions.ChangeOverride(ctx, o, acts)
	// Invalidated even when the write failed: it may have committed.
	// Other replicas hear of it through the change feed.
	s.cfg.Reads.Invalidate(p.TenantID)
	if err != nil {
		return engine.Finding{}, err
	}
	cur[f.ID] = o
	return s.cfg.Reads.Redecide(f, o, now), nil
}

func timePtrEqual(a, b *time.Time) bool {
	return (a == nil) == (b == nil) && (a == nil || a.Equal(*b))
}
