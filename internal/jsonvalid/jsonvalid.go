// Package jsonvalid is fourd's one JSON validator: Valid answers as
// encoding/json.Valid does, Strict adds what PostgreSQL's jsonb refuses,
// and Skip steps over one value inside a larger document (the NDJSON
// decoder's attributes). Every inventory item's attributes, every finding's
// evidence and every batched event's data are checked, so the walk is one
// pass without allocation, eight string bytes at a time; json.Valid's state
// machine (a function call per byte) cost a bulk import a tenth of its CPU.
//
// The walk recurses once per nesting level and follows at most MaxDepth
// levels. Valid and Strict hand a deeper document to a slower exact check,
// so their answers do not depend on the limit; Skip reports it as not ok.
package jsonvalid

import (
	"encoding/binary"
	"encoding/json"
	"math/bits"
)

// MaxDepth is how many levels of nested objects and arrays the walk
// follows: a value at the top is at depth 0, so MaxDepth nested arrays
// ("[[…]]") are followed and one more is not.
const MaxDepth = 512

// Bounds of Strict's numbers: jsonb keeps numbers as numeric, which refuses
// more digits than these (its limits are higher; these are the ones fourd
// guarantees).
const (
	MaxStrictDigits   = 1000 // in a number's integer or fraction part
	MaxStrictExponent = 4    // digits of a number's exponent
)

// Valid reports whether b is one valid JSON value; the answer is always
// encoding/json.Valid's.
func Valid(b []byte) bool {
	w := walker{b: b}
	if w.value(0) {
		w.ws()
		return w.i == len(b)
	}
	return w.deep && json.Valid(b)
}

// Strict reports whether b is one valid JSON value that also has none of
// what some stores refuse or alter (PostgreSQL's jsonb, for one): no \u0000
// or surrogate (\uD800–\uDFFF) escape, at most MaxStrictDigits digits in a
// number's integer or fraction part and MaxStrictExponent in its exponent.
// Data encoding/json writes from Go values never has any of those.
func Strict(b []byte) bool {
	w := walker{b: b, strict: true}
	if w.value(0) {
		w.ws()
		return w.i == len(b)
	}
	return w.deep && json.Valid(b) && strictScan(b)
}

// Skip steps over the whitespace at b[i:] and the one JSON value after it,
// and returns the index after that value. ok is false when there is no
// valid value there, or when it nests deeper than MaxDepth (a caller then
// decides the long way, with encoding/json).
func Skip(b []byte, i int) (end int, ok bool) {
	w := walker{b: b, i: i}
	if !w.value(0) {
		return i, false
	}
	return w.i, true
}

type walker struct {
	b      []byte
	i      int
	strict bool // Strict's walk
	deep   bool // the walk stopped at MaxDepth
}

func (w *walker) ws() {
	for w.i < len(w.b) {
		switch w.b[w.i] {
		case ' ', '\t', '\n', '\r':
			w.i++
		default:
			return
		}
	}
}

// value steps over one value, with the whitespace before it.
func (w *walker) value(depth int) bool {
	w.ws()
	if w.i >= len(w.b) {
		return false
	}
	switch c := w.b[w.i]; {
	case c == '"':
		return w.str()
	case c == '{':
		if depth >= MaxDepth {
			w.deep = true
			return false
		}
		w.i++
		w.ws()
		if w.i < len(w.b) && w.b[w.i] == '}' {
			w.i++
			return true
		}
		for {
			w.ws()
			if w.i >= len(w.b) || w.b[w.i] != '"' || !w.str() {
				return false
			}
			w.ws()
			if w.i >= len(w.b) || w.b[w.i] != ':' {
				return false
			}
			w.i++
			if !w.value(depth + 1) {
				return false
			}
			if more, ok := w.sep('}'); !more {
				return ok
			}
		}
	case c == '[':
		if depth >= MaxDepth {
			w.deep = true
			return false
		}
		w.i++
		w.ws()
		if w.i < len(w.b) && w.b[w.i] == ']' {
			w.i++
			return true
		}
		for {
			if !w.value(depth + 1) {
				return false
			}
			if more, ok := w.sep(']'); !more {
				return ok
			}
		}
	case c == 't':
		return w.literal("true")
	case c == 'f':
		return w.literal("false")
	case c == 'n':
		return w.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return w.number()
	}
	return false
}

// sep steps over what follows a member or an element: a comma (more is
// true) or the closing byte (ok is true); anything else is invalid.
func (w *walker) sep(close byte) (more, ok bool) {
	w.ws()
	if w.i < len(w.b) {
		switch w.b[w.i] {
		case ',':
			w.i++
			return true, true
		case close:
			w.i++
			return false, true
		}
	}
	return false, false
}

