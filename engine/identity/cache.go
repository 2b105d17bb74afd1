package identity

import (
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/cache"
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
// new token never has a cached miss). It is an LRU bounded by entries
// (internal/cache).
type tokenCache struct {
	lru *cache.LRU[string, cacheEntry]
	max int
	ttl time.Duration
	now func() time.Time
}

type cacheEntry struct {
	p       engine.Principal
	ok      bool      // false: the token is unknown, revoked or expired
	expires time.Time // the token's own expiry (zero: none)
}

func newTokenCache(size int, ttl time.Duration, now func() time.Time) *tokenCache {
	if size <= 0 {
		size = DefaultTokenCacheSize
	}
	if ttl <= 0 || ttl > MaxTokenCacheTTL {
		ttl = DefaultTokenCacheTTL
	}
	return &tokenCache{lru: cache.New(cache.Options[string, cacheEntry]{MaxCost: size, TTL: ttl, Now: now}),
		max: size, ttl: ttl, now: now}
}

// get returns the cached outcome for a hash: the principal, whether the
// token is valid, and whether there was a fresh entry at all.
func (c *tokenCache) get(hash string) (engine.Principal, bool, bool) {
	if c == nil { // a Service not made by NewService
		return engine.Principal{}, false, false
	}
	e, found := c.lru.Get(hash)
	if !found {
		return engine.Principal{}, false, false
	}
	if e.ok && !e.expires.IsZero() && !c.now().Before(e.expires) {
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
	c.lru.Put(hash, cacheEntry{p: p, ok: ok, expires: expires})
}

// purge empties the cache. Revocations through this replica call it, so
// they take effect on the next request here; they are rare, and the cache
// refills with one lookup per active token.
func (c *tokenCache) purge() {
	if c == nil {
		return
	}
	c.lru.Purge()
}

// len returns the number of entries (for tests).
func (c *tokenCache) len() int { return c.lru.Len() }
