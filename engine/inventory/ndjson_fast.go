package inventory

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/jsonvalid"
)

// fastLine decodes one NDJSON line without reflection: it walks the
// object once, takes the string fields, builds the tag map and slices out
// the attributes after checking their grammar. It returns ok=false for
// anything unusual (escaped strings aside, which it unquotes): malformed
// JSON, wrong value types, keys differing from ours only in case. The caller
// then falls back to encoding/json, which gives the precise error, so the
// two paths accept exactly the same lines.
//
// The line's bytes hold every unescaped field and the attributes: the
// fields are strings over them and the attributes a slice of them with no
// room to append; no two of them share a byte. So b must never change
// once decoded: owned says the caller gives b up (the NDJSON decoder's
// chunks are never reused); otherwise fastLine copies it first, one
// allocation instead of one per field and tag.
func fastLine(b []byte, owned bool, tags *tagArena) (l ndjsonLine, ok bool) {
	line := b
	if !owned {
		line = append([]byte(nil), b...)
	}
	p := &scan{b: b, s: unsafe.String(unsafe.SliceData(line), len(line)), arena: tags}
	if !p.byte('{') {
		return l, false
	}
	if p.peek() == '}' {
		p.i++
		return l, p.end()
	}
	for {
		key, _, ok := p.str()
		if !ok || !p.byte(':') {
			return l, false
		}
		switch key {
		case "provider":
			l.Provider, ok = p.strOrNull()
		case "account":
			l.Account, ok = p.strOrNull()
		case "region":
			l.Region, ok = p.strOrNull()
		case "type":
			l.Type, ok = p.strOrNull()
		case "native_id":
			l.NativeID, ok = p.strOrNull()
		case "name":
			l.Name, ok = p.strOrNull()
		case "captured_at":
			l.CapturedAt, ok = p.strOrNull()
		case "tags":
			if l.tags != nil {
				return l, false // encoding/json merges repeated objects into one map
			}
			l.tags, ok = p.tags()
		case "attributes":
			p.ws()
			start := p.i
			if ok = p.skip(); ok {
				l.Attributes = line[start:p.i:p.i]
			}
		default:
			for _, k := range [...]string{"provider", "account", "region", "type", "native_id", "name", "tags", "attributes", "captured_at"} {
				if strings.EqualFold(key, k) {
					return l, false // encoding/json matches keys ignoring case
				}
			}
			ok = p.skip()
		}
		if !ok {
			return l, false
		}
		p.ws()
		if p.i >= len(b) {
			return l, false
		}
		switch b[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return l, p.end()
		default:
			return l, false
		}
	}
}

type scan struct {
	b     []byte
	s     string // b as a string, or "" when only checking grammar
	i     int
	arena *tagArena // where tags() puts tags; nil: a slice each
}

// tagArena holds the tags of many lines in a few large slices rather than a
// small one per line: a first import of 1M resources decodes 1M tag sets.
// A line's tags are a full slice of it (no room to append into the next
// line's). The slices are never reused: resources keep their tags.
type tagArena struct {
	free []engine.Tag
}

// tagArenaSize is how many tags an arena slice holds (32 KiB).
const tagArenaSize = 1024

// take returns a copy of t in the arena.
func (a *tagArena) take(t []engine.Tag) engine.Tags {
	if a == nil || len(t) > tagArenaSize/8 {
		return slices.Clone(t)
	}
	if cap(a.free)-len(a.free) < len(t) {
		a.free = make([]engine.Tag, 0, tagArenaSize)
	}
	n := len(a.free)
	a.free = append(a.free, t...)
	return a.free[n:len(a.free):len(a.free)]
}

func (p *scan) ws() {
	for p.i < len(p.b) && isSpace(p.b[p.i]) {
		p.i++
	}
}

func (p *scan) peek() byte {
	p.ws()
	if p.i < len(p.b) {
		return p.b[p.i]
	}
	return 0
}

func (p *scan) byte(c byte) bool {
	if p.peek() != c {
		return false
	}
	p.i++
	return true
}

func (p *scan) end() bool {
	p.ws()
	return p.i == len(p.b)
}

