package engine

import (
	"cmp"
	"context"
	"slices"
)

// Dashboard rankings: the first questions a security dashboard asks of
// the latest snapshot (or a named one), each one engine method over the
// analytic store reports read (ReportAnalytics), with the decisions people
// made since the snapshot was written and the active mute rules applied as
// in the findings API: a muted finding is not an open one.

// Bounds of a dashboard ranking's length.
const (
	DefaultDashboardLimit = 10
	MaxDashboardLimit     = 100
)

// DashboardQuery selects the findings a dashboard ranking reads.
type DashboardQuery struct {
	// AuditID names a completed audit's snapshot; empty means the latest.
	AuditID string
	// Dimension, when set, keeps that dimension's findings only.
	Dimension Dimension
	// Limit is how many entries a ranking returns: 0 means
	// DefaultDashboardLimit, else 1–MaxDashboardLimit (invalid_limit).
	Limit int
}

// ResolutionTime is how long the findings of one severity took to resolve,
// from first seen to resolved, over the resolved findings a snapshot
// carries.
type ResolutionTime struct {
	Severity    Severity `json:"severity"`
	Resolved    int64    `json:"resolved"`
	MeanSeconds float64  `json:"mean_seconds"`
}

// dashboardScope checks the caller and the query and returns the scope of
// the snapshot it reads; ok is false when the tenant has no completed
// audit yet (every ranking is then empty).
func (s *Service) dashboardScope(ctx context.Context, p Principal, q *DashboardQuery) (scope ReportScope, ov map[string]FindingOverride, ok bool, err error) {
	if err := p.Require(ScopeFindingsRead); err != nil {
		return scope, nil, false, err
	}
	if s.cfg.Reporting.Analytics == nil {
		return scope, nil, false, Errorf(CodeUnavailable, "dashboard analytics are not configured on this server")
	}
	switch {
	case q.Limit == 0:
		q.Limit = DefaultDashboardLimit
	case q.Limit < 0 || q.Limit > MaxDashboardLimit:
		return scope, nil, false, &Error{Code: CodeInvalidLimit, Field: "limit",
			Message: "a ranking holds from 1 to 100 entries (limit; first in GraphQL)"}
	}
	scope = ReportScope{TenantID: p.TenantID}
	if q.Dimension != "" {
		if !slices.Contains(Dimensions, q.Dimension) {
			return scope, nil, false, FieldErrorf("dimension", "unknown dimension %q", q.Dimension)
		}
		scope.Filters.Dimensions = []Dimension{q.Dimension}
	}
	if q.AuditID != "" && !ValidID(PrefixAudit, q.AuditID) {
		return scope, nil, false, ErrNotFound("audit", q.AuditID)
	}
	if scope.AuditID, err = s.snapshotFor(ctx, p.TenantID, q.AuditID); err != nil {
		if IsNotFound(err) && q.AuditID == "" {
			return scope, nil, false, nil
		}
		return scope, nil, false, err
	}
	if ov, err = s.overrides(ctx, p.TenantID); err != nil {
		return scope, nil, false, err
	}
	scope.ForceResolved, scope.ForceOpen = forcedStatuses(ov)
	set, err := s.cachedOverrides(ctx, p.TenantID)
	if err != nil {
		return scope, nil, false, err
	}
	scope.Mutes, scope.MuteSet = s.muteSel(p.TenantID, set, scope.AuditID) // muted findings are not open
	return scope, ov, true, nil
}

// dashboardCounts is the scope's open findings by severity, dimension,
// account and rule, with people's decisions applied.
func (s *Service) dashboardCounts(ctx context.Context, p Principal, q *DashboardQuery) ([]ReportCount, error) {
	scope, ov, ok, err := s.dashboardScope(ctx, p, q)
	if err != nil || !ok {
		return nil, err
	}
	counts, err := s.cfg.Reporting.Analytics.OpenCounts(ctx, scope)
	if err != nil {
		return nil, err
	}
	if counts, err = s.adjustReportCounts(ctx, scope, ov, counts); err != nil || len(scope.Mutes) == 0 {
		return counts, err
	}
	// The muted findings leave the open counts as in reports (applyMutes).
	set, err := s.cachedOverrides(ctx, p.TenantID)
	if err != nil {
		return nil, err
	}
	muted, err := s.countMuted(ctx, set, FindingCountQuery{TenantID: p.TenantID, Filter: FindingFilter{AuditID: scope.AuditID},
		GroupBy: []GroupBy{GroupBySeverity, GroupByDimension, GroupByAccount, GroupByRule}, MuteSet: scope.MuteSet}, scope.Mutes)
	if err != nil {
		return nil, err
	}
	counts, _ = subtractMuted(counts, muted, scope.Filters)
	return counts, nil
}

