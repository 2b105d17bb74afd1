package findings

import (
	"context"
	"errors"

	"github.com/fourd-dev/fourd/engine"
)

// BulkUpdateFindings applies one update to up to MaxBulkFindings findings,
// each independently: a finding that cannot take it (not found, fixed)
// fails alone. The update and the selection are validated first; a filter
// matching more than MaxBulkFindings findings changes nothing.
func (s *Service) BulkUpdateFindings(ctx context.Context, p engine.Principal, b engine.BulkFindingUpdate) (engine.BulkResult, error) {
	if err := p.Require(engine.ScopeFindingsWrite); err != nil {
		return engine.BulkResult{}, err
	}
	if s.cfg.Overrides == nil {
		return engine.BulkResult{}, engine.Errorf(engine.CodeUnavailable, "finding updates are not configured on this server")
	}
	now := s.now().UTC()
	u, err := validateUpdate(b.Update, now)
	if err != nil {
		return engine.BulkResult{}, err
	}
	switch {
	case (b.IDs == nil) == (b.Filter == nil):
		return engine.BulkResult{}, engine.FieldErrorf("ids", "give either ids or a filter")
	case b.Filter == nil && len(b.IDs) == 0:
		return engine.BulkResult{}, engine.FieldErrorf("ids", "ids is empty")
	case len(b.IDs) > engine.MaxBulkFindings:
		return engine.BulkResult{}, engine.FieldErrorf("ids", "at most %d ids per request; got %d", engine.MaxBulkFindings, len(b.IDs))
	}
	seen := make(map[string]bool, len(b.IDs))
	for _, id := range b.IDs {
		if seen[id] {
			return engine.BulkResult{}, engine.FieldErrorf("ids", "ids names %s twice", engine.Quote(id))
		}
		seen[id] = true
	}
	if err := s.checkAssignee(ctx, p, u.Assignee); err != nil {
		return engine.BulkResult{}, err
	}
	res := engine.BulkResult{Results: []engine.BulkItemResult{}}
	auditID, err := s.snapshotFor(ctx, p.TenantID, "")
	if engine.IsNotFound(err) {
		auditID = "" // no completed audit: every id is not found
	} else if err != nil {
		return engine.BulkResult{}, err
	}
	ov, err := s.cachedOverrides(ctx, p.TenantID)
	if err != nil {
		return engine.BulkResult{}, err
	}
	var found []engine.Finding
	if b.Filter != nil {
		if found, err = s.bulkSelect(ctx, p.TenantID, auditID, *b.Filter, ov); err != nil {
			return engine.BulkResult{}, err
		}
		b.IDs = make([]string, len(found))
		for i, f := range found {
			b.IDs[i] = f.ID
		}
	} else if auditID != "" {
		if found, err = s.cfg.Snapshots.GetFindings(ctx, p.TenantID, auditID, b.IDs); err != nil {
			return engine.BulkResult{}, err
		}
	}
	byID := make(map[string]engine.Finding, len(found))
	for _, f := range found {
		byID[f.ID] = decide(f, ov.byID, now)
	}
	cur, err := s.overrides(ctx, p.TenantID)
	if err != nil {
		return engine.BulkResult{}, err
	}
	for _, id := range b.IDs {
		f, ok := byID[id]
		if !ok {
			addResult(&res, id, engine.Finding{}, engine.ErrNotFound("finding", id))
			continue
		}
		got, err := s.changeFinding(ctx, p, f, cur, u, now)
		var e *engine.Error
		if err != nil && !errors.As(err, &e) {
			return engine.BulkResult{}, err // a store failure: the rest would fail alike
		}
		addResult(&res, id, got, err)
	}
	return res, nil
}

func addResult(r *engine.BulkResult, id string, f engine.Finding, err error) {
	if err != nil {
		var e *engine.Error
		errors.As(err, &e)
		r.Results = append(r.Results, engine.BulkItemResult{ID: id, Error: &engine.BulkItemError{Code: e.Code, Message: e.Message}})
		r.Failed++
		return
	}
	r.Results = append(r.Results, engine.BulkItemResult{ID: id, OK: true, Finding: &f})
	r.Updated++
}

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
