package policy

import (
	"context"
	"testing"
	"time"
)

func TestScratch(t *testing.T) {
	big := make([]any, 5000)
	for i := range big {
		big[i] = int64(i)
	}
	in := MustInput(t, instance)
	in.Attributes = map[string]any{"ports": big}
	c, _ := NewCompiler(Config{CostLimit: MaxCostLimit})
	for _, e := range []string{`resource.attributes.ports.exists(a, resource.attributes.ports.exists(b, a + b == -1))`, `resource.attributes.ports.exists(a, a == -1)`} {
		prg, _ := c.Compile(raisePolicy(e))
		for _, cancelIt := range []bool{false, true} {
			ctx, cancel := context.WithCancel(context.Background())
			if cancelIt {
				cancel()
			}
			start := time.Now()
			ok, err := prg.Match(ctx, in)
			t.Logf("%s cancel=%v: %v %v %v", e, cancelIt, ok, err, time.Since(start))
			cancel()
		}
	}
}
