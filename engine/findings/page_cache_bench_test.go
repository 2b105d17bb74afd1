package findings

import (
	"fmt"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// The page cache's hot path: a finished page served again (getRendered),
// and a store page read again (get), over a full cache, one goroutine and
// all of them. Compare builds with scripts/bench-page-cache.sh.
func benchPageCache(b *testing.B, parallel bool) {
	c := newPageCache(DefaultPageCacheSize)
	now := time.Now()
	n := DefaultPageCacheSize / 2
	rendered, items := make([]string, n), make([]string, n)
	for i := range n {
		q := engine.FindingQuery{TenantID: "ten_01jn8s7qg01z9d5mprx15gxr1b", Limit: 50,
			Filter: engine.FindingFilter{AuditID: fmt.Sprintf("aud_01jn8s7qg01z9d5mprx15g%04d", i), Severity: engine.SeverityHigh}}
		items[i], rendered[i] = pageKey(q), renderedKey(q, 1, "")
		c.put(items[i], make([]engine.Finding, 50))
		c.putRendered(rendered[i], engine.Page[engine.Finding]{Items: make([]engine.Finding, 50)}, now.Add(time.Hour))
	}
	hit := func(i int) {
		if _, ok := c.getRendered(rendered[i%n], now); !ok {
			b.Fatal("rendered miss")
		}
		if _, ok := c.get(items[i%n]); !ok {
			b.Fatal("items miss")
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	if parallel {
		b.RunParallel(func(pb *testing.PB) {
			for i := 0; pb.Next(); i++ {
				hit(i)
			}
		})
		return
	}
	for i := 0; b.Loop(); i++ {
		hit(i)
	}
}

func BenchmarkPageCacheHit(b *testing.B) { benchPageCache(b, false) }

func BenchmarkPageCacheHitParallel(b *testing.B) { benchPageCache(b, true) }
