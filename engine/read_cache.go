package engine

import (
	"context"
	"sync"
	"time"
)

// Read cache bounds.
const (
	// readCacheMaxAge is the most a cached latest audit or override set is
	// trusted even while the change feed reports nothing: a bound on
	// staleness should a notification ever be lost without the feed
	// noticing.
	readCacheMaxAge = time.Minute
	// readCacheMaxCost bounds the cache: one unit per tenant plus one per
	// cached override.
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
type readCache struct {
	mu      sync.RWMutex
	trusted bool
	gen     uint64
	tenants map[string]*tenantReads
	cost    int
	serial  uint64 // versions of loaded override sets
}

// tenantReads is one tenant's cached reads; a zero loadedAt is "not cached".
type tenantReads struct {
	latestID       string // "" when the tenant has no completed audit
	latestLoadedAt time.Time
	ov             *overrideSet
	ovLoadedAt     time.Time
}

// overrideSet is a tenant's active overrides as one immutable value.
type overrideSet struct {
	byID map[string]FindingOverride
	// resolved and open are the ids forced to each status, sorted, for
	// FindingQuery (shared: never modified).
	resolved, open []string
	// versioned sets tell apart by version: two sets with the same version
	// are the same set. Sets read past the cache are not versioned.
	versioned bool
	// mutes are the tenant's active mute rules and the snapshots each was
	// applied to.
	mutes []ActiveMute
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

func newOverrideSet(list []FindingOverride, now time.Time) *overrideSet {
	if len(list) > maxOverrides {
		list = list[len(list)-maxOverrides:]
	}
	set := &overrideSet{byID: make(map[string]FindingOverride, len(list))}
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
	return &readCache{tenants: map[string]*tenantReads{}}
}

// latest returns the cached latest completed audit id ("" for none) and
// whether there was a fresh entry.
func (c *readCache) latest(tenantID string, now time.Time) (string, bool) {
	if c == nil { // a Service not made by NewService
		return "", false
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	t := c.tenants[tenantID]
	if !c.trusted || t == nil || t.latestLoadedAt.IsZero() || now.Sub(t.latestLoadedAt) >= readCacheMaxAge {
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
	c.mu.RLock()
	defer c.mu.RUnlock()
	t := c.tenants[tenantID]
	if !c.trusted || t == nil || t.ov == nil || now.Sub(t.ovLoadedAt) >= readCacheMaxAge ||
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
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.gen, c.trusted
}

// entryLocked returns the tenant's entry, creating it.
func (c *readCache) entryLocked(tenantID string) *tenantReads {
	t := c.tenants[tenantID]
	if t == nil {
		t = &tenantReads{}
		c.tenants[tenantID] = t
		c.cost++
	}
	return t
}

func (c *readCache) putLatest(tenantID string, token uint64, id string, at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.trusted || token != c.gen {
		return
	}
	t := c.entryLocked(tenantID)
	t.latestID, t.latestLoadedAt = id, at
	c.evictLocked(tenantID)
}

// putOverrides stores a loaded set, giving it its version; the set is not
// versioned (and not stored) when the load may be stale.
func (c *readCache) putOverrides(tenantID string, token uint64, set *overrideSet, at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.trusted || token != c.gen {
		return
	}
	c.serial++
	set.versioned, set.version = true, c.serial
	t := c.entryLocked(tenantID)
	if t.ov != nil {
		c.cost -= len(t.ov.byID)
	}
	t.ov, t.ovLoadedAt = set, at
	c.cost += len(set.byID)
	c.evictLocked(tenantID)
}

// evictLocked drops other tenants' entries (in map order, which Go
// randomizes) while the cache is over its cost bound.
func (c *readCache) evictLocked(keep string) {
	for id, t := range c.tenants {
		if c.cost <= readCacheMaxCost {
			return
		}
		if id != keep {
			c.dropLocked(id, t)
		}
	}
}

func (c *readCache) dropLocked(id string, t *tenantReads) {
	c.cost--
	if t.ov != nil {
		c.cost -= len(t.ov.byID)
	}
	delete(c.tenants, id)
}

// invalidate forgets a tenant's reads after a write.
func (c *readCache) invalidate(tenantID string) {
	if c == nil { // a Service not made by NewService
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	if t := c.tenants[tenantID]; t != nil {
		c.dropLocked(tenantID, t)
	}
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
	clear(c.tenants)
	c.cost = 0
	if trust != nil {
		c.trusted = *trust
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
	case IsNotFound(err):
		if cache {
			s.reads.putLatest(tenantID, token, "", now)
		}
	}
	return "", err
}

// errNoCompletedAudit is LatestCompletedAudit's not_found, for cached misses.
var errNoCompletedAudit = Errorf(CodeNotFound, "the tenant has no completed audit yet")

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
