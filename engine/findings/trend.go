package findings

import (
	"context"
	"slices"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// Bounds of a finding trend.
const (
	// MaxTrendPoints is how many snapshots a trend returns at most; a range
	// with more completed audits is sampled evenly, keeping the newest.
	MaxTrendPoints = 100
	// maxTrendScan bounds how many audits a trend looks at to find the
	// completed ones in its range.
	maxTrendScan = 5000
	// trendLookback is how long before From an audit may have been created
	// and still complete inside the range.
	trendLookback = 24 * time.Hour
)

// FindingTrend returns one point per completed audit between q.From and
// q.To, oldest first, at most MaxTrendPoints. The counts come from the
// analytics store in one query over all the snapshots.
func (s *Service) FindingTrend(ctx context.Context, p engine.Principal, q engine.TrendQuery) ([]engine.TrendPoint, error) {
	if err := p.Require(engine.ScopeFindingsRead); err != nil {
		return nil, err
	}
	switch {
	case s.cfg.Trends == nil:
		return nil, engine.Errorf(engine.CodeUnavailable, "finding trends are not configured on this server")
	case q.From.IsZero() || q.To.IsZero():
		return nil, engine.FieldErrorf("from", "from and to are required")
	case q.To.Before(q.From):
		return nil, engine.FieldErrorf("to", "to must not be before from")
	case q.Filter.AuditID != "":
		return nil, engine.FieldErrorf("audit_id", "a trend spans audits; it takes no audit_id filter")
	case q.Filter.RowFilters():
		return nil, engine.FieldErrorf("filter", "a trend reads each audit's precomputed counts: it takes no tag, compliance, assignee, q or first-seen filter")
	}
	if err := validGroupBy(q.GroupBy); err != nil {
		return nil, err
	}
	if slices.Contains(q.GroupBy, engine.GroupByAge) {
		return nil, engine.FieldErrorf("group_by", "a trend cannot be grouped by age (ages are measured to now, not to each audit)")
	}
	audits, err := s.completedBetween(ctx, p.TenantID, q.From, q.To)
	if err != nil {
		return nil, err
	}
	points := make([]engine.TrendPoint, len(audits))
	ids := make([]string, len(audits))
	for i, a := range audits {
		ids[i] = a.ID
		points[i] = engine.TrendPoint{AuditID: a.ID, CompletedAt: a.CompletedAt.UTC(), Groups: []engine.FindingCount{}}
	}
	if len(ids) == 0 {
		return points, nil
	}
	counts := map[string][]engine.FindingCount{}
	if q.Filter.Status != engine.StatusMuted { // the snapshots' counts know no muted finding
		if counts, err = s.cfg.Trends.CountsByAudit(ctx, p.TenantID, ids, q.Filter, q.GroupBy); err != nil {
			return nil, err
		}
	}
	if err := s.muteTrend(ctx, p.TenantID, ids, q, counts); err != nil {
		return nil, err
	}
	for i := range points {
		for _, g := range counts[points[i].AuditID] {
			points[i].Total += g.Count
		}
		if len(q.GroupBy) > 0 && counts[points[i].AuditID] != nil {
			points[i].Groups = counts[points[i].AuditID]
		}
	}
	return points, nil
}

// muteTrend moves, in each snapshot's counts, the findings that the active
// mute rules applied to that snapshot match out of the open ones, as
// FindingSummary does for one snapshot. People's decisions made since are
// not applied to a trend, so none is left out of the muted counts.
func (s *Service) muteTrend(ctx context.Context, tenantID string, auditIDs []string, q engine.TrendQuery, counts map[string][]engine.FindingCount) error {
	if q.Filter.Status == engine.StatusResolved || s.cfg.MuteMatches == nil ||
		(q.Filter.Status == "" && !slices.Contains(q.GroupBy, engine.GroupByStatus)) {
		return nil
	}
	set, err := s.cachedOverrides(ctx, tenantID)
	if err != nil {
		return err
	}
	for _, id := range auditIDs {
		refs := set.muteRefs(id)
		if len(refs) == 0 {
			continue
		}
		f := q.Filter
		f.AuditID = id
		// The snapshot's built set when there is one (the latest, usually);
		// older snapshots' counts come from the matches.
		muted, err := s.cfg.MuteMatches.CountMuted(ctx, engine.FindingCountQuery{TenantID: tenantID, Filter: f, GroupBy: q.GroupBy,
			MuteSet: set.muteSets[id]}, refs, nil)
		if err != nil {
			return err
		}
		if groups := mergeMuted(q.Filter.Status, q.GroupBy, counts[id], muted); len(groups) > 0 {
			counts[id] = groups
		} else {
			delete(counts, id)
		}
	}
	return nil
}

// completedBetween returns the tenant's audits completed in [from, to],
// oldest first, sampled down to MaxTrendPoints.
func (s *Service) completedBetween(ctx context.Context, tenantID string, from, to time.Time) ([]engine.Audit, error) {
	var out []engine.Audit
	before, scanned := "", 0
	for scanned < maxTrendScan {
		page, err := s.cfg.Audits.ListAudits(ctx, engine.AuditQuery{TenantID: tenantID, Status: engine.AuditCompleted, BeforeID: before, Limit: engine.MaxLimit})
		if err != nil {
			return nil, err
		}
		scanned += len(page)
		done := len(page) < engine.MaxLimit
		for _, a := range page {
			if a.CreatedAt.Before(from.Add(-trendLookback)) {
				done = true
				break
			}
			if a.CompletedAt != nil && !a.CompletedAt.Before(from) && !a.CompletedAt.After(to) {
				out = append(out, a)
			}
		}
		if done || len(page) == 0 {
			break
		}
		before = page[len(page)-1].ID
	}
	slices.SortFunc(out, func(a, b engine.Audit) int { return a.CompletedAt.Compare(*b.CompletedAt) })
	return sampleEvenly(out, MaxTrendPoints), nil
}

// sampleEvenly keeps at most n items spread evenly over xs, always keeping
// the last one.
func sampleEvenly[T any](xs []T, n int) []T {
	if len(xs) <= n {
		return xs
	}
	out := make([]T, n)
	for i := range n {
		out[n-1-i] = xs[len(xs)-1-i*(len(xs)-1)/(n-1)]
	}
	return out
}

// validGroupBy checks a list of group-by fields: known, none twice.
func validGroupBy(groupBy []engine.GroupBy) error {
	seen := map[engine.GroupBy]bool{}
	for _, g := range groupBy {
		if !slices.Contains(engine.GroupBys, g) {
			return engine.ParseGroupByError(string(g))
		}
		if seen[g] {
			return engine.FieldErrorf("group_by", "group_by names %s twice", g)
		}
		seen[g] = true
	}
	return nil
}
