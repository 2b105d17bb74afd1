package findings

import (
	"context"
	"slices"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// maxOverrides bounds the decisions a tenant holds (the read path keeps
// the newest).
const maxOverrides = engine.MaxFindingOverrides

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
