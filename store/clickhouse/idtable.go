package clickhouse

import (
	"math/bits"
	"math/rand/v2"
)

// idTable maps decoded resource ids to values: what a bulk write knows of
// them (tenantKnown.ids), or their place among a batch's new ids. The
// ids a write records (tenantKnown.recordRow) are a million in a first import
// of a million resources, each looked up once as new and then added.
//
// It is open addressing with linear probing over one array of 32-byte
// slots, where a slot holds its key. A lookup then touches one slot, or a
// few neighbours in the same or the next cache line; a Go map of that size
// touched its group's control word and then its slot, and growing it cost
// as much again (a first import of 1M resources spent ~1 s of CPU in the
// map). A key's home slot is the top bits of a keyed hash of the key, so
// that the slots are in hash order: growing the table walks the old array
// in order and writes the new one nearly in order too.
//
// The hash is keyed with a random seed per table: resource ids are
// SHA-256 of what the tenant sends, so a tenant could choose native ids
// whose ids share their top bits, which would pile them into one run of
// slots if the ids' own bits placed them.
type idTable[V any] struct {
	// meta[i] is 0 for an empty slot, else 0x80 | the low 7 bits of its
	// key's hash: one byte a slot, which stays in the cache (2 MiB for
	// 1M ids) where the slots (64 MiB) do not, so that a lookup of a new
	// id, the usual one, mostly reads meta alone.
	meta  []uint8
	slots []idSlot[V]
	shift uint   // a key's home slot is its hash >> shift
	n     int    // keys held
	max   int    // n at which the table grows
	seed  uint64 // the hash's key
}

type idSlot[V any] struct {
	hi, lo uint64
	v      V
}

const idTableMinBits = 10

// hash is the keyed hash of a key: its home slot and its meta byte.
func (t *idTable[V]) hash(hi, lo uint64) (home int, meta uint8) {
	h1, l1 := bits.Mul64(hi^t.seed, 0x9e3779b97f4a7c15)
	h2, l2 := bits.Mul64(lo^h1^l1, 0xbf58476d1ce4e5b9)
	h := h2 ^ l2
	return int(h >> t.shift), 0x80 | uint8(h)
}

// find returns the value held for a key.
func (t *idTable[V]) find(hi, lo uint64) (v V, ok bool) {
	if t.n == 0 {
		return v, false
	}
	mask := len(t.meta) - 1
	i, m := t.hash(hi, lo)
	for ; ; i = (i + 1) & mask {
		switch t.meta[i] {
		case 0:
			return v, false
		case m:
			if s := &t.slots[i]; s.hi == hi && s.lo == lo {
				return s.v, true
			}
		}
	}
}

// set holds v for a key, in place of what it held.
func (t *idTable[V]) set(hi, lo uint64, v V) {
	if t.n >= t.max {
		t.grow()
	}
	mask := len(t.meta) - 1
	i, m := t.hash(hi, lo)
	for ; ; i = (i + 1) & mask {
		switch t.meta[i] {
		case 0:
			t.meta[i], t.slots[i] = m, idSlot[V]{hi: hi, lo: lo, v: v}
			t.n++
			return
		case m:
			if s := &t.slots[i]; s.hi == hi && s.lo == lo {
				s.v = v
				return
			}
		}
	}
}

// grow doubles the table (or makes its first one) and puts every key back.
func (t *idTable[V]) grow() {
	oldMeta, oldSlots := t.meta, t.slots
	b := uint(idTableMinBits)
	if len(oldMeta) > 0 {
		b = uint(bits.Len(uint(len(oldMeta))))
	} else {
		t.seed = rand.Uint64()
	}
	t.meta, t.slots = make([]uint8, 1<<b), make([]idSlot[V], 1<<b)
	t.shift = 64 - b
	// At most 5/8 full: most lookups of a first import are of new ids,
	// and a miss walks to the end of its run of used slots.
	t.max = len(t.meta) / 8 * 5
	mask := len(t.meta) - 1
	for j, om := range oldMeta {
		if om == 0 {
			continue
		}
		s := &oldSlots[j]
		i, m := t.hash(s.hi, s.lo)
		for t.meta[i] != 0 {
			i = (i + 1) & mask
		}
		t.meta[i], t.slots[i] = m, *s
	}
}

// reset empties the table, keeping its memory (and its seed).
func (t *idTable[V]) reset() {
	if t.n > 0 {
		clear(t.meta)
		t.n = 0
	}
}