// strStop marks the bytes a string scan stops at: the quote, the
// backslash, control characters (not allowed in a JSON string) and bytes
// of 0x80 and above (the string then needs a UTF-8 check).
var strStop = func() (t [256]bool) {
	for c := range t {
		t[c] = c == '"' || c == '\\' || c < 0x20 || c >= utf8.RuneSelf
	}
	return t
}()

// strStopMask sets the top bit of each byte of w (eight bytes of the
// input, the first in the low byte) that strStop marks, and maybe of some
// bytes after the first one marked: the lowest bit set is exact. (x - 0x01…)
// & ^x & 0x80… flags the zero bytes of x that way, and x < 0x20 the same
// with 0x20…; a byte of 0x80 or above is flagged by its own top bit.
func strStopMask(w uint64) uint64 {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q := w ^ (ones * '"')
	bs := w ^ (ones * '\\')
	return ((q-ones)&^q | (bs-ones)&^bs | (w-ones*0x20)&^w | w) & highs
}

// str reads a string; escaped strings are unquoted by encoding/json. valid
// reports whether the string is valid UTF-8: checked only when it has a
// byte of 0x80 or above, and always true of an unquoted one (encoding/json
// replaces invalid bytes with U+FFFD).
func (p *scan) str() (s string, valid, ok bool) {
	if p.peek() != '"' {
		return "", false, false
	}
	b := p.b
	start := p.i
	i := start + 1
	escaped, high := false, false
	for i < len(b) {
		// Eight bytes at a time to the next byte that stops the scan.
		for i+8 <= len(b) {
			m := strStopMask(binary.LittleEndian.Uint64(b[i:]))
			if m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i >= len(b) {
			break
		}
		c := b[i]
		if !strStop[c] {
			i++
			continue
		}
		switch {
		case c == '"':
			p.i = i + 1
			if escaped {
				var u string // not s: its address would move s to the heap on every call
				if json.Unmarshal(b[start:p.i], &u) != nil {
					return "", false, false
				}
				return u, true, true
			}
			if p.s != "" {
				s = p.s[start+1 : i]
			}
			return s, !high || utf8.Valid(b[start+1:i]), true
		case c == '\\':
			escaped = true
			i += 2
		case c < 0x20:
			p.i = i
			return "", false, false
		default:
			high = true
			i++
		}
	}
	p.i = i
	return "", false, false
}

func (p *scan) literal(s string) bool {
	if bytes.HasPrefix(p.b[p.i:], []byte(s)) {
		p.i += len(s)
		return true
	}
	return false
}

// strOrNull reads a string field. Invalid UTF-8 goes to encoding/json,
// which replaces it with U+FFFD.
func (p *scan) strOrNull() (string, bool) {
	if p.peek() == 'n' {
		return "", p.literal("null")
	}
	s, valid, ok := p.str()
	return s, ok && valid
}

func (p *scan) tags() (engine.Tags, bool) {
	switch p.peek() {
	case 'n':
		return nil, p.literal("null")
	case '{':
		p.i++
	default:
		return nil, false
	}
	if p.peek() == '}' {
		p.i++
		return engine.Tags{}, true
	}
	var stack [8]engine.Tag
	t := stack[:0]
	for {
		k, kValid, ok := p.str()
		if !ok || !p.byte(':') {
			return nil, false
		}
		v, vValid, ok := p.str()
		if !ok || !kValid || !vValid {
			return nil, false // null tag values and non-strings: let encoding/json decide
		}
		t = append(t, engine.Tag{Key: k, Value: v})
		switch p.peek() {
		case ',':
			p.i++
		case '}':
			p.i++
			// Of a key given twice the last value is kept, as
			// encoding/json keeps it in a map.
			return engine.SortTags(p.arena.take(t)), true
		default:
			return nil, false
		}
	}
}

// skip checks and steps over one JSON value (internal/jsonvalid's walk: a
// value nested deeper than jsonvalid.MaxDepth sends the line to
// encoding/json).
func (p *scan) skip() bool {
	end, ok := jsonvalid.Skip(p.b, p.i)
	p.i = end
	return ok
}
