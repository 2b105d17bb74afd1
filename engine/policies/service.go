package policies

import (
	"context"
	"errors"
	"iter"
	"slices"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// Config holds what a Service needs. Store and Secret are required;
// without Checker the writes and dry runs answer unavailable, without
// Inventory the dry runs do.
type Config struct {
	Store   Store
	Checker Checker
	// Inventory streams the tenant's current inventory for dry runs.
	Inventory engine.InventoryReader
	// Secret keys cursors (the same as the other services', at least 32
	// bytes); CursorTTL bounds how long a cursor stays valid (default 24 h).
	Secret    []byte
	CursorTTL time.Duration
	Now       func() time.Time
}

// Service keeps a tenant's custom policies. Each method checks the
// caller's tenant and scope itself; a nil Service answers unavailable.
type Service struct {
	cfg     Config
	cursors *engine.Cursors
}

// New returns a Service over cfg.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil {
		return nil, errors.New("policies: Store is required")
	}
	k, err := engine.NewKeyed("policies", cfg.Secret, cfg.CursorTTL, cfg.Now, nil)
	if err != nil {
		return nil, err
	}
	cfg.Now, cfg.CursorTTL = k.Now, k.CursorTTL
	return &Service{cfg: cfg, cursors: k.Cursors}, nil
}

// require checks the caller's scope, then that the server keeps policies
// (a nil Service: the adapter was given none).
func (s *Service) require(p engine.Principal, scope engine.Scope) error {
	if err := p.Require(scope); err != nil {
		return err
	}
	if s == nil {
		return engine.Errorf(engine.CodeUnavailable, "custom policies are not configured on this server")
	}
	return nil
}

// checker is the Checker, or unavailable without one.
func (s *Service) checker() (Checker, error) {
	if s.cfg.Checker == nil {
		return nil, engine.Errorf(engine.CodeUnavailable, "custom policies are not configured on this server")
	}
	return s.cfg.Checker, nil
}

// ListPolicies returns a page of the tenant's policies, newest first.
func (s *Service) ListPolicies(ctx context.Context, p engine.Principal, pr engine.PageRequest) (engine.Page[engine.Policy], error) {
	if err := s.require(p, engine.ScopePoliciesRead); err != nil {
		return engine.Page[engine.Policy]{}, err
	}
	return engine.IDPage(s.cursors, p, "policies", pr, func(x engine.Policy) string { return x.ID }, func(before string, limit int) ([]engine.Policy, error) {
		return s.cfg.Store.ListPolicies(ctx, engine.PolicyQuery{TenantID: p.TenantID, BeforeID: before, Limit: limit})
	})
}

// PolicyCursor returns the cursor after the policy with id in ListPolicies.
func (s *Service) PolicyCursor(p engine.Principal, id string) string {
	if s == nil {
		return ""
	}
	return s.cursors.Encode(p.TenantID, "policies", id)
}

// GetPolicy returns one policy of the tenant.
func (s *Service) GetPolicy(ctx context.Context, p engine.Principal, id string) (engine.Policy, error) {
	if err := s.require(p, engine.ScopePoliciesRead); err != nil {
		return engine.Policy{}, err
	}
	if !engine.ValidID(engine.PrefixPolicy, id) {
		return engine.Policy{}, engine.ErrNotFound("policy", id)
	}
	return s.cfg.Store.GetPolicy(ctx, p.TenantID, id)
}

