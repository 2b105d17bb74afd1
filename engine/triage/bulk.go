package triage

import (
	"context"
	"errors"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// BulkUpdateFindings applies one update to up to MaxBulkFindings findings,
// each independently: a finding that cannot take it (not found, fixed)
// fails alone. The update and the selection are validated first; a filter
// matching more than MaxBulkFindings findings changes nothing.
func (s *Service) BulkUpdateFindings(ctx context.Context, p engine.Principal, b engine.BulkFindingUpdate) (engine.BulkResult, error) {
	if err := s.writable(p); err != nil {
		return engine.BulkResult{}, err
	}
	now := s.cfg.Now().UTC().Truncate(time.Microsecond) // as PostgreSQL keeps it: answers equal reads
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
	found, err := s.cfg.Reads.SelectLatest(ctx, p.TenantID, b.IDs, b.Filter, now)
	if err != nil {
		return engine.BulkResult{}, err
	}
	if b.Filter != nil {
		b.IDs = make([]string, len(found))
		for i, f := range found {
			b.IDs[i] = f.ID
		}
	}
	byID := make(map[string]engine.Finding, len(found))
	for _, f := range found {
		byID[f.ID] = f
	}
	cur, err := s.cfg.Reads.Decisions(ctx, p.TenantID)
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
	// Each result's finding as a read shows it now, mute rules applied.
	changed := make([]engine.Finding, 0, res.Updated)
	for _, it := range res.Results {
		if it.OK {
			changed = append(changed, *it.Finding)
		}
	}
	if err := s.cfg.Reads.MarkMuted(ctx, p.TenantID, changed); err != nil {
		return engine.BulkResult{}, err
	}
	for i, j := 0, 0; i < len(res.Results); i++ {
		if res.Results[i].OK {
			res.Results[i].Finding = &changed[j]
			j++
		}
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
