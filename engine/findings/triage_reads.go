package findings

import (
	"context"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// TriageReads is the read path's side of triage, what engine/triage's
// Service needs from this one (its Reads interface): findings as the API
// shows them, the tenant's decisions as stored, a decision's effect on a
// finding, and the caches a decision changes. cmd/fourd wires it.
type TriageReads struct{ s *Service }

// TriageReads returns the read path's side of triage.
func (s *Service) TriageReads() TriageReads { return TriageReads{s: s} }

// GetFinding returns one finding as of the latest completed audit, with
// the caller's decisions applied (Service.GetFinding).
func (r TriageReads) GetFinding(ctx context.Context, p engine.Principal, id string) (engine.Finding, error) {
	return r.s.GetFinding(ctx, p, id)
}

// Decisions returns the tenant's live decisions by finding id, read from
// the store (a write must not act on a stale decision); nil when the
// server keeps none.
func (r TriageReads) Decisions(ctx context.Context, tenantID string) (map[string]engine.FindingOverride, error) {
	return r.s.overrides(ctx, tenantID)
}

// SelectLatest returns, with decisions applied as of now, the findings of
// the tenant's latest snapshot with the given ids (those that exist), or
// when filter is not nil those matching it: at most MaxBulkFindings, more
// is validation_failed, and the filter takes no audit_id. No completed
// audit yet: none.
func (r TriageReads) SelectLatest(ctx context.Context, tenantID string, ids []string, filter *engine.FindingFilter, now time.Time) ([]engine.Finding, error) {
	s := r.s
	auditID, err := s.snapshotFor(ctx, tenantID, "")
	if engine.IsNotFound(err) {
		auditID = "" // no completed audit: every id is not found
	} else if err != nil {
		return nil, err
	}
	ov, err := s.cachedOverrides(ctx, tenantID)
	if err != nil {
		return nil, err
	}
	var found []engine.Finding
	if filter != nil {
		if found, err = s.bulkSelect(ctx, tenantID, auditID, *filter, ov); err != nil {
			return nil, err
		}
	} else if auditID != "" {
		if found, err = s.cfg.Snapshots.GetFindings(ctx, tenantID, auditID, ids); err != nil {
			return nil, err
		}
	}
	for i := range found {
		found[i] = decide(found[i], ov.byID, now)
	}
	return found, nil
}

// Redecide returns f (as read, decisions applied) with decision o in place
// of the one it had, as a read after o is stored shows it but for mutes: a
// muted finding is open under its mute, so it comes back open (or resolved
// by o), and MarkMuted marks what a mute rule mutes.
func (r TriageReads) Redecide(f engine.Finding, o engine.FindingOverride, now time.Time) engine.Finding {
	if f.Status == engine.StatusMuted {
		f.Status, f.MuteRuleID = engine.StatusOpen, ""
	}
	return decorate(applyOverride(undecided(f), o), &o, now)
}

// MarkMuted marks, as reads do, the open findings among items (of the
// tenant's latest snapshot, decisions applied) that an active mute rule
// mutes: status muted, with the rule's id.
func (r TriageReads) MarkMuted(ctx context.Context, tenantID string, items []engine.Finding) error {
	s := r.s
	if len(items) == 0 {
		return nil
	}
	auditID, err := s.snapshotFor(ctx, tenantID, "")
	if engine.IsNotFound(err) {
		return nil
	} else if err != nil {
		return err
	}
	ov, err := s.cachedOverrides(ctx, tenantID)
	if err != nil {
		return err
	}
	q := engine.FindingQuery{TenantID: tenantID, Filter: engine.FindingFilter{AuditID: auditID}}
	q.Mutes, q.MuteSet = s.muteSel(tenantID, ov, auditID)
	return s.markMuted(ctx, tenantID, q, items)
}

// Invalidate forgets the tenant's cached decisions (after a write, even a
// failed one: it may have committed). Other replicas hear of it through
// the change feed.
func (r TriageReads) Invalidate(tenantID string) { r.s.reads.invalidate(tenantID) }

// bulkSelect reads the findings of the latest snapshot matching f, at most
// MaxBulkFindings: more is an error.
func (s *Service) bulkSelect(ctx context.Context, tenantID, auditID string, f engine.FindingFilter, ov *overrideSet) ([]engine.Finding, error) {
	if f.AuditID != "" {
		return nil, engine.FieldErrorf("filter", "a bulk update changes the latest snapshot: the filter takes no audit_id")
	}
	if auditID == "" {
		return nil, nil
	}
	f.AuditID = auditID
	q := engine.FindingQuery{TenantID: tenantID, Filter: f, Limit: engine.MaxBulkFindings + 1,
		ForceResolved: ov.resolved, ForceOpen: ov.open, OnlyIDs: ov.assignedTo(f.Assignee)}
	q.Mutes, q.MuteSet = s.muteSel(tenantID, ov, auditID)
	rows, err := s.cfg.Findings.ListFindings(ctx, q)
	if err != nil {
		return nil, err
	}
	if len(rows) > engine.MaxBulkFindings {
		return nil, engine.FieldErrorf("filter", "the filter matches more than %d findings; narrow it", engine.MaxBulkFindings)
	}
	return rows, nil
}
