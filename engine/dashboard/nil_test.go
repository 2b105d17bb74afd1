package dashboard

import (
	"context"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// TestNilServiceIsUnavailable: an adapter given no dashboard service
// answers every ranking unavailable, never a panic; a caller without
// findings:read is refused first.
func TestNilServiceIsUnavailable(t *testing.T) {
	var s *Service
	ctx := context.Background()
	p := engine.Principal{TenantID: "ten_a", Scopes: []engine.Scope{engine.ScopeFindingsRead}}
	calls := map[string]func(engine.Principal) error{
		"TopRules":     func(p engine.Principal) error { _, err := s.TopRules(ctx, p, engine.DashboardQuery{}); return err },
		"TopResources": func(p engine.Principal) error { _, err := s.TopResources(ctx, p, engine.DashboardQuery{}); return err },
		"RankAccounts": func(p engine.Principal) error { _, err := s.RankAccounts(ctx, p, engine.DashboardQuery{}); return err },
		"MeanTimeToResolve": func(p engine.Principal) error {
			_, err := s.MeanTimeToResolve(ctx, p, engine.DashboardQuery{})
			return err
		},
	}
	for name, call := range calls {
		if code := engine.ErrorCode(call(p)); code != engine.CodeUnavailable {
			t.Errorf("%s on a nil Service: code %q, want unavailable", name, code)
		}
		if code := engine.ErrorCode(call(engine.Principal{TenantID: "ten_a"})); code != engine.CodeInsufficientScope {
			t.Errorf("%s without findings:read: code %q, want insufficient_scope", name, code)
		}
	}
	if _, err := New(Config{}); err == nil {
		t.Error("New without Reads: no error")
	}
}
