package engine

import (
	"context"
	"iter"
	"slices"
)

// PolicyInput is a policy as a caller writes it. On update, nil fields are
// left as they are.
type PolicyInput struct {
	Name          *string
	Description   *string
	Expression    *string
	Effect        *PolicyEffect
	Dimension     *Dimension
	Severity      *Severity
	ResourceTypes *[]string
	Title         *string
	Remediation   *string
	Enabled       *bool
}

func (in PolicyInput) apply(p Policy) Policy {
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
		return Errorf(CodeUnavailable, "custom policies are not configured on this server")
	}
	return nil
}

// DefaultDryRunLimit is how many matches a dry run returns by default.
const DefaultDryRunLimit = 50

// CreatePolicy validates and stores a new policy (version 1, enabled unless
// said otherwise). The expression is compiled and type-checked first:
// validation_failed with the CEL error position.
func (s *Service) CreatePolicy(ctx context.Context, p Principal, in PolicyInput) (Policy, error) {
	pol, err := s.newPolicy(p, in)
	if err != nil {
		return Policy{}, err
	}
	if err := s.cfg.Policies.CreatePolicy(ctx, pol); err != nil {
		if ErrorCode(err) == CodeConflict {
			return Policy{}, Errorf(CodeConflict, "a policy named %s already exists", quote(pol.Name))
		}
		return Policy{}, err
	}
	return pol, nil
}

// DryRunNewPolicy validates a policy as CreatePolicy would and evaluates it
// on the current inventory, storing nothing.
func (s *Service) DryRunNewPolicy(ctx context.Context, p Principal, in PolicyInput, limit int) (PolicyDryRun, error) {
	pol, err := s.newPolicy(p, in)
	if err != nil {
		return PolicyDryRun{}, err
	}
	return s.dryRun(ctx, p, pol, limit)
}

func (s *Service) newPolicy(p Principal, in PolicyInput) (Policy, error) {
	if err := p.Require(ScopePoliciesWrite); err != nil {
		return Policy{}, err
	}
	if err := s.policiesAvailable(); err != nil {
		return Policy{}, err
	}
	now := s.now().UTC()
	pol := in.apply(Policy{ID: NewID(PrefixPolicy, now), TenantID: p.TenantID, Enabled: true, Version: 1,
		CreatedAt: now, UpdatedAt: now})
	pol = s.cfg.Evaluators.NormalizePolicy(pol)
	if err := s.cfg.Evaluators.ValidatePolicy(pol); err != nil {
		return Policy{}, err
	}
	return pol, nil
}

// UpdatePolicy changes a policy; each change makes a new version. The
// result is validated as on create.
func (s *Service) UpdatePolicy(ctx context.Context, p Principal, id string, in PolicyInput) (Policy, error) {
	if err := p.Require(ScopePoliciesWrite); err != nil {
		return Policy{}, err
	}
	if err := s.policiesAvailable(); err != nil {
		return Policy{}, err
	}
	cur, err := s.GetPolicy(ctx, p, id)
	if err != nil {
		return Policy{}, err
	}
	pol := s.cfg.Evaluators.NormalizePolicy(in.apply(cur))
	if err := s.cfg.Evaluators.ValidatePolicy(pol); err != nil {
		return Policy{}, err
	}
	return s.cfg.Policies.UpdatePolicy(ctx, pol)
}

// DeletePolicy removes a policy; findings of past snapshots keep naming it.
func (s *Service) DeletePolicy(ctx context.Context, p Principal, id string) error {
	if err := p.Require(ScopePoliciesWrite); err != nil {
		return err
	}
	if !ValidID(PrefixPolicy, id) {
		return ErrNotFound("policy", id)
	}
	return s.cfg.Policies.DeletePolicy(ctx, p.TenantID, id, s.now().UTC())
}

// TestPolicy dry-runs a stored policy on the current inventory.
func (s *Service) TestPolicy(ctx context.Context, p Principal, id string, limit int) (PolicyDryRun, error) {
	if err := p.Require(ScopePoliciesRead); err != nil {
		return PolicyDryRun{}, err
	}
	if err := s.policiesAvailable(); err != nil {
		return PolicyDryRun{}, err
	}
	pol, err := s.GetPolicy(ctx, p, id)
	if err != nil {
		return PolicyDryRun{}, err
	}
	return s.dryRun(ctx, p, pol, limit)
}

func (s *Service) dryRun(ctx context.Context, p Principal, pol Policy, limit int) (PolicyDryRun, error) {
	if err := p.Require(ScopeResourcesRead); err != nil {
		return PolicyDryRun{}, err
	}
	if s.cfg.Inventory == nil {
		return PolicyDryRun{}, Errorf(CodeUnavailable, "dry runs are not configured on this server")
	}
	return s.cfg.Evaluators.DryRunPolicy(ctx, pol, s.inventorySeq(ctx, p.TenantID), limit)
}

// inventorySeq is the tenant's inventory as an iterator.
func (s *Service) inventorySeq(ctx context.Context, tenantID string) iter.Seq2[Resource, error] {
	return StreamSeq(func(fn func(Resource) error) error { return s.cfg.Inventory.StreamResources(ctx, tenantID, fn) })
}
