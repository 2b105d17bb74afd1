package findings

import (
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/cache"
)

// pageCache keeps recently read pages of finding snapshots. A completed
// audit's snapshot never changes, so a page read once — keyed by tenant,
// snapshot, filters, position, limit and the people's decisions the query
// was made with — stays true: the cache needs no invalidation and is safe
// in every replica. It is an LRU bounded by entries (internal/cache).
//
// It holds two kinds of entries: the store's rows for a query (items), and
// finished pages (rendered: the rows with the people's decisions applied and
// the next cursor), keyed also by the version of the decisions. A finished
// page is reused for at most a fraction of the cursor lifetime, so that the
// cursor it carries stays valid long after it is served.
type pageCache struct {
	lru    *cache.LRU[string, *pageEntry]
	serial atomic.Uint64 // numbers finished pages
}

type pageEntry struct {
	items    []engine.Finding // shared: never modified after insertion
	rendered *renderedPage
}

// renderedPage is a finished page and until when it may be served.
type renderedPage struct {
	page  engine.Page[engine.Finding] // Items shared: never modified
	until time.Time
}

func newPageCache(max int) *pageCache {
	if max <= 0 {
		return nil
	}
	return &pageCache{lru: cache.New(cache.Options[string, *pageEntry]{MaxCost: max})}
}

// pageKey identifies a store query on a snapshot.
func pageKey(q engine.FindingQuery) string {
	var b strings.Builder
	f := q.Filter
	for _, s := range []string{q.TenantID, f.AuditID, string(f.Severity), string(f.Dimension), string(f.Status),
		f.ResourceID, f.RuleID, f.ResourceType, f.Account, f.Region} {
		b.WriteString(s)
		b.WriteByte(0)
	}
	b.WriteString(rowFilterFingerprint(f))
	b.WriteByte(0)
	if q.OnlyIDs != nil {
		b.WriteString(engine.Fingerprint(q.OnlyIDs...))
	}
	b.WriteByte(0)
	if q.After != nil {
		b.WriteString(q.After.ID)
		b.WriteByte(byte('0' + q.After.SeverityRank))
	}
	b.WriteByte(0)
	b.WriteString(string(rune(q.Limit)))
	// Forced statuses change the rows only under a status filter.
	if f.Status != "" {
		b.WriteString(strings.Join(q.ForceResolved, ","))
		b.WriteByte(0)
		b.WriteString(strings.Join(q.ForceOpen, ","))
		for _, m := range q.Mutes {
			b.WriteByte(0)
			b.WriteString(m.RuleID)
			b.WriteString(strconv.Itoa(m.Version))
		}
	}
	return b.String()
}

// renderedKey identifies a finished page: the query without its forced
// statuses (which the decisions' version stands for), that version, and the
// audit id the caller named ("" for the latest snapshot), which the page's
// cursor is bound to.
func renderedKey(q engine.FindingQuery, version uint64, askedAuditID string) string {
	q.ForceResolved, q.ForceOpen = nil, nil
	var b strings.Builder
	b.WriteString(pageKey(q))
	b.WriteString("\x00r")
	b.WriteString(strconv.FormatUint(version, 36))
	b.WriteByte(0)
	b.WriteString(askedAuditID)
	return b.String()
}

func (c *pageCache) get(key string) ([]engine.Finding, bool) {
	if c == nil {
		return nil, false
	}
	e, ok := c.lru.Get(key)
	if !ok || e.rendered != nil {
		return nil, false
	}
	return e.items, true
}

// put keeps a store page; one already kept under key stays.
func (c *pageCache) put(key string, items []engine.Finding) {
	if c == nil {
		return
	}
	c.lru.Add(key, &pageEntry{items: items})
}

// getRendered returns the finished page under key if it may still be
// served at now.
func (c *pageCache) getRendered(key string, now time.Time) (engine.Page[engine.Finding], bool) {
	if c == nil {
		return engine.Page[engine.Finding]{}, false
	}
	e, ok := c.lru.Get(key)
	if !ok || e.rendered == nil || !now.Before(e.rendered.until) {
		return engine.Page[engine.Finding]{}, false
	}
	return e.rendered.page, true
}

// putRendered keeps a finished page under key until the given time (a
// newer one replaces one that expired) and returns it with its Key: key
// plus a number no other finished page of this cache gets, so that equal
// Keys mean equal pages, cursor included.
func (c *pageCache) putRendered(key string, page engine.Page[engine.Finding], until time.Time) engine.Page[engine.Finding] {
	if c == nil {
		return page
	}
	page.Key = key + "#" + strconv.FormatUint(c.serial.Add(1), 36)
	c.lru.Put(key, &pageEntry{rendered: &renderedPage{page: page, until: until}})
	return page
}

// DefaultPageCacheSize is how many finding pages a Service keeps.
const DefaultPageCacheSize = 512
