package findings

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// Limits on people's decisions on findings.
const (
	maxOverrideNote = 2000
	maxOverrides    = 10000
)

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
	if err := p.Require(engine.ScopeFindingsWrite); err != nil {
		return engine.Finding{}, err
	}
	if s.cfg.Overrides == nil {
		return engine.Finding{}, engine.Errorf(engine.CodeUnavailable, "finding updates are not configured on this server")
	}
	now := s.now().UTC()
	u, err := validateUpdate(u, now)
	if err != nil {
		return engine.Finding{}, err
	}
	if err := s.checkAssignee(ctx, p, u.Assignee); err != nil {
		return engine.Finding{}, err
	}
	f, err := s.GetFinding(ctx, p, id)
	if err != nil {
		return engine.Finding{}, err
	}
	cur, err := s.overrides(ctx, p.TenantID)
	if err != nil {
		return engine.Finding{}, err
	}
	return s.changeFinding(ctx, p, f, cur, u, now)
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
		if len(cur) >= maxOverrides {
			return engine.Finding{}, engine.Errorf(engine.CodeConflict, "the tenant already holds %d decisions on findings, the most it may", maxOverrides)
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
	err := s.cfg.Overrides.ChangeOverride(ctx, o, acts)
	// Invalidated even when the write failed: it may have committed.
	// Other replicas hear of it through the change feed.
	s.reads.invalidate(p.TenantID)
	if err != nil {
		return engine.Finding{}, err
	}
	cur[f.ID] = o
	return decorate(applyOverride(undecided(f), o), &o, now), nil
}

func timePtrEqual(a, b *time.Time) bool {
	return (a == nil) == (b == nil) && (a == nil || a.Equal(*b))
}

// overrides returns the tenant's active decisions by finding id, read from
// the store (audits and writes use it: they must not act on a stale
// decision; reads use cachedOverrides).
func (s *Service) overrides(ctx context.Context, tenantID string) (map[string]engine.FindingOverride, error) {
	if s.cfg.Overrides == nil {
		return nil, nil
	}
	list, err := s.cfg.Overrides.ListOverrides(ctx, tenantID, s.now())
	if err != nil {
		return nil, err
	}
	if len(list) > maxOverrides {
		list = list[len(list)-maxOverrides:]
	}
	out := make(map[string]engine.FindingOverride, len(list))
	for _, o := range list {
		out[o.FindingID] = o
	}
	return out, nil
}

// undecided undoes what applyOverride did to a finding read with decisions
// applied, as far as the snapshot shows it: a manual resolution the
// snapshot did not hold is open again.
func undecided(f engine.Finding) engine.Finding {
	if f.Status == engine.StatusResolved && f.Resolution.Manual() && f.WorkflowStatus != "" {
		f.Status, f.Resolution, f.ResolvedAt = engine.StatusOpen, engine.ResolutionNone, nil
	}
	return f
}

// applyOverride shows a decision on a finding read from a snapshot: a
// manual resolution resolves an open finding; no resolution reopens one the
// snapshot holds as a manual resolution. A fixed finding stays fixed.
func applyOverride(f engine.Finding, o engine.FindingOverride) engine.Finding {
	if o.Resolution.Manual() {
		if f.Status == engine.StatusOpen || f.Resolution.Manual() {
			at := o.CreatedAt
			f.Status, f.Resolution, f.ResolvedAt = engine.StatusResolved, o.Resolution, &at
		}
		return f
	}
	if f.Resolution.Manual() { // reopened by hand
		f.Status, f.Resolution, f.ResolvedAt = engine.StatusOpen, engine.ResolutionNone, nil
	}
	return f
}

// decorate fills the workflow fields of a finding (decisions applied): its
// workflow status, assignee and open age as of now. o is its decision, if
// any.
func decorate(f engine.Finding, o *engine.FindingOverride, now time.Time) engine.Finding {
	f.WorkflowStatus, f.Assignee = engine.WorkflowOpen, nil
	switch {
	case f.Status == engine.StatusResolved && f.Resolution == engine.ResolutionFixed:
		f.WorkflowStatus = engine.WorkflowFixed
	case f.Status == engine.StatusResolved && f.Resolution.Manual():
		f.WorkflowStatus = engine.WorkflowStatus(f.Resolution)
	case f.Status == engine.StatusResolved:
		f.WorkflowStatus = engine.WorkflowFixed
	case o != nil && o.State == engine.WorkflowInProgress:
		f.WorkflowStatus = engine.WorkflowInProgress
	}
	if o != nil && o.Assignee != "" {
		a := o.Assignee
		f.Assignee = &a
	}
	end := now
	if f.ResolvedAt != nil {
		end = *f.ResolvedAt
	}
	f.OpenAgeSeconds = 0
	if !f.FirstSeenAt.IsZero() && end.After(f.FirstSeenAt) {
		f.OpenAgeSeconds = int64(end.Sub(f.FirstSeenAt) / time.Second)
	}
	return f
}

// decide applies the decision on f, if any, from a tenant's decisions and
// fills its workflow fields.
func decide(f engine.Finding, byID map[string]engine.FindingOverride, now time.Time) engine.Finding {
	if o, ok := byID[f.ID]; ok {
		return decorate(applyOverride(f, o), &o, now)
	}
	return decorate(f, nil, now)
}

// forcedStatuses splits decisions into the ids they force resolved and
// open, each sorted, as FindingQuery and the report scope take them. The
// store never forces a fixed finding open.
func forcedStatuses(ov map[string]engine.FindingOverride) (resolved, open []string) {
	for id, o := range ov {
		if o.Resolution.Manual() {
			resolved = append(resolved, id)
		} else {
			open = append(open, id)
		}
	}
	slices.Sort(resolved)
	slices.Sort(open)
	return resolved, open
}
