package findings

import (
	"context"

	"github.com/fourd-dev/fourd/engine"
)

// explainPage is how many resources of the account one read fetches.
const explainPage = 1000

// ExplainResource explains the built-in checks on one resource of p's
// tenant (see ResourceIDOf for a native id). It needs the resources read
// scope; an unknown id, or a resource of another tenant, is not_found.
func (s *Service) ExplainResource(ctx context.Context, p engine.Principal, id string) (engine.ResourceExplanation, error) {
	if err := p.Require(engine.ScopeResourcesRead); err != nil {
		return engine.ResourceExplanation{}, err
	}
	if !engine.ValidID(engine.PrefixResource, id) {
		return engine.ResourceExplanation{}, engine.ErrNotFound("resource", id)
	}
	ex, ok := s.cfg.Evaluators.(engine.Explainer)
	if !ok {
		return engine.ResourceExplanation{}, engine.Errorf(engine.CodeUnavailable, "the audit engine is not configured on this server")
	}
	res, err := s.cfg.Resources.GetResource(ctx, p.TenantID, id)
	if err != nil {
		return engine.ResourceExplanation{}, err
	}
	types, all := ex.ExplainNeeds(res.Type)
	var filters []engine.ResourceFilter
	switch {
	case res.Account == "":
	case all:
		filters = append(filters, engine.ResourceFilter{Provider: res.Provider, Account: res.Account})
	default:
		for _, t := range types {
			filters = append(filters, engine.ResourceFilter{Provider: res.Provider, Account: res.Account, Type: t})
		}
	}
	var account []engine.Resource
	for _, f := range filters {
		after := ""
		for {
			page, err := s.cfg.Resources.ListResources(ctx, engine.ResourceQuery{TenantID: p.TenantID, Filter: f, AfterID: after, Limit: explainPage})
			if err != nil {
				return engine.ResourceExplanation{}, err
			}
			account = append(account, page...)
			if len(page) < explainPage {
				break
			}
			after = page[len(page)-1].ID
		}
	}
	now := s.now().UTC()
	out := engine.ResourceExplanation{Resource: res, EvaluatedAt: now, Checks: ex.Explain(res, account, now)}
	if out.Checks == nil {
		out.Checks = []engine.CheckExplanation{}
	}
	for _, c := range out.Checks {
		switch c.Outcome {
		case engine.CheckPassed:
			out.Passed++
		case engine.CheckFailed:
			out.Failed++
		case engine.CheckNotEvaluated:
			out.NotEvaluated++
		}
	}
	return out, nil
}
