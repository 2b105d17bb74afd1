package clickhouse

import (
	"context"
	"strings"
)

// tenantKnown is the ids a tenant has, with their first sightings in Unix
// seconds (what DateTime holds) and the content hash of their latest row. A
// big tenant has millions of ids, kept for the whole of a bulk write:
// resource ids are 128-bit hashes written as "res_" and 26 base32
// characters, so they are kept decoded, as 16-byte keys. Such a map holds
// no pointer, so the garbage collector never scans it (with string keys it
// scanned every entry at every cycle, a fifth of a re-import's CPU), and it
// takes a third of the memory. An id that does not decode (none should: ids
// are checked on the way in) is kept by its text.
type tenantKnown struct {
	ids   map[[16]byte]knownResource
	other map[string]knownResource
}

// knownResource is what a bulk write keeps of a stored resource.
type knownResource struct {
	hash    uint64 // content_hash of its latest row; 0: not known
	version uint64 // that row's version (while the rows are read)
	first   uint32 // first sighting, Unix seconds
}

func newTenantKnown() *tenantKnown {
	return &tenantKnown{ids: map[[16]byte]knownResource{}}
}

// get returns what k holds of id.
func (k *tenantKnown) get(id string) (knownResource, bool) {
	if key, ok := decodeResourceID(id); ok {
		kr, ok := k.ids[key]
		return kr, ok
	}
	kr, ok := k.other[id]
	return kr, ok
}

// record notes that a row of id with content hash was written, first seen
// at unix unless k already has a first sighting of it.
func (k *tenantKnown) record(id string, unix int64, hash uint64) {
	// DateTime is UInt32: the rows' times were checked to fit (toCHTime).
	kr := knownResource{hash: hash, first: uint32(unix)}
	if key, ok := decodeResourceID(id); ok {
		if old, ok := k.ids[key]; ok {
			kr.first = old.first
		}
		k.ids[key] = kr
		return
	}
	if k.other == nil {
		k.other = map[string]knownResource{}
	}
	if old, ok := k.other[id]; ok {
		kr.first = old.first
	}
	k.other[id] = kr
}

// len is how many ids k holds.
func (k *tenantKnown) len() int { return len(k.ids) + len(k.other) }

// idDigit maps a byte of idAlphabet to its value and any other byte to 0xff.
var idDigit = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for i := range len(idAlphabet) {
		t[idAlphabet[i]] = byte(i)
	}
	return t
}()

// decodeResourceID returns the 128 bits a resource id encodes; ok is false
// for anything but "res_" and 26 characters of idAlphabet, the first of
// them at most '7' (it holds 3 bits), so that two ids share a key only if
// they are equal.
func decodeResourceID(id string) (key [16]byte, ok bool) {
	const prefix, bodyLen = "res_", 26
	if len(id) != len(prefix)+bodyLen || !strings.HasPrefix(id, prefix) {
		return key, false
	}
	var hi, lo uint64
	for i := len(prefix); i < len(id); i++ {
		d := idDigit[id[i]]
		if d == 0xff || (i == len(prefix) && d > 7) {
			return key, false
		}
		hi = hi<<5 | lo>>59
		lo = lo<<5 | uint64(d)
	}
	for i := range 8 {
		key[i] = byte(hi >> (56 - 8*i))
		key[8+i] = byte(lo >> (56 - 8*i))
	}
	return key, true
}

// loadKnown reads every id of a tenant with its first sighting and the
// content hash of its latest row. It reads the rows as they are and
// resolves an id's several rows itself: since unchanged observations are
// sightings (resources_sightings.go), and merges keep only an id's latest
// row, most ids have one row, and the server's GROUP BY id would cost it
// five times the scan.
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
	out := &tenantKnown{ids: make(map[[16]byte]knownResource, min(n, 1<<26))}
	for rows.Next() {
		var id string
		var kr knownResource
		if err := rows.Scan(&id, &kr.first, &kr.hash, &kr.version); err != nil {
			return nil, err
		}
		if key, ok := decodeResourceID(id); ok {
			if old, dup := out.ids[key]; dup {
				kr = old.merge(kr)
			}
			out.ids[key] = kr
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
	return out, rows.Err()
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
