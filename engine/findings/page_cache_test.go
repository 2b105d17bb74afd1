package findings

import (
	"context"
	"fmt"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/internal/enginetest"
)

type countingFindings struct {
	*enginetest.Findings
	lists int
}

func (c *countingFindings) ListFindings(ctx context.Context, q engine.FindingQuery) ([]engine.Finding, error) {
	c.lists++
	return c.Findings.ListFindings(ctx, q)
}

func TestPageCache(t *testing.T) {
	env := newTestEnv(t)
	counting := &countingFindings{Findings: env.findings}
	env.svc.cfg.Findings = counting
	env.completedAudit(t, "ten_a", 30)
	ctx := context.Background()
	first, err := env.svc.ListFindings(ctx, reader, engine.FindingFilter{}, engine.PageRequest{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	again, err := env.svc.ListFindings(ctx, reader, engine.FindingFilter{}, engine.PageRequest{Limit: 10})
	if err != nil || counting.lists != 1 {
		t.Fatalf("second read of the same page: %d store calls, %v; want 1", counting.lists, err)
	}
	if fmt.Sprint(first.Items) != fmt.Sprint(again.Items) {
		t.Error("the cached page differs")
	}
	// Callers may change what they got, not what the cache holds.
	again.Items[0].Title = "changed"
	if third, _ := env.svc.ListFindings(ctx, reader, engine.FindingFilter{}, engine.PageRequest{Limit: 10}); third.Items[0].Title != first.Items[0].Title {
		t.Error("a caller's change reached the cache")
	}
	// Another filter or position is another page.
	if _, err := env.svc.ListFindings(ctx, reader, engine.FindingFilter{Severity: engine.SeverityHigh}, engine.PageRequest{Limit: 10}); err != nil || counting.lists != 2 {
		t.Errorf("another filter: %d store calls, %v", counting.lists, err)
	}
	// A new audit is a new snapshot: not served from the old one's pages.
	env.completedAudit(t, "ten_a", 5)
	latest, err := env.svc.ListFindings(ctx, reader, engine.FindingFilter{}, engine.PageRequest{Limit: 10})
	if err != nil || counting.lists != 3 || len(latest.Items) != 5 {
		t.Errorf("after a new audit: %d items, %d store calls, %v", len(latest.Items), counting.lists, err)
	}
	c := newPageCache(2)
	c.put("a", nil)
	c.put("b", nil)
	c.get("a")
	c.put("c", nil)
	if _, ok := c.get("b"); ok {
		t.Error("the least recently used page was kept")
	}
	if _, ok := c.get("a"); !ok {
		t.Error("a recently used page was evicted")
	}
}
