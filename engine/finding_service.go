package engine

import (
	"context"
	"slices"
	"strings"
	"time"
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
func (s *Service) ListFindings(ctx context.Context, p Principal, f FindingFilter, pr PageRequest) (Page[Finding], error) {
	if err := p.Require(ScopeFindingsRead); err != nil {
		return Page[Finding]{}, err
	}
	limit, err := pr.limit()
	if err != nil {
		return Page[Finding]{}, err
	}
	// The cursor's scope (a hash of the filters) is needed only to read or
	// mint a cursor: not for a kept page asked for without one.
	asked := f // f.AuditID is set to the snapshot's below
	var after *FindingKey
	if pr.Cursor != "" {
		pos := new(findingCursor)
		if err := s.cursors.decode(pr.Cursor, p.TenantID, findingScope(asked), pos); err != nil {
			return Page[Finding]{}, err
		}
		f.AuditID, after = pos.AuditID, &pos.After
	} else {
		requested := f.AuditID
		if f.AuditID, err = s.snapshotFor(ctx, p.TenantID, requested); err != nil {
			if IsNotFound(err) && requested == "" {
				return Page[Finding]{Items: []Finding{}}, nil // no completed audit yet: nothing found
			}
			return Page[Finding]{}, err
		}
	}
	q := FindingQuery{TenantID: p.TenantID, Filter: f, Limit: limit + 1, After: after}
	ov, err := s.cachedOverrides(ctx, p.TenantID)
	if err != nil {
		return Page[Finding]{}, err
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
func (s *Service) finishFindingPage(ctx context.Context, p Principal, q FindingQuery, ov *overrideSet, shared bool,
	asked FindingFilter, now time.Time, rkey string) (Page[Finding], error) {
	limit := q.Limit - 1
	q.ForceResolved, q.ForceOpen = ov.resolved, ov.open
	q.Mutes, q.MuteSet = s.muteSel(p.TenantID, ov, q.Filter.AuditID)
	q.OnlyIDs = ov.assignedTo(q.Filter.Assignee)
	key := pageKey(q)
	cached, hit := s.pages.get(key)
	if !hit {
		var err error
		if cached, err = s.cfg.Findings.ListFindings(ctx, q); err != nil {
			return Page[Finding]{}, err
		}
		s.pages.put(key, cached)
	}
	items := make([]Finding, len(cached)) // the cached slice is shared
	for i, it := range cached {
		items[i] = decide(it, ov.byID, now)
	}
	if err := s.markMuted(ctx, p.TenantID, q, items); err != nil {
		return Page[Finding]{}, err
	}
	page := Page[Finding]{Items: items}
	if len(items) > limit {
		page.Items, page.HasMore = items[:limit], true
		last := page.Items[limit-1]
		page.NextCursor = s.cursors.encode(p.TenantID, findingScope(asked), findingCursor{
			AuditID: q.Filter.AuditID, After: FindingKey{SeverityRank: last.Severity.Rank(), ID: last.ID}})
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
	AuditID string     `json:"a"`
	After   FindingKey `json:"p"`
}

// findingScope is the scope of the findings list's cursors for the filters
// a caller chose.
func findingScope(asked FindingFilter) string { return "findings|" + findingFingerprint(asked) }

// findingFingerprint binds a cursor to the filters a caller chose (the
// audit id included only when the caller chose one).
func findingFingerprint(f FindingFilter) string {
	parts := []string{f.AuditID, string(f.Severity), string(f.Dimension), string(f.Status),
		f.ResourceID, f.RuleID, f.ResourceType, f.Account, f.Region}
	if rf := rowFilterFingerprint(f); rf != "" {
		parts = append(parts, rf) // absent otherwise: earlier cursors stay valid
	}
	return fingerprint(parts...)
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
	if a.Status != AuditCompleted {
		return "", Errorf(CodeConflict, "audit %s is %s; findings are readable once it completes", a.ID, a.Status)
	}
	return a.ID, nil
}

// GetFinding returns one finding as of the latest completed audit.
func (s *Service) GetFinding(ctx context.Context, p Principal, id string) (Finding, error) {
	if err := p.Require(ScopeFindingsRead); err != nil {
		return Finding{}, err
	}
	if !ValidID(PrefixFinding, id) {
		return Finding{}, ErrNotFound("finding", id)
	}
	auditID, err := s.snapshotFor(ctx, p.TenantID, "")
	if err != nil {
		if IsNotFound(err) {
			return Finding{}, ErrNotFound("finding", id)
		}
		return Finding{}, err
	}
	f, err := s.cfg.Findings.GetFinding(ctx, p.TenantID, auditID, id)
	if err != nil {
		return Finding{}, err
	}
	ov, err := s.cachedOverrides(ctx, p.TenantID)
	if err != nil {
		return Finding{}, err
	}
	one := []Finding{decide(f, ov.byID, s.now())}
	q := FindingQuery{TenantID: p.TenantID, Filter: FindingFilter{AuditID: auditID}}
	q.Mutes, q.MuteSet = s.muteSel(p.TenantID, ov, auditID)
	if err := s.markMuted(ctx, p.TenantID, q, one); err != nil {
		return Finding{}, err
	}
	return one[0], nil
}

// SummarizeFindings counts the findings matching f grouped by the given
// fields (none: just the total), from the same snapshot ListFindings reads.
func (s *Service) SummarizeFindings(ctx context.Context, p Principal, f FindingFilter, groupBy []GroupBy) (FindingSummary, error) {
	if err := p.Require(ScopeFindingsRead); err != nil {
		return FindingSummary{}, err
	}
	seen := map[GroupBy]bool{}
	for _, g := range groupBy {
		if !slices.Contains(GroupBys, g) {
			return FindingSummary{}, ParseGroupByError(string(g))
		}
		if seen[g] {
			return FindingSummary{}, FieldErrorf("group_by", "group_by names %s twice", g)
		}
		seen[g] = true
	}
	sum := FindingSummary{GroupBy: groupBy, Groups: []FindingCount{}}
	if sum.GroupBy == nil {
		sum.GroupBy = []GroupBy{}
	}
	requested := f.AuditID
	var err error
	if f.AuditID, err = s.snapshotFor(ctx, p.TenantID, requested); err != nil {
		if IsNotFound(err) && requested == "" {
			return sum, nil
		}
		return FindingSummary{}, err
	}
	sum.AuditID = f.AuditID
	var groups []FindingCount
	if f.RowFilters() || slices.Contains(groupBy, GroupByAge) {
		groups, err = s.countRows(ctx, p.TenantID, f, groupBy)
	} else {
		groups, err = s.countSnapshot(ctx, p.TenantID, f, groupBy)
	}
	if err != nil {
		return FindingSummary{}, err
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
func (s *Service) countSnapshot(ctx context.Context, tenantID string, f FindingFilter, groupBy []GroupBy) ([]FindingCount, error) {
	var groups []FindingCount
	var err error
	if f.Status != StatusMuted { // the snapshot's counts know no muted finding
		if groups, err = s.cfg.Findings.CountFindings(ctx, FindingCountQuery{TenantID: tenantID, Filter: f, GroupBy: groupBy}); err != nil {
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
func (s *Service) countRows(ctx context.Context, tenantID string, f FindingFilter, groupBy []GroupBy) ([]FindingCount, error) {
	set, err := s.cachedOverrides(ctx, tenantID)
	if err != nil {
		return nil, err
	}
	q := FindingCountQuery{TenantID: tenantID, Filter: f, GroupBy: groupBy, Rows: true,
		ForceResolved: set.resolved, ForceOpen: set.open, OnlyIDs: set.assignedTo(f.Assignee), Now: s.now()}
	q.Mutes, q.MuteSet = s.muteSel(tenantID, set, f.AuditID)
	return s.cfg.Findings.CountFindings(ctx, q)
}

// ParseGroupBy validates a comma-separated list of group-by fields.
func ParseGroupBy(s string) ([]GroupBy, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []GroupBy
	for _, part := range strings.Split(s, ",") {
		g := GroupBy(strings.TrimSpace(part))
		if !slices.Contains(GroupBys, g) {
			return nil, ParseGroupByError(part)
		}
		out = append(out, g)
	}
	return out, nil
}

// ParseGroupByError is the validation error for an unknown group-by field.
func ParseGroupByError(v string) error {
	names := make([]string, len(GroupBys))
	for i, g := range GroupBys {
		names[i] = string(g)
	}
	return FieldErrorf("group_by", "group_by must be a comma-separated list of %s; got %s", strings.Join(names, ", "), quote(v))
}
