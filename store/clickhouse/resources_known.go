package clickhouse

import (
	"context"
	"strings"
)

// tenantKnown is the ids a tenant has, with their first sightings in Unix
// seconds (what DateTime holds). A big tenant has millions of ids, kept for
// the whole of a bulk write: resource ids are 128-bit hashes written as
// "res_" and 26 base32 characters, so they are kept decoded, as 16-byte
// keys with 4-byte values. Such a map holds no pointer, so the garbage
// collector never scans it (with string keys it scanned every entry at
// every cycle, a fifth of a re-import's CPU), and it takes a third of the
// memory. An id that does not decode (none should: ids are checked on the
// way in) is kept by its text.
type tenantKnown struct {
	ids   map[[16]byte]uint32
	other map[string]uint32
}

func newTenantKnown() *tenantKnown {
	return &tenantKnown{ids: map[[16]byte]uint32{}}
}

// get returns the first sighting of id, in Unix seconds.
func (k *tenantKnown) get(id string) (int64, bool) {
	if key, ok := decodeResourceID(id); ok {
		t, ok := k.ids[key]
		return int64(t), ok
	}
	t, ok := k.other[id]
	return int64(t), ok
}

// addNew records the first sighting of id unless it has one.
func (k *tenantKnown) addNew(id string, unix int64) {
	// DateTime is UInt32: the rows' times were checked to fit (toCHTime).
	t := uint32(unix)
	if key, ok := decodeResourceID(id); ok {
		if _, ok := k.ids[key]; !ok {
			k.ids[key] = t
		}
		return
	}
	if k.other == nil {
		k.other = map[string]uint32{}
	}
	if _, ok := k.other[id]; !ok {
		k.other[id] = t
	}
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

// loadKnown reads every id of a tenant with its first sighting.
func (s *Store) loadKnown(ctx context.Context, tenantID string) (*tenantKnown, error) {
	rows, err := s.conn.Query(ctx, "SELECT id, toUInt32(min(first_seen_at)) FROM resources WHERE tenant_id = ? GROUP BY id", tenantID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := newTenantKnown()
	for rows.Next() {
		var id string
		var t uint32
		if err := rows.Scan(&id, &t); err != nil {
			return nil, err
		}
		out.addNew(id, int64(t))
	}
	return out, rows.Err()
}