// TopRules ranks the rules (built-in and custom policies) by their open
// findings, most first; ties by highest severity, then rule id. Severity
// is the highest of the rule's open findings.
func (s *Service) TopRules(ctx context.Context, p Principal, q DashboardQuery) ([]RuleRank, error) {
	counts, err := s.dashboardCounts(ctx, p, &q)
	if err != nil {
		return nil, err
	}
	rules := map[string]*RuleRank{}
	for _, c := range counts {
		r := rules[c.RuleID]
		if r == nil {
			r = &RuleRank{RuleID: c.RuleID, Severity: c.Severity, Dimension: c.Dimension}
			rules[c.RuleID] = r
		}
		r.Open += c.Count
		if c.Severity.Rank() > r.Severity.Rank() {
			r.Severity = c.Severity
		}
	}
	out := topN(rules, q.Limit, func(a, b *RuleRank) int {
		return cmp.Or(cmp.Compare(b.Open, a.Open), cmp.Compare(b.Severity.Rank(), a.Severity.Rank()), cmp.Compare(a.RuleID, b.RuleID))
	})
	for i := range out {
		out[i].Title = out[i].RuleID
		if c := s.cfg.Reporting.Catalog; c != nil {
			if r, ok := c.Rule(out[i].RuleID); ok {
				out[i].Title = r.Title
			}
		}
	}
	return out, nil
}

// TopResources ranks resources by their open findings weighted by
// severity (PostureWeights), heaviest first.
func (s *Service) TopResources(ctx context.Context, p Principal, q DashboardQuery) ([]ResourceRank, error) {
	scope, _, ok, err := s.dashboardScope(ctx, p, &q)
	if err != nil || !ok {
		return []ResourceRank{}, err
	}
	out, err := s.cfg.Reporting.Analytics.TopResources(ctx, scope, q.Limit)
	if out == nil && err == nil {
		out = []ResourceRank{}
	}
	return out, err
}

// RankAccounts ranks cloud accounts by their open critical and high
// findings together, most first; ties by critical, then all open findings,
// then account.
func (s *Service) RankAccounts(ctx context.Context, p Principal, q DashboardQuery) ([]AccountRank, error) {
	counts, err := s.dashboardCounts(ctx, p, &q)
	if err != nil {
		return nil, err
	}
	accounts := map[string]*AccountRank{}
	for _, c := range counts {
		countAccount(accounts, c.Account, c.Severity, c.Count)
	}
	return topN(accounts, q.Limit, func(a, b *AccountRank) int {
		return cmp.Or(cmp.Compare(b.Critical+b.High, a.Critical+a.High), cmp.Compare(b.Critical, a.Critical),
			cmp.Compare(b.Open, a.Open), cmp.Compare(a.Account, b.Account))
	}), nil
}

// MeanTimeToResolve is, per severity (most severe first), how many of the
// snapshot's findings are resolved and their mean time from first seen to
// resolved. A finding reopened since counts no more; one accepted as a
// risk after the snapshot was written counts from the next audit, which
// records when it was resolved. Severities with no resolved finding are
// left out. q.Limit is not used.
func (s *Service) MeanTimeToResolve(ctx context.Context, p Principal, q DashboardQuery) ([]ResolutionTime, error) {
	scope, _, ok, err := s.dashboardScope(ctx, p, &q)
	if err != nil || !ok {
		return []ResolutionTime{}, err
	}
	out, err := s.cfg.Reporting.Analytics.ResolutionTimes(ctx, scope)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b ResolutionTime) int { return cmp.Compare(b.Severity.Rank(), a.Severity.Rank()) })
	return out, nil
}
