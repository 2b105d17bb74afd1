package policies

import (
	"context"
	"iter"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// Store holds custom policies (store/postgres).
type Store interface {
	// CreatePolicy stores a new policy; conflict when its name is taken.
	CreatePolicy(ctx context.Context, p engine.Policy) error
	// UpdatePolicy overwrites a live policy whose stored version is
	// p.Version and returns it with the next version; conflict when the
	// version moved on (a concurrent update) or the name is taken,
	// not_found when the policy is missing or deleted.
	UpdatePolicy(ctx context.Context, p engine.Policy) (engine.Policy, error)
	// DeletePolicy marks a live policy deleted; not_found otherwise.
	DeletePolicy(ctx context.Context, tenantID, id string, at time.Time) error
	// GetPolicy returns a live policy of the tenant; not_found otherwise.
	GetPolicy(ctx context.Context, tenantID, id string) (engine.Policy, error)
	// ListPolicies returns up to q.Limit policies, newest first, strictly
	// before q.BeforeID.
	ListPolicies(ctx context.Context, q engine.PolicyQuery) ([]engine.Policy, error)
}

// Checker normalises, validates and dry-runs policies (engine/audit's
// evaluators implement it, as part of engine.Evaluators).
type Checker interface {
	// NormalizePolicy fills a policy's defaults (effect raise, trimmed name).
	NormalizePolicy(p engine.Policy) engine.Policy
	// ValidatePolicy checks a policy being written: validation_failed, with
	// the CEL error position when its expression does not compile.
	ValidatePolicy(p engine.Policy) error
	// DryRunPolicy evaluates a raise policy over resources without writing
	// anything: validation_failed, invalid_limit, or the iterator's error.
	DryRunPolicy(ctx context.Context, p engine.Policy, resources iter.Seq2[engine.Resource, error], limit int) (engine.PolicyDryRun, error)
}
