package identity

import (
	"sync"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// Token cache defaults. The TTL is the documented bound on how long a token
// revoked through another replica keeps working here.
const (
	DefaultTokenCacheSize = 10_000
	DefaultTokenCacheTTL  = 5 * time.Second
	MaxTokenCacheTTL      = 5 * time.Second
)

// tokenCache keeps the outcome of recent token lookups (by secret hash) so
// that authentication is not a database round trip per request. Entries
// live at most ttl; unknown tokens are cached too (a secret is random, so a
// new token never has a cached miss). It is bounded: when full, expired
// entries go first, then arbitrary ones.
type tokenCache struct {
	mu      sync.RWMutex
	entries map[string]cacheEntry
	max     int
	ttl     time.Duration
	now     func() time.Time
}

type cacheEntry struct {
	p       engine.Principal
	ok      bool      // false: the token is unknown, revoked or expired
	until   time.Time // when the entry goes stale
	expires time.Time // the token's own expiry (zero: none)
}

func newTokenCache(size int, ttl time.Duration, now func() time.Time) *tokenCache {
	if size <= 0 {
		size = DefaultTokenCacheSize
	}
	if ttl <= 0 || ttl > MaxTokenCacheTTL {
		ttl = DefaultTokenCacheTTL
	}
	return &tokenCache{entries: make(map[string]cacheEntry, 64), max: size, ttl: ttl, now: now}
}

// get returns the cached outcome for a hash: the principal, whether the
// token is valid, and whether there was a fresh entry at all.
func (c *tokenCache) get(hash string) (engine.Principal, bool, bool) {
	if c == nil { // a Service not made by NewService
		return engine.Principal{}, false, false
	}
	c.mu.RLock()
	e, found := c.entries[hash]
	c.mu.RUnlock()
	if !found {
		return engine.Principal{}, false, false
	}
	now := c.now()
	if !now.Before(e.until) {
		return engine.Principal{}, false, false
	}
	if e.ok && !e.expires.IsZero() && !now.Before(e.expires) {
		return engine.Principal{}, false, true
	}
	return e.p, e.ok, true
}

// put records a lookup's outcome; expires is the token's expiry (zero when
// it has none).
func (c *tokenCache) put(hash string, p engine.Principal, ok bool, expires time.Time) {
	if c == nil {
		return
	}
	now := c.now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, exists := c.entries[hash]; !exists && len(c.entries) >= c.max {
		c.evictLocked(now)
	}
	c.entries[hash] = cacheEntry{p: p, ok: ok, until: now.Add(c.ttl), expires: expires}
}

// evictLocked frees about a tenth of the capacity: stale entries first,
// then whichever the map yields (Go randomizes map iteration).
func (c *tokenCache) evictLocked(now time.Time) {
	target := len(c.entries) - c.max + max(1, c.max/10)
	for k, e := range c.entries {
		if target <= 0 {
			return
		}
		if !now.Before(e.until) {
			delete(c.entries, k)
			target--
		}
	}
	for k := range c.entries {
		if target <= 0 {
			return
		}
		delete(c.entries, k)
		target--
	}
}

// purge empties the cache. Revocations through this replica call it, so
// they take effect on the next request here; they are rare, and the cache
// refills with one lookup per active token.
func (c *tokenCache) purge() {
	if c == nil {
		return
	}
	c.mu.Lock()
	clear(c.entries)
	c.mu.Unlock()
}

// len returns the number of entries (for tests).
func (c *tokenCache) len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.entries)
}
