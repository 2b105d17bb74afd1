package reporting

import (
	"cmp"
	"context"
	"slices"

	"github.com/fourd-dev/fourd/engine"
)

// passingSamplePerType is how many resources of each of the checks'
// types are explained for the sample: the first by id, some of which fail.
const passingSamplePerType = 10

// checkScopeResource is CheckExplanation.Scope of a check that reads the
// resource alone: the only checks a sample explains without reading the
// rest of the resource's account.
const checkScopeResource = "resource"

// passingEvidence explains a sample of the resources of rules' types and
// returns, per rule, the resources its check passed. Only checks that read
// the resource alone are sampled: a check joining facts of other resources
// of the account (or judging the whole account) would need them read for
// every sampled resource, which cost a 300k-resource tenant's report three
// times its time; those checks have no sample.
func (b *reportBuilder) passingEvidence(ctx context.Context, rules []string) (map[string][]engine.PassingResource, error) {
	out := map[string][]engine.PassingResource{}
	ex, catalog := b.svc.cfg.Explainer, b.svc.cfg.Catalog
	if ex == nil || catalog == nil || len(rules) == 0 {
		return out, nil
	}
	wanted := map[string]bool{}
	var types []string
	for _, r := range rules {
		info, ok := catalog.Rule(r)
		if !ok {
			continue
		}
		wanted[r] = true
		for _, t := range info.ResourceTypes {
			if !slices.Contains(types, t) {
				types = append(types, t)
			}
		}
	}
	if len(types) == 0 {
		return out, nil
	}
	slices.Sort(types)
	sample, err := b.svc.cfg.Analytics.SampleResourceIDs(ctx, b.scope.TenantID, types, passingSamplePerType)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, t := range types {
		ids = append(ids, sample[t]...)
	}
	rs, err := b.svc.cfg.Resources.GetResourcesPartial(ctx, b.scope.TenantID, ids, engine.AllResourceFields)
	if err != nil {
		return nil, err
	}
	now := b.svc.now().UTC()
	for _, res := range rs {
		for _, c := range ex.Explain(res, nil, now) {
			if c.Outcome != engine.CheckPassed || c.Scope != checkScopeResource || !wanted[c.RuleID] {
				continue
			}
			p := engine.PassingResource{RuleID: c.RuleID, ResourceID: res.ID, NativeID: res.NativeID, Name: res.Name, Type: res.Type,
				Account: res.Account, Region: res.Region, Evidence: c.Evidence, EvaluatedAt: now}
			if res.CapturedAt != nil {
				at := res.CapturedAt.UTC()
				p.CapturedAt = &at
			}
			if !res.LastSeenAt.IsZero() {
				at := res.LastSeenAt.UTC()
				p.ObservedAt = &at
			}
			out[c.RuleID] = append(out[c.RuleID], p)
		}
	}
	return out, nil
}

// controlPassing is a control's passing sample: the sampled passes of its
// rules, each resource once (its first rule's), at most
// MaxPassingResourcesPerControl, by resource id.
func controlPassing(rules []string, passing map[string][]engine.PassingResource) []engine.PassingResource {
	out := []engine.PassingResource{}
	seen := map[string]bool{}
	for _, r := range rules {
		for _, p := range passing[r] {
			if !seen[p.ResourceID] {
				seen[p.ResourceID] = true
				out = append(out, p)
			}
		}
	}
	slices.SortStableFunc(out, func(x, y engine.PassingResource) int { return cmp.Compare(x.ResourceID, y.ResourceID) })
	return out[:min(len(out), engine.MaxPassingResourcesPerControl)]
}
