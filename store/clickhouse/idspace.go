package clickhouse

import (
	"strings"

	"github.com/fourd-dev/fourd/engine"
)

// Derived ids (engine.DerivedID) are hashes: "<prefix>_" and 26 characters
// of lowercase Crockford base32 whose first character holds 3 bits. They are
// uniform over the id space and sort like the numbers they encode, so the
// first idPosChars characters give a position in [0, idSpace) from which a
// key range expected to hold a given number of rows can be computed.

// idPosChars characters hold 3 + 11*5 = 58 bits.
const idPosChars = 12

const idSpace = uint64(1) << 58

// idPos is the position of an id (or of a bound made by idBound) in the id
// space. Characters outside the alphabet count as 0.
func idPos(id string) uint64 {
	_, body, ok := strings.Cut(id, "_")
	if !ok {
		body = id
	}
	var v uint64
	for i := range idPosChars {
		v <<= 5
		if i < len(body) {
			if d, ok := engine.IDDigit(body[i]); ok {
				v |= uint64(d)
			}
		}
	}
	if v >= idSpace {
		return idSpace - 1
	}
	return v
}

// idBound is the shortest string that sorts before every id of the prefix at
// position pos or later and after every id before it: `id < idBound(p)`
// holds exactly for the ids whose position is below p.
func idBound(prefix string, pos uint64) string {
	var out [idPosChars]byte
	for i := idPosChars - 1; i >= 0; i-- {
		out[i] = engine.IDAlphabet[pos&31]
		pos >>= 5
	}
	return prefix + "_" + string(out[:])
}

// rangeEnd returns the exclusive upper bound of a key range that starts at
// lo and is expected to hold want of the bucket's total rows (which are
// uniform over the id space), times factor; "" when it reaches the end.
func rangeEnd(prefix, lo string, want int, total uint64, factor float64) string {
	if total == 0 {
		return ""
	}
	start := uint64(0)
	if lo != "" {
		start = idPos(lo)
	}
	width := float64(want) / float64(total) * float64(idSpace) * factor
	if width >= float64(idSpace-start) {
		return ""
	}
	end := start + uint64(width) + 1
	if end >= idSpace {
		return ""
	}
	return idBound(prefix, end)
}
