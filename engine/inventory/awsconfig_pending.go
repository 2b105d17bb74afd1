package inventory

import "github.com/fourd-dev/fourd/engine"

// Configuration history in forward order (a history file AWS Config
// delivers to S3, get-resource-config-history --chronological-order
// Forward) holds a resource's live versions before the ResourceDeleted
// item that ends it. A streamed resource cannot be taken back once
// yielded, so the decoder keeps the versioned items of a history input
// (those it tracks by capture time) pending, up to maxPendingBytes of
// attributes: a later deletion of the same resource drops its pending
// version, and a newer version replaces it. Pending items come out in
// input order when the buffer is full (the oldest first) and at the end
// of the input. A deletion read after its resource left the buffer does
// not retract it (the known limit: more than maxPendingBytes of other
// items in between), except for the resources the joiner holds to the
// end anyway.

// maxPendingBytes bounds the attributes held pending (about 16k typical
// resources); a variable so that tests can make the buffer overflow.
var maxPendingBytes = 16 << 20

// pendingOverhead is what a pending resource costs beyond its attributes.
const pendingOverhead = 256

type pendingItem struct {
	key  uint64
	res  engine.Resource
	gone bool // dropped: deleted or replaced by a newer version
}

// pending is the decoder's buffer of versioned items.
type pending struct {
	items []pendingItem
	at    map[uint64]int // key → absolute index of its live entry
	base  int            // absolute index of items[0]
	bytes int
}

// add keeps res (the newest version so far of the resource key names),
// replacing a pending older version, and returns the resources that leave
// the buffer to keep it within maxPendingBytes.
func (p *pending) add(key uint64, res engine.Resource) []engine.Resource {
	if p.at == nil {
		p.at = map[uint64]int{}
	}
	p.drop(key)
	p.at[key] = p.base + len(p.items)
	p.items = append(p.items, pendingItem{key: key, res: res})
	p.bytes += len(res.Attributes) + pendingOverhead
	var out []engine.Resource
	for p.bytes > maxPendingBytes && len(p.items) > 0 {
		out = append(out, p.shift()...)
	}
	return out
}

// drop forgets the pending version of key, if any; it reports whether
// there was one.
func (p *pending) drop(key uint64) bool {
	i, ok := p.at[key]
	if !ok {
		return false
	}
	delete(p.at, key)
	i -= p.base
	p.bytes -= len(p.items[i].res.Attributes) + pendingOverhead
	p.items[i] = pendingItem{gone: true}
	return true
}

// shift takes the oldest entry out of the buffer: its resource unless it
// was dropped.
func (p *pending) shift() []engine.Resource {
	it := p.items[0]
	p.items[0] = pendingItem{}
	p.items = p.items[1:]
	p.base++
	if it.gone {
		return nil
	}
	delete(p.at, it.key)
	p.bytes -= len(it.res.Attributes) + pendingOverhead
	return []engine.Resource{it.res}
}

// all empties the buffer: the pending resources in input order.
func (p *pending) all() []engine.Resource {
	var out []engine.Resource
	for _, it := range p.items {
		if !it.gone {
			out = append(out, it.res)
		}
	}
	p.base += len(p.items)
	p.items, p.at, p.bytes = nil, nil, 0
	return out
}
