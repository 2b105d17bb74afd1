package cache

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"
)

func TestLRUEvictsLeastRecentlyUsed(t *testing.T) {
	c := New(Options[string, int]{MaxCost: 3})
	c.Put("a", 1)
	c.Put("b", 2)
	c.Put("c", 3)
	if v, ok := c.Get("a"); !ok || v != 1 { // a is now the most recent
		t.Fatalf("a: %v %v", v, ok)
	}
	c.Put("d", 4) // evicts b
	if _, ok := c.Get("b"); ok {
		t.Error("b survived as the least recently used")
	}
	for _, k := range []string{"a", "c", "d"} {
		if _, ok := c.Get(k); !ok {
			t.Errorf("%s evicted", k)
		}
	}
	if c.Len() != 3 || c.Cost() != 3 {
		t.Errorf("len %d cost %d, want 3 3", c.Len(), c.Cost())
	}
	c.Put("a", 10) // replaces
	if v, _ := c.Get("a"); v != 10 {
		t.Errorf("Put did not replace: %d", v)
	}
	if c.Add("a", 11) {
		t.Error("Add replaced a live entry")
	}
	if v, _ := c.Get("a"); v != 10 {
		t.Errorf("Add changed a live entry: %d", v)
	}
	c.Remove("a")
	if _, ok := c.Get("a"); ok || c.Len() != 2 || c.Cost() != 2 {
		t.Errorf("after Remove: len %d cost %d", c.Len(), c.Cost())
	}
	c.Purge()
	if _, ok := c.Get("c"); ok || c.Len() != 0 || c.Cost() != 0 {
		t.Error("Purge left entries")
	}
	c.Put("e", 5)
	if v, ok := c.Get("e"); !ok || v != 5 {
		t.Error("cache unusable after Purge")
	}
}

func TestLRUCost(t *testing.T) {
	c := New(Options[string, []byte]{MaxCost: 10, Cost: func(k string, v []byte) int { return len(v) }})
	if c.Add("big", make([]byte, 11)) {
		t.Error("an entry over MaxCost on its own was kept")
	}
	c.Put("a", make([]byte, 4))
	c.Put("b", make([]byte, 4))
	c.Put("a", make([]byte, 6)) // grows a: 6+4 = 10 fits
	if c.Cost() != 10 || c.Len() != 2 {
		t.Fatalf("cost %d len %d, want 10 2", c.Cost(), c.Len())
	}
	c.Put("c", make([]byte, 1)) // evicts b (least recent), then fits
	if _, ok := c.Get("b"); ok || c.Cost() != 7 {
		t.Errorf("cost %d after evicting b, want 7", c.Cost())
	}
}

func TestLRUTTL(t *testing.T) {
	now := time.Unix(0, 0)
	c := New(Options[string, int]{MaxCost: 10, TTL: 5 * time.Second, Now: func() time.Time { return now }})
	c.Put("a", 1)
	now = now.Add(4 * time.Second)
	if _, ok := c.Get("a"); !ok {
		t.Fatal("a expired early")
	}
	c.Put("b", 2)
	now = now.Add(time.Second) // a is 5 s old: stale; b is 1 s old
	if _, ok := c.Get("a"); ok {
		t.Error("a served at its TTL")
	}
	if c.Add("b", 3) || c.Len() != 1 {
		t.Errorf("Add over a live b, len %d", c.Len())
	}
	now = now.Add(5 * time.Second)
	if !c.Add("b", 4) { // an expired entry is replaced by Add
		t.Error("Add kept an expired entry")
	}
	if v, ok := c.Get("b"); !ok || v != 4 {
		t.Errorf("b = %v %v, want 4", v, ok)
	}
}

func TestLRUNilKeepsNothing(t *testing.T) {
	c := New(Options[string, int]{})
	if c != nil {
		t.Fatal("MaxCost 0 made a cache")
	}
	c.Put("a", 1)
	if c.Add("a", 1) || c.Len() != 0 || c.Cost() != 0 {
		t.Error("nil cache kept something")
	}
	if _, ok := c.Get("a"); ok {
		t.Error("nil cache hit")
	}
	c.Remove("a")
	c.Purge()
}

// Against a model (a slice in recency order), random operations keep the
// same entries, and the bound holds; run with -race for the locking.
func TestLRUModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const max = 8
	c := New(Options[int, int]{MaxCost: max})
	var model []int // keys, most recent first
	vals := map[int]int{}
	touch := func(k int) {
		for i, m := range model {
			if m == k {
				model = append(model[:i], model[i+1:]...)
				break
			}
		}
		model = append([]int{k}, model...)
	}
	for i := range 20000 {
		k := rng.IntN(16)
		switch rng.IntN(4) {
		case 0, 1:
			v, ok := c.Get(k)
			_, want := vals[k]
			if ok != want || (ok && v != vals[k]) {
				t.Fatalf("op %d: Get(%d) = %d %v, want %d %v", i, k, v, ok, vals[k], want)
			}
			if ok {
				touch(k)
			}
		case 2:
			c.Put(k, i)
			vals[k] = i
			touch(k)
		case 3:
			c.Remove(k)
			delete(vals, k)
			for j, m := range model {
				if m == k {
					model = append(model[:j], model[j+1:]...)
					break
				}
			}
		}
		for len(model) > max {
			delete(vals, model[len(model)-1])
			model = model[:len(model)-1]
		}
		if c.Len() != len(model) {
			t.Fatalf("op %d: len %d, want %d", i, c.Len(), len(model))
		}
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 2000 {
				c.Put(i%32, i)
				c.Get((i + g) % 32)
			}
		})
	}
	wg.Wait()
	if c.Len() > max || c.Cost() > max {
		t.Errorf("len %d cost %d over %d", c.Len(), c.Cost(), max)
	}
}

func BenchmarkLRUGetHit(b *testing.B) {
	c := New(Options[string, []int]{MaxCost: 512})
	keys := make([]string, 512)
	for i := range keys {
		keys[i] = fmt.Sprintf("tenant\x00aud_%d\x00high\x00\x00\x00%d", i, i)
		c.Put(keys[i], []int{i})
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, ok := c.Get(keys[i%len(keys)]); !ok {
			b.Fatal("miss")
		}
	}
}
