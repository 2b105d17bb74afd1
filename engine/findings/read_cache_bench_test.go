package findings

import (
	"fmt"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// overridesOf is an override set of n decisions.
func overridesOf(n int, now time.Time) *overrideSet {
	list := make([]engine.FindingOverride, n)
	for i := range list {
		list[i] = engine.FindingOverride{FindingID: fmt.Sprintf("fnd_%d", i), Resolution: engine.ResolutionAcceptedRisk}
	}
	return newOverrideSet(list, now)
}

// BenchmarkReadCacheHit is the read cache's hit path as every finding read
// takes it (the latest audit, then the overrides) from parallel readers
// over 1,000 tenants.
//
//	go test -run '^$' -bench BenchmarkReadCacheHit -cpu 1,2 ./engine/findings/
func BenchmarkReadCacheHit(b *testing.B) {
	now := time.Now()
	c := newReadCache()
	c.up()
	const tenants = 1000
	ids := make([]string, tenants)
	for i := range ids {
		ids[i] = fmt.Sprint("ten_", i)
		tok, _ := c.begin()
		c.putLatest(ids[i], tok, "aud", now)
		tok, _ = c.begin()
		c.putOverrides(ids[i], tok, overridesOf(3, now), now)
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			id := ids[i%tenants]
			if _, ok := c.latest(id, now); !ok {
				b.Fatal("miss")
			}
			if _, ok := c.overrides(id, now); !ok {
				b.Fatal("miss")
			}
			i++
		}
	})
}
