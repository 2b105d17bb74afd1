package clickhouse

import (
	"cmp"
	"context"
	"encoding/binary"
	"math/bits"
	"slices"

	"github.com/fourd-dev/fourd/engine"
)

// tenantKnown is the ids a tenant has, with their first sightings in Unix
// seconds (what DateTime holds) and the content hash of their latest row. A
// big tenant has millions of ids, kept for the whole of a bulk write:
// resource ids are 128-bit hashes written as "res_" and 26 base32
// characters, so they are kept decoded, as 16-byte keys, in structures
// without pointers, which the garbage collector never scans (with string
// keys it scanned every entry at every cycle, a fifth of a re-import's CPU).
// The ids read from the store (loadKnown) are a sorted array with a
// directory (knownSet); those recorded during the write go to an
// idTable, looked at first. An id that does not decode (none should: ids
// are checked on the way in) is kept by its text.
type tenantKnown struct {
	loaded knownSet
	ids    idTable[knownValue]
	other  map[string]knownResource
	// batch is firstSeenKnown's: a batch's new ids, by their place.
	batch idTable[int32]
}

// knownResource is what a bulk write keeps of a stored resource.
type knownResource struct {
	hash    uint64 // content_hash of its latest row; 0: not known
	version uint64 // that row's version (while the rows are read)
	first   uint32 // first sighting, Unix seconds
}

func newTenantKnown() *tenantKnown {
	return &tenantKnown{}
}

// get returns what k holds of id.
func (k *tenantKnown) get(id string) (knownResource, bool) {
	if key, ok := decodeResourceID(id); ok {
		if v, ok := k.ids.find(keyHalves(key)); ok {
			return v.resource(), true
		}
		return k.loaded.find(key)
	}
	kr, ok := k.other[id]
	return kr, ok
}

// getRow is get of row's id, decoded once (resourceRow.key).
func (k *tenantKnown) getRow(row *resourceRow) (knownResource, bool) {
	if !row.keyed {
		return k.get(row.r.ID)
	}
	if v, ok := k.ids.find(keyHalves(row.key)); ok {
		return v.resource(), true
	}
	return k.loaded.find(row.key)
}

// recordRow is record of row (its id decoded once, its content hash).
func (k *tenantKnown) recordRow(row *resourceRow, unix int64) {
	if !row.keyed {
		k.record(row.r.ID, unix, row.hash)
		return
	}
	hi, lo := keyHalves(row.key)
	k.ids.set(hi, lo, valueOf(knownResource{hash: row.hash, first: uint32(unix)}))
}

// record notes that a row of id with content hash was written, first seen
// at unix: what firstSeenKnown decided for the row, which for an id k
// knows is the first sighting k holds, so record need not look it up again
// (doing so cost a first import of 1M resources ~0.4 s of CPU).
func (k *tenantKnown) record(id string, unix int64, hash uint64) {
	// DateTime is UInt32: the rows' times were checked to fit (toCHTime).
	kr := knownResource{hash: hash, first: uint32(unix)}
	if key, ok := decodeResourceID(id); ok {
		hi, lo := keyHalves(key)
		k.ids.set(hi, lo, valueOf(kr))
		return
	}
	if k.other == nil {
		k.other = map[string]knownResource{}
	}
	k.other[id] = kr
}

// knownSet is a sorted array of decoded ids with a directory: dir[p] is
// the index of the first id whose key's top bits are ≥ p. Ids are hashes,
// spread evenly, so a directory slot spans a few dozen ids, and within it
// an id's place is about where its next bits say: a lookup starts there
// and steps a few entries of his, one cache line, where a map of millions
// touches two or three scattered ones. The halves of the keys and the
// values are kept apart so that the steps read keys only.
type knownSet struct {
	his, los []uint64
	vals     []knownValue
	dir      []uint32
	bits     uint // the directory's bits: a slot is hi >> (64 - bits)
}

// knownValue is knownResource without the version, which only loading
// needs, in 12 bytes (a uint64 field would pad it to 16): maps and arrays
// of millions of them are what a bulk write keeps, and their size is its
// cache misses.
type knownValue struct {
	hashHi, hashLo, first uint32
}

func valueOf(kr knownResource) knownValue {
	return knownValue{hashHi: uint32(kr.hash >> 32), hashLo: uint32(kr.hash), first: kr.first}
}

func (v knownValue) resource() knownResource {
	return knownResource{hash: uint64(v.hashHi)<<32 | uint64(v.hashLo), first: v.first}
}

type knownEntry struct {
	hi, lo uint64 // the key, big-endian halves
	knownResource
}

func keyHalves(key [16]byte) (hi, lo uint64) {
	return binary.BigEndian.Uint64(key[:8]), binary.BigEndian.Uint64(key[8:])
}

