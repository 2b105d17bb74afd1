package exports

import (
	"context"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// TestNilServiceIsUnavailable: an adapter given no exports service answers
// both exports unavailable, never a panic; a caller without the scope is
// refused first.
func TestNilServiceIsUnavailable(t *testing.T) {
	var s *Service
	ctx := context.Background()
	calls := map[string]struct {
		scope engine.Scope
		call  func(engine.Principal) error
	}{
		"ExportFindings": {engine.ScopeFindingsRead, func(p engine.Principal) error {
			_, err := s.ExportFindings(ctx, p, engine.FindingFilter{}, "csv")
			return err
		}},
		"ExportResources": {engine.ScopeResourcesRead, func(p engine.Principal) error {
			_, err := s.ExportResources(ctx, p, engine.ResourceFilter{}, "csv")
			return err
		}},
	}
	for name, c := range calls {
		if code := engine.ErrorCode(c.call(engine.Principal{TenantID: "ten_a", Scopes: []engine.Scope{c.scope}})); code != engine.CodeUnavailable {
			t.Errorf("%s on a nil Service: code %q, want unavailable", name, code)
		}
		if code := engine.ErrorCode(c.call(engine.Principal{TenantID: "ten_a"})); code != engine.CodeInsufficientScope {
			t.Errorf("%s without %s: code %q, want insufficient_scope", name, c.scope, code)
		}
	}
	if _, err := New(Config{}); err == nil {
		t.Error("New without Reads and Resources: no error")
	}
}
