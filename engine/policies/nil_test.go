package policies

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// TestNilServiceIsUnavailable: an adapter given no policies service answers
// every use case unavailable, never a panic; a caller without the scope is
// refused first.
func TestNilServiceIsUnavailable(t *testing.T) {
	var s *Service
	ctx := context.Background()
	id := engine.NewID(engine.PrefixPolicy, time.Now())
	calls := map[string]struct {
		scope engine.Scope
		call  func(engine.Principal) error
	}{
		"ListPolicies": {engine.ScopePoliciesRead, func(p engine.Principal) error {
			_, err := s.ListPolicies(ctx, p, engine.PageRequest{})
			return err
		}},
		"GetPolicy": {engine.ScopePoliciesRead, func(p engine.Principal) error { _, err := s.GetPolicy(ctx, p, id); return err }},
		"CreatePolicy": {engine.ScopePoliciesWrite, func(p engine.Principal) error {
			_, err := s.CreatePolicy(ctx, p, engine.PolicyInput{})
			return err
		}},
		"DryRunNewPolicy": {engine.ScopePoliciesWrite, func(p engine.Principal) error {
			_, err := s.DryRunNewPolicy(ctx, p, engine.PolicyInput{}, 10)
			return err
		}},
		"UpdatePolicy": {engine.ScopePoliciesWrite, func(p engine.Principal) error {
			_, err := s.UpdatePolicy(ctx, p, id, engine.PolicyInput{})
			return err
		}},
		"DeletePolicy": {engine.ScopePoliciesWrite, func(p engine.Principal) error { return s.DeletePolicy(ctx, p, id) }},
		"TestPolicy": {engine.ScopePoliciesRead, func(p engine.Principal) error {
			_, err := s.TestPolicy(ctx, p, id, 10)
			return err
		}},
	}
	for name, c := range calls {
		p := engine.Principal{TenantID: "ten_a", Scopes: []engine.Scope{c.scope, engine.ScopeResourcesRead}}
		if code := engine.ErrorCode(c.call(p)); code != engine.CodeUnavailable {
			t.Errorf("%s on a nil Service: code %q, want unavailable", name, code)
		}
		if code := engine.ErrorCode(c.call(engine.Principal{TenantID: "ten_a"})); code != engine.CodeInsufficientScope {
			t.Errorf("%s without %s: code %q, want insufficient_scope", name, c.scope, code)
		}
	}
	if got := s.PolicyCursor(engine.Principal{TenantID: "ten_a"}, id); got != "" {
		t.Errorf("PolicyCursor on a nil Service = %q, want empty", got)
	}
	if _, err := New(Config{Secret: []byte(strings.Repeat("k", 32))}); err == nil {
		t.Error("New without Store: no error")
	}
}

// panicStore is a Store no call may reach.
type panicStore struct{ Store }

// TestNoCheckerIsUnavailable: without a Checker the writes and dry runs
// answer unavailable before touching the store.
func TestNoCheckerIsUnavailable(t *testing.T) {
	s, err := New(Config{Store: panicStore{}, Secret: []byte(strings.Repeat("k", 32))})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	id := engine.NewID(engine.PrefixPolicy, time.Now())
	p := engine.Principal{TenantID: "ten_a", Scopes: engine.AllScopes}
	_, errCreate := s.CreatePolicy(ctx, p, engine.PolicyInput{})
	_, errDry := s.DryRunNewPolicy(ctx, p, engine.PolicyInput{}, 10)
	_, errUpdate := s.UpdatePolicy(ctx, p, id, engine.PolicyInput{})
	_, errTest := s.TestPolicy(ctx, p, id, 10)
	for name, err := range map[string]error{"CreatePolicy": errCreate, "DryRunNewPolicy": errDry, "UpdatePolicy": errUpdate, "TestPolicy": errTest} {
		if code := engine.ErrorCode(err); code != engine.CodeUnavailable {
			t.Errorf("%s without a Checker: code %q, want unavailable", name, code)
		}
	}
}