// CreatePolicy validates and stores a new policy (version 1, enabled unless
// said otherwise). The expression is compiled and type-checked first:
// validation_failed with the CEL error position.
func (s *Service) CreatePolicy(ctx context.Context, p engine.Principal, in engine.PolicyInput) (engine.Policy, error) {
	pol, err := s.newPolicy(p, in)
	if err != nil {
		return engine.Policy{}, err
	}
	if err := s.cfg.Store.CreatePolicy(ctx, pol); err != nil {
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

// newPolicy is in as a new policy of the caller's tenant, normalised and
// validated.
func (s *Service) newPolicy(p engine.Principal, in engine.PolicyInput) (engine.Policy, error) {
	if err := s.require(p, engine.ScopePoliciesWrite); err != nil {
		return engine.Policy{}, err
	}
	c, err := s.checker()
	if err != nil {
		return engine.Policy{}, err
	}
	now := s.cfg.Now().UTC()
	pol := applyInput(in, engine.Policy{ID: engine.NewID(engine.PrefixPolicy, now), TenantID: p.TenantID, Enabled: true, Version: 1,
		CreatedAt: now, UpdatedAt: now})
	pol = c.NormalizePolicy(pol)
	if err := c.ValidatePolicy(pol); err != nil {
		return engine.Policy{}, err
	}
	return pol, nil
}

// UpdatePolicy changes a policy; each change makes a new version. The
// result is validated as on create.
func (s *Service) UpdatePolicy(ctx context.Context, p engine.Principal, id string, in engine.PolicyInput) (engine.Policy, error) {
	if err := s.require(p, engine.ScopePoliciesWrite); err != nil {
		return engine.Policy{}, err
	}
	c, err := s.checker()
	if err != nil {
		return engine.Policy{}, err
	}
	cur, err := s.GetPolicy(ctx, p, id)
	if err != nil {
		return engine.Policy{}, err
	}
	pol := c.NormalizePolicy(applyInput(in, cur))
	if err := c.ValidatePolicy(pol); err != nil {
		return engine.Policy{}, err
	}
	return s.cfg.Store.UpdatePolicy(ctx, pol)
}

// DeletePolicy removes a policy; findings of past snapshots keep naming it.
func (s *Service) DeletePolicy(ctx context.Context, p engine.Principal, id string) error {
	if err := s.require(p, engine.ScopePoliciesWrite); err != nil {
		return err
	}
	if !engine.ValidID(engine.PrefixPolicy, id) {
		return engine.ErrNotFound("policy", id)
	}
	return s.cfg.Store.DeletePolicy(ctx, p.TenantID, id, s.cfg.Now().UTC())
}

// TestPolicy dry-runs a stored policy on the current inventory.
func (s *Service) TestPolicy(ctx context.Context, p engine.Principal, id string, limit int) (engine.PolicyDryRun, error) {
	if err := s.require(p, engine.ScopePoliciesRead); err != nil {
		return engine.PolicyDryRun{}, err
	}
	if _, err := s.checker(); err != nil {
		return engine.PolicyDryRun{}, err
	}
	pol, err := s.GetPolicy(ctx, p, id)
	if err != nil {
		return engine.PolicyDryRun{}, err
	}
	return s.dryRun(ctx, p, pol, limit)
}

// dryRun evaluates pol over the tenant's current inventory.
func (s *Service) dryRun(ctx context.Context, p engine.Principal, pol engine.Policy, limit int) (engine.PolicyDryRun, error) {
	if err := p.Require(engine.ScopeResourcesRead); err != nil {
		return engine.PolicyDryRun{}, err
	}
	if s.cfg.Inventory == nil {
		return engine.PolicyDryRun{}, engine.Errorf(engine.CodeUnavailable, "dry runs are not configured on this server")
	}
	return s.cfg.Checker.DryRunPolicy(ctx, pol, s.inventorySeq(ctx, p.TenantID), limit)
}

// inventorySeq is the tenant's inventory as an iterator.
func (s *Service) inventorySeq(ctx context.Context, tenantID string) iter.Seq2[engine.Resource, error] {
	return engine.StreamSeq(func(fn func(engine.Resource) error) error { return s.cfg.Inventory.StreamResources(ctx, tenantID, fn) })
}

// applyInput sets the given fields of in on p.
func applyInput(in engine.PolicyInput, p engine.Policy) engine.Policy {
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