// newKnownSet sorts entries, merges the rows of one id (knownResource.
// merge) and builds the set; entries is reused.
func newKnownSet(entries []knownEntry) knownSet {
	slices.SortFunc(entries, func(a, b knownEntry) int {
		if c := cmp.Compare(a.hi, b.hi); c != 0 {
			return c
		}
		return cmp.Compare(a.lo, b.lo)
	})
	out := entries[:0]
	for _, e := range entries {
		if n := len(out); n > 0 && out[n-1].hi == e.hi && out[n-1].lo == e.lo {
			out[n-1].knownResource = out[n-1].merge(e.knownResource)
			continue
		}
		out = append(out, e)
	}
	var set knownSet
	for len(out)>>set.bits > 32 && set.bits < 24 {
		set.bits++
	}
	n := len(out)
	set.his, set.los, set.vals = make([]uint64, n), make([]uint64, n), make([]knownValue, n)
	for i, e := range out {
		set.his[i], set.los[i], set.vals[i] = e.hi, e.lo, valueOf(e.knownResource)
	}
	set.dir = make([]uint32, 1<<set.bits+1)
	i := 0
	for p := range 1 << set.bits {
		for i < n && set.slot(set.his[i]) < p {
			i++
		}
		set.dir[p] = uint32(i)
	}
	set.dir[1<<set.bits] = uint32(n)
	return set
}

// slot is hi's directory slot (with no bits, the one slot 0: a shift by
// 64 gives 0).
func (s *knownSet) slot(hi uint64) int { return int(hi >> (64 - s.bits)) }

// find returns what the set holds of key.
func (s *knownSet) find(key [16]byte) (knownResource, bool) {
	hi, lo := keyHalves(key)
	p := s.slot(hi)
	if p+1 >= len(s.dir) {
		return knownResource{}, false
	}
	a, b := int(s.dir[p]), int(s.dir[p+1])
	if a == b {
		return knownResource{}, false
	}
	// The bits below the slot's, as a fraction of the slot's span.
	g, _ := bits.Mul64(hi<<s.bits, uint64(b-a))
	i := a + int(g)
	below := func(i int) bool { return s.his[i] < hi || (s.his[i] == hi && s.los[i] < lo) }
	for i > a && !below(i-1) {
		i--
	}
	for i < b && below(i) {
		i++
	}
	if i < b && s.his[i] == hi && s.los[i] == lo {
		return s.vals[i].resource(), true
	}
	return knownResource{}, false
}

// decodeResourceID returns the 128 bits a resource id encodes; ok is false
// for anything but a well-formed resource id (engine.ParseID), so that two
// ids share a key only if they are equal.
func decodeResourceID(id string) (key [16]byte, ok bool) {
	return engine.ParseID(engine.PrefixResource, id)
}

// loadKnown reads every id of a tenant with its first sighting and the
// content hash of its latest row. It reads the rows as they are and sorts
// and resolves an id's several rows itself (newKnownSet): since unchanged
// observations are sightings (resources_sightings.go), and merges keep only
// an id's latest row, most ids have one row, and the server's GROUP BY id
// would cost it five times the scan.
func (s *Store) loadKnown(ctx context.Context, tenantID string) (*tenantKnown, error) {
	var n uint64
	if err := s.conn.QueryRow(ctx, "SELECT count() FROM resources WHERE tenant_id = ?", tenantID).Scan(&n); err != nil {
		return nil, err
	}
	rows, err := s.conn.Query(ctx, "SELECT id, toUInt32(first_seen_at), content_hash, version FROM resources WHERE tenant_id = ?", tenantID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := newTenantKnown()
	entries := make([]knownEntry, 0, min(n, 1<<26))
	for rows.Next() {
		var id string
		var kr knownResource
		if err := rows.Scan(&id, &kr.first, &kr.hash, &kr.version); err != nil {
			return nil, err
		}
		if key, ok := decodeResourceID(id); ok {
			hi, lo := keyHalves(key)
			entries = append(entries, knownEntry{hi, lo, kr})
			continue
		}
		if out.other == nil {
			out.other = map[string]knownResource{}
		}
		if old, dup := out.other[id]; dup {
			kr = old.merge(kr)
		}
		out.other[id] = kr
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out.loaded = newKnownSet(entries)
	return out, nil
}

// merge is what is known of an id from two of its rows: the earlier first
// sighting, and the hash of the later version (of the row read later when
// the versions are equal, a tie whose winner the table does not define
// either).
func (kr knownResource) merge(later knownResource) knownResource {
	later.first = min(kr.first, later.first)
	if later.version < kr.version {
		later.hash, later.version = kr.hash, kr.version
	}
	return later
}
