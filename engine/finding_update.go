package engine

import (
	"context"
	"slices"
	"time"
)

// Limits on a manual resolution.
const (
	maxOverrideNote = 2000
	maxOverrides    = 10000
)

// FindingUpdate is a person's decision on a finding: resolve it as an
// accepted risk (with a note and an optional expiry), or reopen it.
type FindingUpdate struct {
	Status     FindingStatus
	Resolution Resolution
	Note       string
	ExpiresAt  *time.Time
}

// UpdateFinding records a decision on a finding of the latest snapshot. It
// shows in reads at once and later audits keep it: an accepted risk stays
// resolved until it expires or is reopened. Only accepted_risk can be set by
// hand (fixed means no longer detected); only an accepted risk can be
// reopened.
func (s *Service) UpdateFinding(ctx context.Context, p Principal, id string, u FindingUpdate) (Finding, error) {
	if err := p.Require(ScopeFindingsWrite); err != nil {
		return Finding{}, err
	}
	if s.cfg.Overrides == nil {
		return Finding{}, Errorf(CodeUnavailable, "finding updates are not configured on this server")
	}
	now := s.now().UTC()
	switch {
	case u.Status == StatusResolved && u.Resolution != ResolutionAcceptedRisk:
		return Finding{}, FieldErrorf("resolution", "resolution must be accepted_risk: a finding is fixed when an audit no longer detects it")
	case u.Status == StatusOpen && (u.Resolution != "" || u.Note != "" || u.ExpiresAt != nil):
		return Finding{}, FieldErrorf("status", "reopening takes no resolution, note or expiry")
	case u.Status != StatusOpen && u.Status != StatusResolved:
		return Finding{}, FieldErrorf("status", "status must be resolved or open; got %s", quote(string(u.Status)))
	case len(u.Note) > maxOverrideNote:
		return Finding{}, FieldErrorf("note", "note is at most %d bytes", maxOverrideNote)
	case u.ExpiresAt != nil && !u.ExpiresAt.After(now):
		return Finding{}, FieldErrorf("expires_at", "expires_at must be in the future")
	}
	f, err := s.GetFinding(ctx, p, id)
	if err != nil {
		return Finding{}, err
	}
	if u.Status == StatusOpen {
		if f.Status == StatusOpen {
			return f, nil // already open: nothing to do
		}
		if f.Resolution != ResolutionAcceptedRisk {
			return Finding{}, Errorf(CodeConflict, "finding %s was fixed (no longer detected); only accepted risks can be reopened", id)
		}
	} else if f.Status == StatusResolved && f.Resolution == ResolutionFixed {
		return Finding{}, Errorf(CodeConflict, "finding %s is already fixed", id)
	}
	o := FindingOverride{TenantID: p.TenantID, FindingID: id, Note: u.Note, CreatedBy: p.UserID, CreatedAt: now, ExpiresAt: u.ExpiresAt}
	if u.Status == StatusResolved {
		o.Resolution = ResolutionAcceptedRisk
	}
	err = s.cfg.Overrides.PutOverride(ctx, o)
	// Invalidated even when the write failed: it may have committed.
	// Other replicas hear of it through the change feed.
	s.reads.invalidate(p.TenantID)
	if err != nil {
		return Finding{}, err
	}
	return applyOverride(f, o), nil
}

// overrides returns the tenant's active decisions by finding id, read from
// the store (audits use it: they must not carry forward a stale decision;
// reads use cachedOverrides).
func (s *Service) overrides(ctx context.Context, tenantID string) (map[string]FindingOverride, error) {
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
	out := make(map[string]FindingOverride, len(list))
	for _, o := range list {
		out[o.FindingID] = o
	}
	return out, nil
}

// applyOverride shows a decision on a finding read from a snapshot.
func applyOverride(f Finding, o FindingOverride) Finding {
	if o.Resolution == ResolutionAcceptedRisk {
		if f.Status == StatusOpen {
			at := o.CreatedAt
			f.Status, f.Resolution, f.ResolvedAt = StatusResolved, ResolutionAcceptedRisk, &at
		}
		return f
	}
	if f.Resolution == ResolutionAcceptedRisk { // reopened by hand
		f.Status, f.Resolution, f.ResolvedAt = StatusOpen, ResolutionNone, nil
	}
	return f
}

// forcedStatuses splits decisions into the ids they force resolved and
// open, each sorted, as FindingQuery and the report scope take them.
func forcedStatuses(ov map[string]FindingOverride) (resolved, open []string) {
	for id, o := range ov {
		if o.Resolution == ResolutionAcceptedRisk {
			resolved = append(resolved, id)
		} else {
			open = append(open, id)
		}
	}
	slices.Sort(resolved)
	slices.Sort(open)
	return resolved, open
}
