package engine

import (
	"context"
	"errors"
)

// MaxBulkFindings is the most findings one bulk update changes.
const MaxBulkFindings = 1000

// BulkFindingUpdate changes several findings of the latest snapshot at
// once: those with the given ids, or those matching Filter (exactly one of
// the two).
type BulkFindingUpdate struct {
	IDs    []string
	Filter *FindingFilter
	Update FindingUpdate
}

// BulkItemResult is the outcome of a bulk update for one finding: the
// finding as changed, or the error that left it unchanged.
type BulkItemResult struct {
	ID      string         `json:"id"`
	OK      bool           `json:"ok"`
	Finding *Finding       `json:"finding,omitempty"`
	Error   *BulkItemError `json:"error,omitempty"`
}

// BulkItemError is why one item of a bulk request failed: an error code of the
// API's envelope and a message.
type BulkItemError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// BulkResult is the answer to a bulk update, one result per finding in the
// order of the ids (or of the list, for a filter).
type BulkResult struct {
	Updated int              `json:"updated"`
	Failed  int              `json:"failed"`
	Results []BulkItemResult `json:"results"`
}

// BulkUpdateFindings applies one update to up to MaxBulkFindings findings,
// each independently: a finding that cannot take it (not found, fixed)
// fails alone. The update and the selection are validated first; a filter
// matching more than MaxBulkFindings findings changes nothing.
func (s *Service) BulkUpdateFindings(ctx context.Context, p Principal, b BulkFindingUpdate) (BulkResult, error) {
	if err := p.Require(ScopeFindingsWrite); err != nil {
		return BulkResult{}, err
	}
	if s.cfg.Overrides == nil {
		return BulkResult{}, Errorf(CodeUnavailable, "finding updates are not configured on this server")
	}
	now := s.now().UTC()
	u, err := b.Update.validate(now)
	if err != nil {
		return BulkResult{}, err
	}
	switch {
	case (b.IDs == nil) == (b.Filter == nil):
		return BulkResult{}, FieldErrorf("ids", "give either ids or a filter")
	case b.Filter == nil && len(b.IDs) == 0:
		return BulkResult{}, FieldErrorf("ids", "ids is empty")
	case len(b.IDs) > MaxBulkFindings:
		return BulkResult{}, FieldErrorf("ids", "at most %d ids per request; got %d", MaxBulkFindings, len(b.IDs))
	}
	seen := make(map[string]bool, len(b.IDs))
	for _, id := range b.IDs {
		if seen[id] {
			return BulkResult{}, FieldErrorf("ids", "ids names %s twice", quote(id))
		}
		seen[id] = true
	}
	if err := s.checkAssignee(ctx, p, u.Assignee); err != nil {
		return BulkResult{}, err
	}
	res := BulkResult{Results: []BulkItemResult{}}
	auditID, err := s.snapshotFor(ctx, p.TenantID, "")
	if IsNotFound(err) {
		auditID = "" // no completed audit: every id is not found
	} else if err != nil {
		return BulkResult{}, err
	}
	ov, err := s.cachedOverrides(ctx, p.TenantID)
	if err != nil {
		return BulkResult{}, err
	}
	var found []Finding
	if b.Filter != nil {
		if found, err = s.bulkSelect(ctx, p.TenantID, auditID, *b.Filter, ov); err != nil {
			return BulkResult{}, err
		}
		b.IDs = make([]string, len(found))
		for i, f := range found {
			b.IDs[i] = f.ID
		}
	} else if auditID != "" {
		if found, err = s.cfg.Snapshots.GetFindings(ctx, p.TenantID, auditID, b.IDs); err != nil {
			return BulkResult{}, err
		}
	}
	byID := make(map[string]Finding, len(found))
	for _, f := range found {
		byID[f.ID] = decide(f, ov.byID, now)
	}
	cur, err := s.overrides(ctx, p.TenantID)
	if err != nil {
		return BulkResult{}, err
	}
	for _, id := range b.IDs {
		f, ok := byID[id]
		if !ok {
			res.add(id, Finding{}, ErrNotFound("finding", id))
			continue
		}
		got, err := s.changeFinding(ctx, p, f, cur, u, now)
		var e *Error
		if err != nil && !errors.As(err, &e) {
			return BulkResult{}, err // a store failure: the rest would fail alike
		}
		res.add(id, got, err)
	}
	return res, nil
}

func (r *BulkResult) add(id string, f Finding, err error) {
	if err != nil {
		var e *Error
		errors.As(err, &e)
		r.Results = append(r.Results, BulkItemResult{ID: id, Error: &BulkItemError{Code: e.Code, Message: e.Message}})
		r.Failed++
		return
	}
	r.Results = append(r.Results, BulkItemResult{ID: id, OK: true, Finding: &f})
	r.Updated++
}

// bulkSelect reads the findings of the latest snapshot matching f, at most
// MaxBulkFindings: more is an error.
func (s *Service) bulkSelect(ctx context.Context, tenantID, auditID string, f FindingFilter, ov *overrideSet) ([]Finding, error) {
	if f.AuditID != "" {
		return nil, FieldErrorf("filter", "a bulk update changes the latest snapshot: the filter takes no audit_id")
	}
	if auditID == "" {
		return nil, nil
	}
	f.AuditID = auditID
	q := FindingQuery{TenantID: tenantID, Filter: f, Limit: MaxBulkFindings + 1,
		ForceResolved: ov.resolved, ForceOpen: ov.open, OnlyIDs: ov.assignedTo(f.Assignee)}
	q.Mutes, q.MuteSet = s.muteSel(tenantID, ov, auditID)
	rows, err := s.cfg.Findings.ListFindings(ctx, q)
	if err != nil {
		return nil, err
	}
	if len(rows) > MaxBulkFindings {
		return nil, FieldErrorf("filter", "the filter matches more than %d findings; narrow it", MaxBulkFindings)
	}
	return rows, nil
}
