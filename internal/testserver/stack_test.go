package testserver

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/findings"
	"github.com/fourd-dev/fourd/store/postgres"
)

// countedPolicies is the stack's PostgreSQL store counting the policy
// lists it answers.
type countedPolicies struct {
	*postgres.Store
	n *atomic.Int64
}

func (c countedPolicies) ListPolicies(ctx context.Context, q engine.PolicyQuery) ([]engine.Policy, error) {
	c.n.Add(1)
	return c.Store.ListPolicies(ctx, q)
}

// TestStoresHookIsExplicit: the policies service reads the store the
// Stores hook names, and not one the Engine hook gave the read path that
// could serve policies too (no implicit fallback either way).
func TestStoresHookIsExplicit(t *testing.T) {
	ctx := context.Background()
	listPolicies := func(st *Stack) {
		t.Helper()
		p, err := st.Operator.Principal(ctx, "acme")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Policies.ListPolicies(ctx, p, engine.PageRequest{Limit: 5}); err != nil {
			t.Fatal(err)
		}
	}
	var viaEngine, viaStores atomic.Int64
	listPolicies(New(t, Options{
		Engine: func(c *findings.Config) { c.Audits = countedPolicies{c.Audits.(*postgres.Store), &viaEngine} },
	}))
	if n := viaEngine.Load(); n != 0 {
		t.Errorf("policies read the Engine hook's Audits store %d times; want the stack's own", n)
	}

	listPolicies(New(t, Options{Stores: func(s *Stores) { s.Policies = countedPolicies{s.Policies.(*postgres.Store), &viaStores} }}))
	if n := viaStores.Load(); n != 1 {
		t.Errorf("policies read the Stores hook's store %d times; want 1", n)
	}
}
