package findings

import (
	"context"
	"iter"
	"slices"

	"github.com/fourd-dev/fourd/engine"
)

// applyPolicyInput sets the given fields of in on p.
func applyPolicyInput(in engine.PolicyInput, p engine.Policy) engine.Policy {
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	set(&p.Name, in.Name)
	set(&p.Description, in.Description)
	set(&p.Expression, in.Expression)
	set(&p.Title, in.Title)
	set(&p.Remediation, in.Remediation)
	if in.Effect != nil {
		p.Effect = *in.Effect
	}
	if in.Dimension != nil {
		p.Dimension = *in.Dimension
	}
	if in.Severity != nil {
		p.Severity = *in.Severity
	}
	if in.ResourceTypes != nil {
		p.ResourceTypes = slices.Clone(*in.ResourceTypes)
	}
	if in.Enabled != nil {
		p.Enabled = *in.Enabled
	}
	if p.ResourceTypes == nil {
		p.ResourceTypes = []string{}
	}
	return p
}

func (s *Service) policiesAvailable() error {
	if s.cfg.Evaluators == nil {
		return engine.Errorf(engine.CodeUnavailable, "custom policies are not configured on this server")
	}
	return nil
}

// CreatePolicy validates and stores a new policy (version 1, enabled unless
// said otherwise). The expression is compiled and type-checked first:
// validation_failed with the CEL error position.
func (s *Service) CreatePolicy(ctx context.Context, p engine.Principal, in engine.PolicyInput) (engine.Policy, error) {
	pol, err := s.newPolicy(p, in)
	if err != nil {
		return engine.Policy{}, err
	}
	if err := s.cfg.Policies.CreatePolicy(ctx, pol); err != nil {
		if engine.ErrorCode(err) == engine.CodeConflict {
			return engine.Policy{}, engine.Errorf(engine.CodeConflict, "a policy named %s already exists", engine.Quote(pol.Name))
		}
		return engine.Policy{}, err
	}
	return pol, nil
}

// DryRunNewPolicy validates a policy as CreatePolicy would and evaluates it
// on the current inventory, storing nothing.
func (s *Service) DryRunNewPolicy(ctx context.Context, p engine.Principal, in engine.PolicyInput, limit int) (engine.PolicyDryRun, error) {
	pol, err := s.newPolicy(p, in)
	if err != nil {
		return engine.PolicyDryRun{}, err
	}
	return s.dryRun(ctx, p, pol, limit)
}

func (s *Service) newPolicy(p engine.Principal, in engine.PolicyInput) (engine.Policy, error) {
	if err := p.Require(engine.ScopePoliciesWrite); err != nil {
		return engine.Policy{}, err
	}
	if err := s.policiesAvailable(); err != nil {
		return engine.Policy{}, err
	}
	now := s.now().UTC()
	pol := applyPolicyInput(in, engine.Policy{ID: engine.NewID(engine.PrefixPolicy, now), TenantID: p.TenantID, Enabled: true, Version: 1,
		CreatedAt: now, UpdatedAt: now})
	pol = s.cfg.Evaluators.NormalizePolicy(pol)
	if err := s.cfg.Evaluators.ValidatePolicy(pol); err != nil {
		return engine.Policy{}, err
	}
	return pol, nil
}

// UpdatePolicy changes a policy; each change makes a new version. The
// result is validated as on create.
func (s *Service) UpdatePolicy(ctx context.Context, p engine.Principal, id string, in engine.PolicyInput) (engine.Policy, error) {
	if err := p.Require(engine.ScopePoliciesWrite); err != nil {
		return engine.Policy{}, err
	}
	if err := s.policiesAvailable(); err != nil {
		return engine.Policy{}, err
	}
	cur, err := s.GetPolicy(ctx, p, id)
	if err != nil {
		return engine.Policy{}, err
	}
	pol := s.cfg.Evaluators.NormalizePolicy(applyPolicyInput(in, cur))
	if err := s.cfg.Evaluators.ValidatePolicy(pol); err != nil {
		return engine.Policy{}, err
	}
	return s.cfg.Policies.UpdatePolicy(ctx, pol)
}

// DeletePolicy removes a policy; findings of past snapshots keep naming it.
func (s *Service) DeletePolicy(ctx context.Context, p engine.Principal, id string) error {
	if err := p.Require(engine.ScopePoliciesWrite); err != nil {
		return err
	}
	if !engine.ValidID(engine.PrefixPolicy, id) {
		return engine.ErrNotFound("policy", id)
	}
	return s.cfg.Policies.DeletePolicy(ctx, p.TenantID, id, s.now().UTC())
}

// TestPolicy dry-runs a stored policy on the current inventory.
func (s *Service) TestPolicy(ctx context.Context, p engine.Principal, id string, limit int) (engine.PolicyDryRun, error) {
	if err := p.Require(engine.ScopePoliciesRead); err != nil {
		return engine.PolicyDryRun{}, err
	}
	if err := s.policiesAvailable(); err != nil {
		return engine.PolicyDryRun{}, err
	}
	pol, err := s.GetPolicy(ctx, p, id)
	if err != nil {
		return engine.PolicyDryRun{}, err
	}
	return s.dryRun(ctx, p, pol, limit)
}

func (s *Service) dryRun(ctx context.Context, p engine.Principal, pol engine.Policy, limit int) (engine.PolicyDryRun, error) {
	if err := p.Require(engine.ScopeResourcesRead); err != nil {
		return engine.PolicyDryRun{}, err
	}
	if s.cfg.Inventory == nil {
		return engine.PolicyDryRun{}, engine.Errorf(engine.CodeUnavailable, "dry runs are not configured on this server")
	}
	return s.cfg.Evaluators.DryRunPolicy(ctx, pol, s.inventorySeq(ctx, p.TenantID), limit)
}

// inventorySeq is the tenant's inventory as an iterator.
func (s *Service) inventorySeq(ctx context.Context, tenantID string) iter.Seq2[engine.Resource, error] {
	return engine.StreamSeq(func(fn func(engine.Resource) error) error { return s.cfg.Inventory.StreamResources(ctx, tenantID, fn) })
}
