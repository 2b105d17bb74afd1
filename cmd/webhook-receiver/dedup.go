package main

import (
	"container/list"
	"sync"
	"time"
)

// dedup remembers recently seen event ids, bounded both in count (least
// recently seen evicted first) and in age. fourd retries an event for up to
// 24 hours, so a TTL of a day catches every retry of a delivery that was
// acknowledged but whose acknowledgement was lost.
type dedup struct {
	mu    sync.Mutex
	max   int
	ttl   time.Duration
	order *list.List // front: most recently seen; values are *dedupEntry
	byID  map[string]*list.Element
}

type dedupEntry struct {
	id   string
	seen time.Time
}

func newDedup(max int, ttl time.Duration) *dedup {
	return &dedup{max: max, ttl: ttl, order: list.New(), byID: make(map[string]*list.Element, max)}
}

// add records id as seen at now. It returns false when id was already seen
// within the TTL (a duplicate), true when it is new.
func (d *dedup) add(id string, now time.Time) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if el, ok := d.byID[id]; ok {
		e := el.Value.(*dedupEntry)
		if now.Sub(e.seen) < d.ttl {
			d.order.MoveToFront(el)
			return false
		}
		e.seen = now
		d.order.MoveToFront(el)
		return true
	}
	d.byID[id] = d.order.PushFront(&dedupEntry{id: id, seen: now})
	for d.order.Len() > d.max {
		d.removeElement(d.order.Back())
	}
	// Drop expired entries from the old end while we hold the lock.
	for el := d.order.Back(); el != nil && now.Sub(el.Value.(*dedupEntry).seen) >= d.ttl; el = d.order.Back() {
		d.removeElement(el)
	}
	return true
}

// forget removes id, so a retry of an event that could not be queued is
// processed.
func (d *dedup) forget(id string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if el, ok := d.byID[id]; ok {
		d.removeElement(el)
	}
}

func (d *dedup) len() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.order.Len()
}

func (d *dedup) removeElement(el *list.Element) {
	delete(d.byID, el.Value.(*dedupEntry).id)
	d.order.Remove(el)
}
