package findings

import (
	"context"
	"slices"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// ListFindings returns a page of the tenant's findings, most severe first.
// Without an audit filter it reads the latest completed audit's snapshot; the
// cursor pins that snapshot, so paging stays consistent while a new audit
// lands.
//
// Snapshots never change and the people's decisions on findings come from a
// versioned cache (see readCache), so a finished page is kept and served
// again, with its cursor, for pageReuse (see pageCache); such a page has a
// Key.
func (s *Service) ListFindings(ctx context.Context, p engine.Principal, f engine.FindingFilter, pr engine.PageRequest) (engine.Page[engine.Finding], error) {
	if err := p.Require(engine.ScopeFindingsRead); err != nil {
		return engine.Page[engine.Finding]{}, err
	}
	limit, err := pr.PageSize()
	if err != nil {
		return engine.Page[engine.Finding]{}, err
	}
	// The cursor's scope (a hash of the filters) is needed only to read or
	// mint a cursor: not for a kept page asked for without one.
	asked := f // f.AuditID is set to the snapshot's below
	var after *engine.FindingKey
	if pr.Cursor != "" {
		pos := new(findingCursor)
		if err := s.cursors.Decode(pr.Cursor, p.TenantID, findingScope(asked), pos); err != nil {
			return engine.Page[engine.Finding]{}, err
		}
		f.AuditID, after = pos.AuditID, &pos.After
	} else {
		requested := f.AuditID
		if f.AuditID, err = s.snapshotFor(ctx, p.TenantID, requested); err != nil {
			if engine.IsNotFound(err) && requested == "" {
				return engine.Page[engine.Finding]{Items: []engine.Finding{}}, nil // no completed audit yet: nothing found
			}
			return engine.Page[engine.Finding]{}, err
		}
	}
	q := engine.FindingQuery{TenantID: p.TenantID, Filter: f, Limit: limit + 1, After: after}
	ov, err := s.cachedOverrides(ctx, p.TenantID)
	if err != nil {
		return engine.Page[engine.Finding]{}, err
	}
	now := s.now()
	var rkey string
	if ov.versioned && s.pages != nil {
		rkey = renderedKey(q, ov.version, asked.AuditID)
		if page, ok := s.pages.getRendered(rkey, now); ok {
			if !pr.Shared {
				page.Items = slices.Clone(page.Items) // the cached slice is shared
			}
			return page, nil
		}
	}
	return s.finishFindingPage(ctx, p, q, ov, pr.Shared, asked, now, rkey)
}

// finishFindingPage reads the page of q (from the rows cache or the store),
// applies the decisions, mints the next cursor and, when rkey is set, keeps
// the finished page. It is ListFindings' miss, apart so that the hit path
// has a small stack frame.
func (s *Service) finishFindingPage(ctx context.Context, p engine.Principal, q engine.FindingQuery, ov *overrideSet, shared bool,
	asked engine.FindingFilter, now time.Time, rkey string) (engine.Page[engine.Finding], error) {
	limit := q.Limit - 1
	q.ForceResolved, q.ForceOpen = ov.resolved, ov.open
	q.Mutes, q.MuteSet = s.muteSel(p.TenantID, ov, q.Filter.AuditID)
	q.OnlyIDs = ov.assignedTo(q.Filter.Assignee)
	key := pageKey(q)
	cached, hit := s.pages.get(key)
	if !hit {
		var err error
		if cached, err = s.cfg.Findings.ListFindings(ctx, q); err != nil {
			return engine.Page[engine.Finding]{}, err
		}
		s.pages.put(key, cached)
	}
	items := make([]engine.Finding, len(cached)) // the cached slice is shared
	for i, it := range cached {
		items[i] = decide(it, ov.byID, now)
	}
	if err := s.markMuted(ctx, p.TenantID, q, items); err != nil {
		return engine.Page[engine.Finding]{}, err
	}
	page := engine.Page[engine.Finding]{Items: items}
	if len(items) > limit {
		page.Items, page.HasMore = items[:limit], true
		last := page.Items[limit-1]
		page.NextCursor = s.cursors.Encode(p.TenantID, findingScope(asked), findingCursor{
			AuditID: q.Filter.AuditID, After: engine.FindingKey{SeverityRank: last.Severity.Rank(), ID: last.ID}})
	}
	if rkey != "" {
		kept := page
		if !shared {
			kept.Items = slices.Clone(page.Items)
		}
		page.Key = s.pages.putRendered(rkey, kept, now.Add(s.pageReuse())).Key
	}
	return page, nil
}

// pageReuse is how long a finished page (and the cursor it carries) is
// served again: a tenth of the cursor lifetime, at most a minute, so a
// cursor from a reused page is valid for at least nine tenths of
// Config.CursorTTL.
func (s *Service) pageReuse() time.Duration {
	return min(time.Minute, s.cfg.CursorTTL/10)
}

type findingCursor struct {
	AuditID string            `json:"a"`
	After   engine.FindingKey `json:"p"`
}

// findingScope is the scope of the findings list's cursors for the filters
// a caller chose.
func findingScope(asked engine.FindingFilter) string { return "findings|" + findingFingerprint(asked) }

// findingFingerprint binds a cursor to the filters a caller chose (the
// audit id included only when the caller chose one).
func findingFingerprint(f engine.FindingFilter) string {
	parts := []string{f.AuditID, string(f.Severity), string(f.Dimension), string(f.Status),
		f.ResourceID, f.RuleID, f.ResourceType, f.Account, f.Region}
	if rf := rowFilterFingerprint(f); rf != "" {
		parts = append(parts, rf) // absent otherwise: earlier cursors stay valid
	}
	return engine.Fingerprint(parts...)
}

// snapshotFor resolves which audit's snapshot to read: the requested one,
// which must be a completed audit of the tenant, or the latest completed.
func (s *Service) snapshotFor(ctx context.Context, tenantID, auditID string) (string, error) {
	if auditID == "" {
		return s.latestSnapshot(ctx, tenantID)
	}
	a, err := s.cfg.Audits.GetAudit(ctx, tenantID, auditID)
	if err != nil {
		return "", err
	}
	if a.Status != engine.AuditCompleted {
		return "", engine.Errorf(engine.CodeConflict, "audit %s is %s; findings are readable once it completes", a.ID, a.Status)
	}
	return a.ID, nil
}

// GetFinding returns one finding as of the latest completed audit.
func (s *Service) GetFinding(ctx context.Context, p engine.Principal, id string) (engine.Finding, error) {
	if err := p.Require(engine.ScopeFindingsRead); err != nil {
		return engine.Finding{}, err
	}
	if !engine.ValidID(engine.PrefixFinding, id) {
		return engine.Finding{}, engine.ErrNotFound("finding", id)
	}
	auditID, err := s.snapshotFor(ctx, p.TenantID, "")
	if err != nil {
		if engine.IsNotFound(err) {
			return engine.Finding{}, engine.ErrNotFound("finding", id)
		}
		return engine.Finding{}, err
	}
	f, err := s.cfg.Findings.GetFinding(ctx, p.TenantID, auditID, id)
	if err != nil {
		return engine.Finding{}, err
	}
	ov, err := s.cachedOverrides(ctx, p.TenantID)
	if err != nil {
		return engine.Finding{}, err
	}
	one := []engine.Finding{decide(f, ov.byID, s.now())}
	q := engine.FindingQuery{TenantID: p.TenantID, Filter: engine.FindingFilter{AuditID: auditID}}
	q.Mutes, q.MuteSet = s.muteSel(p.TenantID, ov, auditID)
	if err := s.markMuted(ctx, p.TenantID, q, one); err != nil {
		return engine.Finding{}, err
	}
	return one[0], nil
}

// SummarizeFindings counts the findings matching f grouped by the given
// fields (none: just the total), from the same snapshot ListFindings reads.
func (s *Service) SummarizeFindings(ctx context.Context, p engine.Principal, f engine.FindingFilter, groupBy []engine.GroupBy) (engine.FindingSummary, error) {
	if err := p.Require(engine.ScopeFindingsRead); err != nil {
		return engine.FindingSummary{}, err
	}
	seen := map[engine.GroupBy]bool{}
	for _, g := range groupBy {
		if !slices.Contains(engine.GroupBys, g) {
			return engine.FindingSummary{}, engine.ParseGroupByError(string(g))
		}
		if seen[g] {
			return engine.FindingSummary{}, engine.FieldErrorf("group_by", "group_by names %s twice", g)
		}
		seen[g] = true
	}
	sum := engine.FindingSummary{GroupBy: groupBy, Groups: []engine.FindingCount{}}
	if sum.GroupBy == nil {
		sum.GroupBy = []engine.GroupBy{}
	}
	requested := f.AuditID
	var err error
	if f.AuditID, err = s.snapshotFor(ctx, p.TenantID, requested); err != nil {
		if engine.IsNotFound(err) && requested == "" {
			return sum, nil
		}
		return engine.FindingSummary{}, err
	}
	sum.AuditID = f.AuditID
	var groups []engine.FindingCount
	if f.RowFilters() || slices.Contains(groupBy, engine.GroupByAge) {
		groups, err = s.countRows(ctx, p.TenantID, f, groupBy)
	} else {
		groups, err = s.countSnapshot(ctx, p.TenantID, f, groupBy)
	}
	if err != nil {
		return engine.FindingSummary{}, err
	}
	for _, g := range groups {
		sum.Total += g.Count
	}
	if len(groupBy) > 0 && groups != nil {
		sum.Groups = groups
	}
	return sum, nil
}

// countSnapshot counts from the snapshot's precomputed counts, then moves
// the findings people decided on and the muted ones between the groups.
func (s *Service) countSnapshot(ctx context.Context, tenantID string, f engine.FindingFilter, groupBy []engine.GroupBy) ([]engine.FindingCount, error) {
	var groups []engine.FindingCount
	var err error
	if f.Status != engine.StatusMuted { // the snapshot's counts know no muted finding
		if groups, err = s.cfg.Findings.CountFindings(ctx, engine.FindingCountQuery{TenantID: tenantID, Filter: f, GroupBy: groupBy}); err != nil {
			return nil, err
		}
		if groups, err = s.adjustCounts(ctx, tenantID, f, groupBy, groups); err != nil {
			return nil, err
		}
	}
	return s.adjustMutedCounts(ctx, tenantID, f, groupBy, groups)
}

// countRows counts the snapshot's rows matching f, for the filters and
// groupings the precomputed counts cannot answer: the store applies the
// decisions and the mutes as a page read does.
func (s *Service) countRows(ctx context.Context, tenantID string, f engine.FindingFilter, groupBy []engine.GroupBy) ([]engine.FindingCount, error) {
	set, err := s.cachedOverrides(ctx, tenantID)
	if err != nil {
		return nil, err
	}
	q := engine.FindingCountQuery{TenantID: tenantID, Filter: f, GroupBy: groupBy, Rows: true,
		ForceResolved: set.resolved, ForceOpen: set.open, OnlyIDs: set.assignedTo(f.Assignee), Now: s.now()}
	q.Mutes, q.MuteSet = s.muteSel(tenantID, set, f.AuditID)
	return s.cfg.Findings.CountFindings(ctx, q)
}
