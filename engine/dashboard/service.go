package dashboard

import (
	"cmp"
	"context"
	"errors"
	"slices"

	"github.com/fourd-dev/fourd/engine"
)

// Config holds what a Service needs. Reads is required; without
// Analytics every ranking answers unavailable. Catalog names the rules
// (their titles).
type Config struct {
	Reads     Reads
	Analytics Analytics
	Catalog   engine.RuleCatalog
}

// Service ranks a tenant's open findings for its dashboard. Each method
// checks the caller's tenant and scope itself; a nil Service answers
// unavailable.
type Service struct {
	cfg Config
}

// New returns a Service over cfg.
func New(cfg Config) (*Service, error) {
	if cfg.Reads == nil {
		return nil, errors.New("dashboard: Reads is required")
	}
	return &Service{cfg: cfg}, nil
}

// scope checks the caller and the query and returns the scope of the
// snapshot it reads; ok is false when the tenant has no completed audit
// yet (every ranking is then empty).
func (s *Service) scope(ctx context.Context, p engine.Principal, q *engine.DashboardQuery) (scope engine.ReportScope, ok bool, err error) {
	if err := p.Require(engine.ScopeFindingsRead); err != nil {
		return scope, false, err
	}
	if s == nil || s.cfg.Analytics == nil {
		return scope, false, engine.Errorf(engine.CodeUnavailable, "dashboard analytics are not configured on this server")
	}
	switch {
	case q.Limit == 0:
		q.Limit = engine.DefaultDashboardLimit
	case q.Limit < 0 || q.Limit > engine.MaxDashboardLimit:
		return scope, false, &engine.Error{Code: engine.CodeInvalidLimit, Field: "limit",
			Message: "a ranking holds from 1 to 100 entries (limit; first in GraphQL)"}
	}
	scope = engine.ReportScope{TenantID: p.TenantID}
	if q.Dimension != "" {
		if !slices.Contains(engine.Dimensions, q.Dimension) {
			return scope, false, engine.FieldErrorf("dimension", "unknown dimension %q", q.Dimension)
		}
		scope.Filters.Dimensions = []engine.Dimension{q.Dimension}
	}
	if q.AuditID != "" && !engine.ValidID(engine.PrefixAudit, q.AuditID) {
		return scope, false, engine.ErrNotFound("audit", q.AuditID)
	}
	if scope.AuditID, err = s.cfg.Reads.Snapshot(ctx, p.TenantID, q.AuditID); err != nil {
		if engine.IsNotFound(err) && q.AuditID == "" {
			return scope, false, nil
		}
		return scope, false, err
	}
	return scope, true, nil
}

// counts is the scope's open findings by severity, dimension, account and
// rule, with people's decisions applied and muted findings left out.
func (s *Service) counts(ctx context.Context, p engine.Principal, q *engine.DashboardQuery) ([]engine.ReportCount, error) {
	scope, ok, err := s.scope(ctx, p, q)
	if err != nil || !ok {
		return nil, err
	}
	counts, _, err := s.cfg.Reads.OpenCounts(ctx, &scope)
	return counts, err
}

// decided is scope with people's decisions and the mute selection set, for
// the analytic queries.
func (s *Service) decided(ctx context.Context, p engine.Principal, q *engine.DashboardQuery) (engine.ReportScope, bool, error) {
	scope, ok, err := s.scope(ctx, p, q)
	if err != nil || !ok {
		return scope, ok, err
	}
	return scope, true, s.cfg.Reads.Decide(ctx, &scope)
}

// TopRules ranks the rules (built-in and custom policies) by their open
// findings, most first; ties by highest severity, then rule id. Severity
// is the highest of the rule's open findings.
func (s *Service) TopRules(ctx context.Context, p engine.Principal, q engine.DashboardQuery) ([]engine.RuleRank, error) {
	counts, err := s.counts(ctx, p, &q)
	if err != nil {
		return nil, err
	}
	rules := map[string]*engine.RuleRank{}
	for _, c := range counts {
		engine.CountRule(rules, c.RuleID, c.Severity, c.Dimension, c.Count)
	}
	out := engine.TopN(rules, q.Limit, func(a, b *engine.RuleRank) int {
		return cmp.Or(cmp.Compare(b.Open, a.Open), cmp.Compare(b.Severity.Rank(), a.Severity.Rank()), cmp.Compare(a.RuleID, b.RuleID))
	})
	for i := range out {
		out[i].Title = out[i].RuleID
		if c := s.cfg.Catalog; c != nil {
			if r, ok := c.Rule(out[i].RuleID); ok {
				out[i].Title = r.Title
			}
		}
	}
	return out, nil
}

// TopResources ranks resources by their open findings weighted by
// severity (PostureWeights), heaviest first.
func (s *Service) TopResources(ctx context.Context, p engine.Principal, q engine.DashboardQuery) ([]engine.ResourceRank, error) {
	scope, ok, err := s.decided(ctx, p, &q)
	if err != nil || !ok {
		return []engine.ResourceRank{}, err
	}
	out, err := s.cfg.Analytics.TopResources(ctx, scope, q.Limit)
	if out == nil && err == nil {
		out = []engine.ResourceRank{}
	}
	return out, err
}

// RankAccounts ranks cloud accounts by their open critical and high
// findings together, most first; ties by critical, then all open findings,
// then account.
func (s *Service) RankAccounts(ctx context.Context, p engine.Principal, q engine.DashboardQuery) ([]engine.AccountRank, error) {
	counts, err := s.counts(ctx, p, &q)
	if err != nil {
		return nil, err
	}
	accounts := map[string]*engine.AccountRank{}
	for _, c := range counts {
		engine.CountAccount(accounts, c.Account, c.Severity, c.Count)
	}
	return engine.TopN(accounts, q.Limit, func(a, b *engine.AccountRank) int {
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
func (s *Service) MeanTimeToResolve(ctx context.Context, p engine.Principal, q engine.DashboardQuery) ([]engine.ResolutionTime, error) {
	scope, ok, err := s.decided(ctx, p, &q)
	if err != nil || !ok {
		return []engine.ResolutionTime{}, err
	}
	out, err := s.cfg.Analytics.ResolutionTimes(ctx, scope)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b engine.ResolutionTime) int { return cmp.Compare(b.Severity.Rank(), a.Severity.Rank()) })
	return out, nil
}