func (w *walker) literal(s string) bool {
	if len(w.b)-w.i >= len(s) && string(w.b[w.i:w.i+len(s)]) == s {
		w.i += len(s)
		return true
	}
	return false
}

// stopMask sets the top bit of each byte of x (eight bytes of the input,
// the first in the low byte) that a string scan stops at — the quote, the
// backslash, a control character — and maybe of some bytes after the first
// one: the lowest bit set is exact. (x - 0x01…) & ^x & 0x80… flags the zero
// bytes of x that way (borrows only run upwards), and x - 0x20… the bytes
// below 0x20; a byte of 0x80 or above is never flagged (json.Valid does not
// check UTF-8).
func stopMask(x uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q := x ^ (ones * '"')
	bs := x ^ (ones * '\\')
	return ((q-ones)&^q | (bs-ones)&^bs | (x-ones*0x20)&^x) & highs
}

// str steps over a string starting at its opening quote.
func (w *walker) str() bool {
	b := w.b
	i := w.i + 1
	for {
		// The plain bytes, most of a string, eight at a time.
		for i+8 <= len(b) {
			if m := stopMask(binary.LittleEndian.Uint64(b[i:])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		for i < len(b) && b[i] >= 0x20 && b[i] != '"' && b[i] != '\\' {
			i++
		}
		if i >= len(b) {
			return false
		}
		switch b[i] {
		case '"':
			w.i = i + 1
			return true
		case '\\':
			if i+1 >= len(b) {
				return false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) {
					return false
				}
				for _, h := range b[i+2 : i+6] {
					if !isHex(h) {
						return false
					}
				}
				if w.strict && unsafeEscape(b[i+2:i+6]) {
					return false
				}
				i += 6
			default:
				return false
			}
		default: // a control character
			return false
		}
	}
}

// unsafeEscape reports whether the four hex digits of a \u escape name
// U+0000 or a surrogate (D800–DFFF), which jsonb refuses or pairs up.
func unsafeEscape(h []byte) bool {
	return string(h) == "0000" || (h[0] == 'd' || h[0] == 'D') && (h[1] >= '8' && h[1] <= '9' || h[1] >= 'a' && h[1] <= 'f' || h[1] >= 'A' && h[1] <= 'F')
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// number checks -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, with
// Strict's bounds on its digits in a strict walk.
func (w *walker) number() bool {
	b := w.b
	if b[w.i] == '-' {
		w.i++
	}
	digits := func() int {
		n := 0
		for w.i < len(b) && b[w.i] >= '0' && b[w.i] <= '9' {
			w.i++
			n++
		}
		return n
	}
	// ok reports whether a part of n digits may stand, at most max of them
	// in a strict walk.
	ok := func(n, max int) bool { return n > 0 && (!w.strict || n <= max) }
	if w.i < len(b) && b[w.i] == '0' {
		w.i++
	} else if !ok(digits(), MaxStrictDigits) {
		return false
	}
	if w.i < len(b) && b[w.i] == '.' {
		w.i++
		if !ok(digits(), MaxStrictDigits) {
			return false
		}
	}
	if w.i < len(b) && (b[w.i] == 'e' || b[w.i] == 'E') {
		w.i++
		if w.i < len(b) && (b[w.i] == '+' || b[w.i] == '-') {
			w.i++
		}
		if !ok(digits(), MaxStrictExponent) {
			return false
		}
	}
	return true
}

// strictScan reports whether a valid JSON document deeper than MaxDepth
// passes Strict's bounds: one flat pass over its bytes (a string's, then
// the digits between them), no recursion.
func strictScan(data []byte) bool {
	digits := 0
	for i := 0; i < len(data); i++ {
		c := data[i]
		if c == '"' {
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					if i+5 < len(data) && data[i+1] == 'u' && unsafeEscape(data[i+2:i+6]) {
						return false
					}
					i++
				}
			}
			digits = 0
			continue
		}
		switch {
		case c >= '0' && c <= '9':
			if digits++; digits > MaxStrictDigits {
				return false
			}
		case c == 'e' || c == 'E':
			j := i + 1
			if j < len(data) && (data[j] == '+' || data[j] == '-') {
				j++
			}
			k := j
			for k < len(data) && data[k] >= '0' && data[k] <= '9' {
				k++
			}
			if k-j > MaxStrictExponent {
				return false
			}
			i, digits = k-1, 0
		default:
			digits = 0
		}
	}
	return true
}
