package engine

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"time"
)

// Passing evidence: an auditor accepts a control as passed on evidence of
// passing too, so the compliance evidence lists, per control, a bounded
// sample of resources its checks passed with what each check read. The
// snapshot keeps failures only, so the sample is explained (ExplainResource's
// checks, those that read the resource alone) on the inventory held when
// the report is built.

// MaxPassingResourcesPerControl bounds the passing resources a control
// lists; ResourcesPassing counts them all and PassingOmitted the rest.
const MaxPassingResourcesPerControl = 5

// passingSamplePerType is how many resources of each of the checks'
// types are explained for the sample: the first by id, some of which fail.
const passingSamplePerType = 10

// checkScopeResource is CheckExplanation.Scope of a check that reads the
// resource alone: the only checks a sample explains without reading the
// rest of the resource's account.
const checkScopeResource = "resource"

// PassingResource is a resource a check passed, with what the check read.
type PassingResource struct {
	RuleID     string `json:"rule_id"`
	ResourceID string `json:"resource_id"`
	NativeID   string `json:"native_id"` // the ARN or the provider's id
	Name       string `json:"name"`
	Type       string `json:"type"`
	Account    string `json:"account"`
	Region     string `json:"region"`
	// Evidence is what the check read: the attribute values it judged.
	Evidence json.RawMessage `json:"evidence"`
	// EvaluatedAt is when the check ran on the resource (the report's
	// build, on the inventory then held).
	EvaluatedAt time.Time `json:"evaluated_at"`
	// CapturedAt and ObservedAt are as in AffectedResource: when the
	// source captured the configuration read, when known, and when fourd
	// last imported it.
	CapturedAt *time.Time `json:"captured_at,omitempty"`
	ObservedAt *time.Time `json:"observed_at,omitempty"`
}

// passingEvidence explains a sample of the resources of rules' types and
// returns, per rule, the resources its check passed. Only checks that read
// the resource alone are sampled: a check joining facts of other resources
// of the account (or judging the whole account) would need them read for
// every sampled resource, which cost a 300k-resource tenant's report three
// times its time; those checks have no sample.
func (b *reportBuilder) passingEvidence(ctx context.Context, rules []string) (map[string][]PassingResource, error) {
	out := map[string][]PassingResource{}
	ex, ok := b.svc.cfg.Evaluators.(Explainer)
	catalog := b.svc.cfg.Reporting.Catalog
	if !ok || catalog == nil || len(rules) == 0 {
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
	sample, err := b.svc.cfg.Reporting.Analytics.SampleResourceIDs(ctx, b.scope.TenantID, types, passingSamplePerType)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, t := range types {
		ids = append(ids, sample[t]...)
	}
	rs, err := b.svc.cfg.Resources.GetResourcesPartial(ctx, b.scope.TenantID, ids, AllResourceFields)
	if err != nil {
		return nil, err
	}
	now := b.svc.now().UTC()
	for _, res := range rs {
		for _, c := range ex.Explain(res, nil, now) {
			if c.Outcome != CheckPassed || c.Scope != checkScopeResource || !wanted[c.RuleID] {
				continue
			}
			p := PassingResource{RuleID: c.RuleID, ResourceID: res.ID, NativeID: res.NativeID, Name: res.Name, Type: res.Type,
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
func controlPassing(rules []string, passing map[string][]PassingResource) []PassingResource {
	out := []PassingResource{}
	seen := map[string]bool{}
	for _, r := range rules {
		for _, p := range passing[r] {
			if !seen[p.ResourceID] {
				seen[p.ResourceID] = true
				out = append(out, p)
			}
		}
	}
	slices.SortStableFunc(out, func(x, y PassingResource) int { return cmp.Compare(x.ResourceID, y.ResourceID) })
	return out[:min(len(out), MaxPassingResourcesPerControl)]
}

// passingCount counts, over a control's rules, the resources each judged
// and passed in the audit (rulePassing; a resource passing two rules
// counts twice, as failing resources do).
func (f postureFacts) passingCount(rules []string) int64 {
	var n int64
	for _, r := range rules {
		n += f.rulePassing(r)
	}
	return n
}
