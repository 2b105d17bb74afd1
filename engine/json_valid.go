package engine

import "encoding/json"

// ValidJSON reports whether b is one valid JSON value, as json.Valid does,
// at about four times its speed: every inventory item's attributes, every
// finding's evidence and every batched event's data are checked, and
// json.Valid's state machine (a function call per byte) cost a bulk import
// a tenth of its CPU. The fast walk only accepts what is valid; whatever it
// refuses (bad input, or nesting deeper than it follows) is decided by
// json.Valid, so the answer is always json.Valid's.
func ValidJSON(b []byte) bool {
	v := jsonValidator{b: b}
	if v.value(0) {
		v.ws()
		if v.i == len(b) {
			return true
		}
	}
	return json.Valid(b)
}

// ValidJSONStrict reports whether b is one valid JSON value that also has
// none of what some stores refuse or alter (PostgreSQL's jsonb, for one): no
// \u0000 or surrogate (\uD800–\uDFFF) escape, at most 1,000 digits in a
// number's integer or fraction part and 4 in its exponent, and nesting at
// most 64 deep. It may refuse valid JSON, which a caller then checks the
// long way, but it never accepts what ValidJSON refuses. It is one walk,
// for data the engine itself wrote, which never has any of those.
func ValidJSONStrict(b []byte) bool {
	v := jsonValidator{b: b, strict: true}
	if !v.value(0) {
		return false
	}
	v.ws()
	return v.i == len(b)
}

// maxFastJSONDepth bounds the fast walk's recursion; deeper documents go to
// json.Valid. maxStrictJSONDepth is ValidJSONStrict's bound.
const (
	maxFastJSONDepth   = 256
	maxStrictJSONDepth = 64
)

// Bounds of ValidJSONStrict's numbers.
const (
	maxStrictJSONDigits   = 1000
	maxStrictJSONExponent = 4
)

type jsonValidator struct {
	b      []byte
	i      int
	strict bool // ValidJSONStrict's walk
}

// tooDeep reports whether a value at depth may not open an object or array.
func (v *jsonValidator) tooDeep(depth int) bool {
	return depth >= maxFastJSONDepth || v.strict && depth >= maxStrictJSONDepth
}

func (v *jsonValidator) ws() {
	for v.i < len(v.b) {
		switch v.b[v.i] {
		case ' ', '\t', '\n', '\r':
			v.i++
		default:
			return
		}
	}
}

// value steps over one value, with the whitespace before it.
func (v *jsonValidator) value(depth int) bool {
	v.ws()
	if v.i >= len(v.b) {
		return false
	}
	switch c := v.b[v.i]; {
	case c == '"':
		return v.str()
	case c == '{':
		if v.tooDeep(depth) {
			return false
		}
		v.i++
		v.ws()
		if v.i < len(v.b) && v.b[v.i] == '}' {
			v.i++
			return true
		}
		for {
			v.ws()
			if v.i >= len(v.b) || v.b[v.i] != '"' || !v.str() {
				return false
			}
			v.ws()
			if v.i >= len(v.b) || v.b[v.i] != ':' {
				return false
			}
			v.i++
			if !v.value(depth + 1) {
				return false
			}
			if more, ok := v.sep('}'); !more {
				return ok
			}
		}
	case c == '[':
		if v.tooDeep(depth) {
			return false
		}
		v.i++
		v.ws()
		if v.i < len(v.b) && v.b[v.i] == ']' {
			v.i++
			return true
		}
		for {
			if !v.value(depth + 1) {
				return false
			}
			if more, ok := v.sep(']'); !more {
				return ok
			}
		}
	case c == 't':
		return v.literal("true")
	case c == 'f':
		return v.literal("false")
	case c == 'n':
		return v.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return v.number()
	}
	return false
}

// sep steps over what follows a member or an element: a comma (more is
// true) or the closing byte (ok is true); anything else is invalid.
func (v *jsonValidator) sep(close byte) (more, ok bool) {
	v.ws()
	if v.i < len(v.b) {
		switch v.b[v.i] {
		case ',':
			v.i++
			return true, true
		case close:
			v.i++
			return false, true
		}
	}
	return false, false
}

func (v *jsonValidator) literal(s string) bool {
	if len(v.b)-v.i >= len(s) && string(v.b[v.i:v.i+len(s)]) == s {
		v.i += len(s)
		return true
	}
	return false
}

// str steps over a string starting at its opening quote. Bytes of 0x80 and
// above pass unchecked, as in json.Valid.
func (v *jsonValidator) str() bool {
	b := v.b
	i := v.i + 1
	for i < len(b) {
		// The plain bytes, most of a string, in a loop of one test each.
		for i < len(b) && jsonStrPlain[b[i]] {
			i++
		}
		if i >= len(b) {
			return false
		}
		c := b[i]
		switch {
		case c == '"':
			v.i = i + 1
			return true
		case c == '\\':
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
				if v.strict && (b[i+2] == 'd' || b[i+2] == 'D' || string(b[i+2:i+6]) == "0000") {
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
	return false
}

// jsonStrPlain marks the bytes a JSON string holds as they are: all but
// control characters, the quote and the backslash.
var jsonStrPlain = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= 0x20 && c != '"' && c != '\\'
	}
	return t
}()

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// number checks -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, with the
// strict bounds on its digits in a strict walk.
func (v *jsonValidator) number() bool {
	b := v.b
	if b[v.i] == '-' {
		v.i++
	}
	digits := func() int {
		n := 0
		for v.i < len(b) && b[v.i] >= '0' && b[v.i] <= '9' {
			v.i++
			n++
		}
		return n
	}
	// ok reports whether a part of n digits may stand, at most max of them
	// in a strict walk.
	ok := func(n, max int) bool { return n > 0 && (!v.strict || n <= max) }
	if v.i < len(b) && b[v.i] == '0' {
		v.i++
	} else if !ok(digits(), maxStrictJSONDigits) {
		return false
	}
	if v.i < len(b) && b[v.i] == '.' {
		v.i++
		if !ok(digits(), maxStrictJSONDigits) {
			return false
		}
	}
	if v.i < len(b) && (b[v.i] == 'e' || b[v.i] == 'E') {
		v.i++
		if v.i < len(b) && (b[v.i] == '+' || b[v.i] == '-') {
			v.i++
		}
		if !ok(digits(), maxStrictJSONExponent) {
			return false
		}
	}
	return true
}
