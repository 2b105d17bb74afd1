package findings

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// TestReadCacheKeepsTheTenantsRead: over its cost bound, the read cache
// drops the tenants read least recently, never one being read. On the
// map-order eviction it had, a tenant read before every put survived a
// full cache only by chance.
func TestReadCacheKeepsTheTenantsRead(t *testing.T) {
	now := time.Now()
	c := newReadCache()
	c.up()
	put := func(id string) {
		tok, _ := c.begin()
		c.putLatest(id, tok, "aud_"+id, now)
		tok, _ = c.begin()
		c.putOverrides(id, tok, overridesOf(maxOverrides, now), now)
	}
	put("hot")
	// Each tenant costs 1+maxOverrides: the bound holds about 20.
	for i := range 3 * readCacheMaxCost / maxOverrides {
		if _, ok := c.overrides("hot", now); !ok {
			t.Fatalf("after %d other tenants, the tenant read before each put was dropped", i)
		}
		put(fmt.Sprint("t", i))
		if cost := c.tenants.Cost(); cost > readCacheMaxCost {
			t.Fatalf("cost %d over the bound %d", cost, readCacheMaxCost)
		}
	}
	if _, ok := c.latest("t0", now); ok {
		t.Error("the least recently read tenant is still cached")
	}
	if id, ok := c.latest("hot", now); !ok || id != "aud_hot" {
		t.Errorf("latest(hot) = %q, %v; want aud_hot, true", id, ok)
	}
}

// countingMutes is a MuteMatchStore whose CountMuted counts its calls.
type countingMutes struct {
	MuteMatchStore
	calls int
}

func (m *countingMutes) CountMuted(_ context.Context, q engine.FindingCountQuery, _ []engine.MuteRef, _ []string) ([]engine.FindingCount, error) {
	m.calls++
	return []engine.FindingCount{{Key: map[engine.GroupBy]string{}, Count: int64(len(q.Filter.Account))}}, nil
}

// TestMutedCountsKeepTheLatestAsked: a decision set's muted counts keep the
// counts asked most recently. On the old cache, full after maxMutedCounts
// different counts, a new count was asked of the store every time.
func TestMutedCountsKeepTheLatestAsked(t *testing.T) {
	store := &countingMutes{}
	s := &Service{cfg: Config{MuteMatches: store}}
	set := &overrideSet{versioned: true, version: 1}
	ask := func(i int) {
		t.Helper()
		q := engine.FindingCountQuery{TenantID: "ten_a", Filter: engine.FindingFilter{Account: fmt.Sprint(i)}}
		if _, err := s.countMuted(context.Background(), set, q, nil); err != nil {
			t.Fatal(err)
		}
	}
	for i := range maxMutedCounts + 10 {
		ask(i)
	}
	before := store.calls
	for i := maxMutedCounts; i < maxMutedCounts+10; i++ {
		ask(i)
	}
	if store.calls != before {
		t.Errorf("the 10 counts asked last went to the store again %d times", store.calls-before)
	}
	ask(0) // the least recently asked: dropped
	if store.calls != before+1 {
		t.Errorf("the count asked first was still cached past the bound")
	}
}
