package graph_test

import (
	"context"
	"regexp"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/graph"
)

// A spent query-cost budget is rate_limited with a wait a person can read
// (seconds within the minute, not a Unix time); tokens have their own.
func TestCostBudgetSpent(t *testing.T) {
	ctx := context.Background()
	b := graph.NewCostBudget(100)
	alice := engine.Principal{TenantID: "ten_a", TokenID: "pat_alice"}
	bob := engine.Principal{TenantID: "ten_a", TokenID: "pat_bob"}
	if left, err := b.Spend(ctx, alice, 60); err != nil || left != 40 {
		t.Fatalf("first spend: %d left (%v), want 40", left, err)
	}
	_, err := b.Spend(ctx, alice, 60)
	if engine.ErrorCode(err) != engine.CodeRateLimited {
		t.Fatalf("over budget: %v, want rate_limited", err)
	}
	if msg := engine.ErrorMessage(err); !regexp.MustCompile(`retry in ([1-5]?[0-9]s|1m0s) \(at 20\d\d-`).MatchString(msg) {
		t.Errorf("message %q does not say how long to wait", msg)
	}
	if left, err := b.Spend(ctx, bob, 60); err != nil || left != 40 {
		t.Errorf("another token: %d left (%v), want its own 40", left, err)
	}
}
