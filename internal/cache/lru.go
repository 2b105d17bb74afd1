// Package cache is fourd's one in-memory cache: a least-recently-used map
// bounded by a total cost (one per entry unless a cost function says
// otherwise), whose entries may also expire after a time to live. The
// engine's page cache, identity's token cache, rest's encoded page bodies,
// ClickHouse's snapshot totals and GraphQL's query caches are all one of
// these; what each keeps, and why it never needs invalidating (or how it
// is invalidated), stays with its user.
package cache

import (
	"sync"
	"time"
)

// Options configure an LRU.
type Options[K comparable, V any] struct {
	// MaxCost bounds the sum of the entries' costs; an entry that costs
	// more on its own is not kept. New returns nil (a cache that keeps
	// nothing) when it is 0 or less.
	MaxCost int
	// Cost is an entry's cost; nil means 1 (MaxCost counts entries).
	Cost func(K, V) int
	// TTL is how long an entry is served after it was put; 0 means until
	// it is evicted.
	TTL time.Duration
	// Now is the clock (for TTL); nil means time.Now.
	Now func() time.Time
}

// LRU is a concurrency-safe least-recently-used cache. A nil *LRU keeps
// nothing: Get misses and Put does nothing, so a user can switch its cache
// off by not making one.
type LRU[K comparable, V any] struct {
	mu    sync.Mutex
	o     Options[K, V]
	size  int
	items map[K]*entry[K, V]
	root  entry[K, V] // sentinel of the recency ring: root.next is the most recent
}

type entry[K comparable, V any] struct {
	key        K
	value      V
	cost       int
	until      time.Time // zero: no TTL
	prev, next *entry[K, V]
}

// New returns an empty cache, or nil when o.MaxCost is 0 or less.
func New[K comparable, V any](o Options[K, V]) *LRU[K, V] {
	if o.MaxCost <= 0 {
		return nil
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	c := &LRU[K, V]{o: o, items: map[K]*entry[K, V]{}}
	c.root.next, c.root.prev = &c.root, &c.root
	return c
}

// Get returns the value under k and marks it most recently used; false
// when there is none or it has expired (then it is dropped).
func (c *LRU[K, V]) Get(k K) (V, bool) {
	var zero V
	if c == nil {
		return zero, false
	}
	c.mu.Lock()
	e, ok := c.items[k]
	if !ok {
		c.mu.Unlock()
		return zero, false
	}
	if !e.until.IsZero() && !c.o.Now().Before(e.until) {
		c.removeLocked(e)
		c.mu.Unlock()
		return zero, false
	}
	c.moveToFrontLocked(e)
	v := e.value
	c.mu.Unlock()
	return v, true
}

// Put keeps v under k, replacing what was there, as the most recently
// used entry, and evicts the least recently used ones beyond MaxCost.
func (c *LRU[K, V]) Put(k K, v V) { c.put(k, v, true) }

// Add keeps v under k unless a live entry holds k already; then that entry
// stays and is marked most recently used. It reports whether v was kept.
func (c *LRU[K, V]) Add(k K, v V) bool { return c.put(k, v, false) }

func (c *LRU[K, V]) put(k K, v V, replace bool) bool {
	if c == nil {
		return false
	}
	cost := 1
	if c.o.Cost != nil {
		cost = c.o.Cost(k, v)
	}
	if cost > c.o.MaxCost {
		return false
	}
	var until time.Time
	if c.o.TTL > 0 {
		until = c.o.Now().Add(c.o.TTL)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[k]; ok {
		live := e.until.IsZero() || c.o.Now().Before(e.until)
		if live && !replace {
			c.moveToFrontLocked(e)
			return false
		}
		c.size += cost - e.cost
		e.value, e.cost, e.until = v, cost, until
		c.moveToFrontLocked(e)
	} else {
		e := &entry[K, V]{key: k, value: v, cost: cost, until: until}
		c.items[k] = e
		c.size += cost
		e.prev, e.next = &c.root, c.root.next
		c.root.next.prev = e
		c.root.next = e
	}
	for c.size > c.o.MaxCost {
		c.removeLocked(c.root.prev)
	}
	return true
}

// Remove drops the entry under k, if any.
func (c *LRU[K, V]) Remove(k K) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[k]; ok {
		c.removeLocked(e)
	}
}

// Purge drops every entry.
func (c *LRU[K, V]) Purge() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.items)
	c.size = 0
	c.root.next, c.root.prev = &c.root, &c.root
}

// Len returns the number of entries, expired ones not yet dropped included.
func (c *LRU[K, V]) Len() int {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.items)
}

// Cost returns the sum of the entries' costs.
func (c *LRU[K, V]) Cost() int {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.size
}

func (c *LRU[K, V]) moveToFrontLocked(e *entry[K, V]) {
	if c.root.next == e {
		return
	}
	e.prev.next, e.next.prev = e.next, e.prev
	e.prev, e.next = &c.root, c.root.next
	c.root.next.prev = e
	c.root.next = e
}

func (c *LRU[K, V]) removeLocked(e *entry[K, V]) {
	e.prev.next, e.next.prev = e.next, e.prev
	e.prev, e.next = nil, nil
	delete(c.items, e.key)
	c.size -= e.cost
}
