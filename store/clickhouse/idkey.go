package clickhouse

import (
	"fmt"
	"strings"

	"github.com/fourd-dev/fourd/engine"
)

// Since migration 0013 a finding id is stored in snapshot_findings and
// snapshot_finding_index as the 16 bytes its text encodes (engine.ParseID):
// FixedString(16), which sorts like the text. The store turns ids into
// their bytes at its queries' edges and back when it reads, so nothing
// outside this package sees the bytes.

// idBytesLen is the length of a stored finding id.
const idBytesLen = 16

// findingIDKey returns the stored form of a finding id; ok is false when id
// is no well-formed finding id, which no stored row can have.
func findingIDKey(id string) (string, bool) {
	b, ok := engine.ParseID(engine.PrefixFinding, id)
	if !ok {
		return "", false
	}
	return string(b[:]), true
}

// findingIDKeys returns the stored forms of the well-formed ids among ids:
// the others match no row.
func findingIDKeys(ids []string) []string {
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if k, ok := findingIDKey(id); ok {
			out = append(out, k)
		}
	}
	return out
}

// findingIDText is the text of a stored finding id.
func findingIDText(key string) (string, error) {
	if len(key) != idBytesLen {
		return "", fmt.Errorf("stored finding id of %d bytes; want %d", len(key), idBytesLen)
	}
	return engine.FormatID(engine.PrefixFinding, [idBytesLen]byte([]byte(key))), nil
}

// idRangeKey is the stored form of a key range bound: a finding id, or a
// bound made by idBound (its first characters), read as the number whose
// leading base32 digits they are (missing digits 0, as idPos counts
// characters outside the alphabet). For a well-formed id it is
// findingIDKey's; for a bound, `id < idRangeKey(b)` holds for the same ids
// as `id < b` did on text.
func idRangeKey(bound string) string {
	_, body, ok := strings.Cut(bound, "_")
	if !ok {
		body = bound
	}
	var hi, lo uint64
	for i := range 26 {
		var d uint64
		if i < len(body) {
			if j, ok := engine.IDDigit(body[i]); ok {
				d = uint64(j)
			}
		}
		hi = hi<<5 | lo>>59
		lo = lo<<5 | d
	}
	var b [idBytesLen]byte
	for i := range 8 {
		b[i] = byte(hi >> (56 - 8*i))
		b[8+i] = byte(lo >> (56 - 8*i))
	}
	return string(b[:])
}
