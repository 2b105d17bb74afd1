package engine

import (
	"container/list"
	"strings"
	"sync"
)

// DefaultPageCacheSize is how many finding pages a Service keeps.
const DefaultPageCacheSize = 512

// pageCache keeps recently read pages of finding snapshots. A completed
// audit's snapshot never changes, so a page read once — keyed by tenant,
// snapshot, filters, position, limit and the people's decisions the query
// was made with — stays true: the cache needs no invalidation and is safe
// in every replica. It is a plain LRU bounded by entries.
type pageCache struct {
	mu    sync.Mutex
	max   int
	order *list.List // of *pageEntry, most recent first
	byKey map[string]*list.Element
}

type pageEntry struct {
	key   string
	items []Finding // shared: never modified after insertion
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
	}
	return b.String()
}

func (c *pageCache) get(key string) ([]Finding, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*pageEntry).items, true
}

func (c *pageCache) put(key string, items []Finding) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[key]; ok {
		c.order.MoveToFront(e)
		return
	}
	c.byKey[key] = c.order.PushFront(&pageEntry{key: key, items: items})
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byKey, last.Value.(*pageEntry).key)
	}
}
