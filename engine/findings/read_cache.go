package findings

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/cache"
)

// Read cache bounds.
const (
	// readCacheMaxAge is the most a cached latest audit or override set is
	// trusted even while the change feed reports nothing: a bound on
	// staleness should a notification ever be lost without the feed
	// noticing.
	readCacheMaxAge = time.Minute
	// readCacheMaxCost bounds the cache: one unit per tenant plus one per
	// cached override (at most maxOverrides a tenant).
	readCacheMaxCost = 200_000
)

// readCache keeps, per tenant, what every finding read asks PostgreSQL
// first: the latest completed audit (which snapshot to read) and the
// people's decisions on findings (overrides).
//
// Invalidation: a write through this Service invalidates the tenant at once
// (UpdateFinding, audit completion), so on this replica a read after the
// write is exact. Writes from elsewhere (other replicas, workers, the CLI)
// arrive through the ChangeFeed (PostgreSQL NOTIFY, sent by triggers in the
// writing transaction and delivered at its commit), so another replica may
// serve the previous state for the notification's delivery time (a few
// milliseconds on one host: rest's TestFindingDecisionsAcrossReplicas sees
// a PATCH on the other replica within 5–20 ms, its polling included). The
// cache is trusted only while the feed listens: before Up, after Down, and
// on a Service that does not follow a feed, every read goes to the store. A
// connection that dies without an error is noticed by the feed's heartbeat
// (store/postgres: about 10 s), and no entry is trusted past
// readCacheMaxAge whatever the feed says.
//
// Races: gen counts invalidations; a read that missed notes gen before it
// loads and stores its result only if gen has not moved, so a load that
// overlapped a write can never park the pre-write state in the cache.
//
// The entries are an internal/cache LRU of immutable *tenantReads (a put
// replaces the tenant's value with a copy), bounded by readCacheMaxCost:
// one unit per tenant plus one per cached override, the least recently
// read tenants leaving first. What internal/cache does not know stays
// here: the trust that follows the feed, the generation, and each part's
// own load time (a tenant's latest audit and its overrides load apart).
type readCache struct {
	// trusted is read without a lock on the hit path; it changes under mu,
	// after the entries were purged.
	trusted atomic.Bool
	// mu guards gen; a put holds it so that no invalidation falls between
	// its generation check and its store.
	mu      sync.Mutex
	gen     uint64
	serial  uint64 // versions of loaded override sets
	tenants *cache.LRU[string, *tenantReads]
}

// tenantReads is one tenant's cached reads; a zero loadedAt is "not cached".
// A value in the cache is never modified.
type tenantReads struct {
	latestID       string // "" when the tenant has no completed audit
	latestLoadedAt time.Time
	ov             *overrideSet
	ovLoadedAt     time.Time
}

// overrideSet is a tenant's active overrides as one immutable value.
type overrideSet struct {
	byID map[string]engine.FindingOverride
	// resolved and open are the ids forced to each status, sorted, for
	// FindingQuery (shared: never modified).
	resolved, open []string
	// versioned sets tell apart by version: two sets with the same version
	// are the same set. Sets read past the cache are not versioned.
	versioned bool
	// mutes are the tenant's active mute rules and the snapshots each was
	// applied to.
	mutes []engine.ActiveMute
	// muteSets are the builds of the mutes' sets, by snapshot: only a
	// build of exactly the refs the set honours there (mute_sets.go).
	muteSets map[string]string
	// counts caches the muted counts of this set (mute_counts.go).
	counts  mutedCountCache
	version uint64
	// until is when the set changes by itself (its first expiry); zero:
	// never.
	until time.Time
}

// noOverrides is the set of a Service without an OverrideStore: empty,
// forever.
var noOverrides = &overrideSet{versioned: true}

func newOverrideSet(list []engine.FindingOverride, now time.Time) *overrideSet {
	if len(list) > maxOverrides {
		list = list[len(list)-maxOverrides:]
	}
	set := &overrideSet{byID: make(map[string]engine.FindingOverride, len(list))}
	for _, o := range list {
		set.byID[o.FindingID] = o
	}
	set.resolved, set.open = forcedStatuses(set.byID)
	for _, o := range set.byID {
		if o.ExpiresAt != nil && o.ExpiresAt.After(now) && (set.until.IsZero() || o.ExpiresAt.Before(set.until)) {
			set.until = *o.ExpiresAt
		}
	}
	return set
}

func newReadCache() *readCache {
	return &readCache{tenants: cache.New(cache.Options[string, *tenantReads]{MaxCost: readCacheMaxCost, Cost: tenantReadsCost})}
}

// tenantReadsCost is an entry's cost: one, plus one per cached override.
func tenantReadsCost(_ string, t *tenantReads) int {
	if t.ov == nil {
		return 1
	}
	return 1 + len(t.ov.byID)
}

// latest returns the cached latest completed audit id ("" for none) and
// whether there was a fresh entry.
func (c *readCache) latest(tenantID string, now time.Time) (string, bool) {
	if c == nil { // a Service not made by NewService
		return "", false
	}
	if !c.trusted.Load() {
		return "", false
	}
	t, ok := c.tenants.Get(tenantID)
	if !ok || t.latestLoadedAt.IsZero() || now.Sub(t.latestLoadedAt) >= readCacheMaxAge {
		return "", false
	}
	return t.latestID, true
}

