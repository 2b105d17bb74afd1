package engine

import (
	"container/list"
	"strconv"
	"strings"
	"sync"
	"time"
)

// DefaultPageCacheSize is how many finding pages a Service keeps.
const DefaultPageCacheSize = 512

// pageCache keeps recently read pages of finding snapshots. A completed
// audit's snapshot never changes, so a page read once — keyed by tenant,
// snapshot, filters, position, limit and the people's decisions the query
// was made with — stays true: the cache needs no invalidation and is safe
// in every replica. It is a plain LRU bounded by entries.
//
// It holds two kinds of entries: the store's rows for a query (items), and
// finished pages (rendered: the rows with the people's decisions applied and
// the next cursor), keyed also by the version of the decisions. A finished
// page is reused for at most a fraction of the cursor lifetime, so that the
// cursor it carries stays valid long after it is served.
type pageCache struct {
	mu     sync.Mutex
	max    int
	order  *list.List // of *pageEntry, most recent first
	byKey  map[string]*list.Element
	serial uint64 // numbers finished pages
}

type pageEntry struct {
	key      string
	items    []Finding // shared: never modified after insertion
	rendered *renderedPage
}

// renderedPage is a finished page and until when it may be served.
type renderedPage struct {
	page  Page[Finding] // Items shared: never modified
	until time.Time
}

func newPageCache(max int) *pageCache {
	if max <= 0 {
		return nil
	}
	return &pageCache{max: max, order: list.New(), byKey: map[string]*list.Element{}}
}

// pageKey identifies a store query on a snapshot.
func pageKey(q FindingQuery) string {
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
		b.WriteString(fingerprint(q.OnlyIDs...))
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
func renderedKey(q FindingQuery, version uint64, askedAuditID string) string {
	q.ForceResolved, q.ForceOpen = nil, nil
	var b strings.Builder
	b.WriteString(pageKey(q))
	b.WriteString("\x00r")
	b.WriteString(strconv.FormatUint(version, 36))
	b.WriteByte(0)
	b.WriteString(askedAuditID)
	return b.String()
}

func (c *pageCache) get(key string) ([]Finding, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[key]
	if !ok || e.Value.(*pageEntry).rendered != nil {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*pageEntry).items, true
}

func (c *pageCache) put(key string, items []Finding) {
	c.putEntry(&pageEntry{key: key, items: items})
}

// getRendered returns the finished page under key if it may still be
// served at now.
func (c *pageCache) getRendered(key string, now time.Time) (Page[Finding], bool) {
	if c == nil {
		return Page[Finding]{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[key]
	if !ok {
		return Page[Finding]{}, false
	}
	r := e.Value.(*pageEntry).rendered
	if r == nil || !now.Before(r.until) {
		return Page[Finding]{}, false
	}
	c.order.MoveToFront(e)
	return r.page, true
}

// putRendered keeps a finished page under key until the given time and
// returns it with its Key: key plus a number no other finished page of
// this cache gets, so that equal Keys mean equal pages, cursor included.
func (c *pageCache) putRendered(key string, page Page[Finding], until time.Time) Page[Finding] {
	if c == nil {
		return page
	}
	c.mu.Lock()
	c.serial++
	page.Key = key + "#" + strconv.FormatUint(c.serial, 36)
	c.mu.Unlock()
	c.putEntry(&pageEntry{key: key, rendered: &renderedPage{page: page, until: until}})
	return page
}

func (c *pageCache) putEntry(n *pageEntry) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[n.key]; ok {
		if n.rendered != nil { // a newer finished page replaces an expired one
			e.Value = n
		}
		c.order.MoveToFront(e)
		return
	}
	c.byKey[n.key] = c.order.PushFront(n)
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byKey, last.Value.(*pageEntry).key)
	}
}