// overrides returns the cached override set, if fresh and not yet changed
// by an expiry.
func (c *readCache) overrides(tenantID string, now time.Time) (*overrideSet, bool) {
	if c == nil { // a Service not made by NewService
		return nil, false
	}
	if !c.trusted.Load() {
		return nil, false
	}
	t, ok := c.tenants.Get(tenantID)
	if !ok || t.ov == nil || now.Sub(t.ovLoadedAt) >= readCacheMaxAge ||
		(!t.ov.until.IsZero() && !now.Before(t.ov.until)) {
		return nil, false
	}
	return t.ov, true
}

// begin is called before a load; the token it returns lets the load's
// result in only if nothing was invalidated meanwhile. ok is false when
// the cache is not trusted (nothing will be stored).
func (c *readCache) begin() (token uint64, ok bool) {
	if c == nil { // a Service not made by NewService
		return 0, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen, c.trusted.Load()
}

// putLocked stores the tenant's entry as change makes it of a copy of the
// current one (or of an empty one).
func (c *readCache) putLocked(tenantID string, change func(*tenantReads)) {
	var t tenantReads
	if cur, ok := c.tenants.Get(tenantID); ok {
		t = *cur
	}
	change(&t)
	c.tenants.Put(tenantID, &t)
}

func (c *readCache) putLatest(tenantID string, token uint64, id string, at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.trusted.Load() || token != c.gen {
		return
	}
	c.putLocked(tenantID, func(t *tenantReads) { t.latestID, t.latestLoadedAt = id, at })
}

// putOverrides stores a loaded set, giving it its version; the set is not
// versioned (and not stored) when the load may be stale.
func (c *readCache) putOverrides(tenantID string, token uint64, set *overrideSet, at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.trusted.Load() || token != c.gen {
		return
	}
	c.serial++
	set.versioned, set.version = true, c.serial
	c.putLocked(tenantID, func(t *tenantReads) { t.ov, t.ovLoadedAt = set, at })
}

// invalidate forgets a tenant's reads after a write.
func (c *readCache) invalidate(tenantID string) {
	if c == nil { // a Service not made by NewService
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.tenants.Remove(tenantID)
}

// purge forgets every tenant's reads.
func (c *readCache) purge() { c.reset(nil) }

// up starts trusting the cache: the feed listens, so from now on every
// write is heard of. What was cached before may have missed writes.
func (c *readCache) up() { c.reset(ptr(true)) }

// down stops trusting the cache until the next up.
func (c *readCache) down() { c.reset(ptr(false)) }

// reset forgets everything cached (a new generation, so that loads under
// way do not store what they read) and sets trust when it is given.
func (c *readCache) reset(trust *bool) {
	if c == nil { // a Service not made by NewService
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.tenants.Purge()
	if trust != nil {
		c.trusted.Store(*trust)
	}
}

func ptr[T any](v T) *T { return &v }

// latestSnapshot returns the id of the tenant's latest completed audit
// (not_found when it has none), from the cache when it can be trusted.
func (s *Service) latestSnapshot(ctx context.Context, tenantID string) (string, error) {
	if id, ok := s.reads.latest(tenantID, s.now()); ok {
		if id == "" {
			return "", errNoCompletedAudit
		}
		return id, nil
	}
	return s.loadLatestSnapshot(ctx, tenantID)
}

// loadLatestSnapshot is latestSnapshot's miss: the store's answer, kept
// when the cache allows. It is a function of its own so that the hit path
// keeps a small stack frame (an Audit is large, and every request passes
// here deep in the handler stack).
//
//go:noinline
func (s *Service) loadLatestSnapshot(ctx context.Context, tenantID string) (string, error) {
	now := s.now()
	token, cache := s.reads.begin()
	a, err := s.cfg.Audits.LatestCompletedAudit(ctx, tenantID)
	switch {
	case err == nil:
		if cache {
			s.reads.putLatest(tenantID, token, a.ID, now)
		}
		return a.ID, nil
	case engine.IsNotFound(err):
		if cache {
			s.reads.putLatest(tenantID, token, "", now)
		}
	}
	return "", err
}

// errNoCompletedAudit is LatestCompletedAudit's not_found, for cached misses.
var errNoCompletedAudit = engine.Errorf(engine.CodeNotFound, "the tenant has no completed audit yet")

// cachedOverrides returns the tenant's active decisions for a read, from
// the cache when it can be trusted.
func (s *Service) cachedOverrides(ctx context.Context, tenantID string) (*overrideSet, error) {
	if s.cfg.Overrides == nil {
		return noOverrides, nil
	}
	if set, ok := s.reads.overrides(tenantID, s.now()); ok {
		return set, nil
	}
	return s.loadOverrides(ctx, tenantID)
}

// loadOverrides is cachedOverrides' miss (kept apart for the same reason
// as loadLatestSnapshot).
//
//go:noinline
func (s *Service) loadOverrides(ctx context.Context, tenantID string) (*overrideSet, error) {
	now := s.now()
	token, cache := s.reads.begin()
	list, err := s.cfg.Overrides.ListOverrides(ctx, tenantID, now)
	if err != nil {
		return nil, err
	}
	set := newOverrideSet(list, now)
	if s.cfg.MuteRules != nil {
		mutes, err := s.cfg.MuteRules.ActiveMutes(ctx, tenantID, now)
		if err != nil {
			return nil, err
		}
		set = set.withMutes(mutes, now)
		if err := s.withMuteSets(ctx, tenantID, set); err != nil {
			return nil, err
		}
	}
	if cache {
		s.reads.putOverrides(tenantID, token, set, now)
	}
	return set, nil
}
