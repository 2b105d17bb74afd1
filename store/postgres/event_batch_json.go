package postgres

// jsonbSafe is batchable's usual answer in one walk instead of two (a
// first import checks one resource.added a resource): it accepts only one
// valid JSON value with none of what makes batchable refuse (a surrogate
// or \u0000 escape, an exponent of more than 4 digits, a run of more than
// 1,000 digits), nested at most jsonbSafeDepth deep. For anything else it
// returns false and batchable decides the long way, so it may refuse more
// than batchable does but never accepts what batchable refuses
// (FuzzBatchable).
func jsonbSafe(b []byte) bool {
	w := jsonbWalk{b: b}
	if !w.value(0) {
		return false
	}
	w.ws()
	return w.i == len(b)
}

const jsonbSafeDepth = 64

type jsonbWalk struct {
	b []byte
	i int
}

func (w *jsonbWalk) ws() {
	for w.i < len(w.b) {
		switch w.b[w.i] {
		case ' ', '\t', '\n', '\r':
			w.i++
		default:
			return
		}
	}
}

// next skips white space and reports whether the next byte is c, stepping
// over it if so.
func (w *jsonbWalk) next(c byte) bool {
	w.ws()
	if w.i < len(w.b) && w.b[w.i] == c {
		w.i++
		return true
	}
	return false
}

func (w *jsonbWalk) value(depth int) bool {
	w.ws()
	if w.i >= len(w.b) {
		return false
	}
	switch c := w.b[w.i]; {
	case c == '"':
		return w.str()
	case c == '{':
		if depth >= jsonbSafeDepth {
			return false
		}
		w.i++
		if w.next('}') {
			return true
		}
		for {
			w.ws()
			if w.i >= len(w.b) || w.b[w.i] != '"' || !w.str() || !w.next(':') || !w.value(depth+1) {
				return false
			}
			if w.next(',') {
				continue
			}
			return w.next('}')
		}
	case c == '[':
		if depth >= jsonbSafeDepth {
			return false
		}
		w.i++
		if w.next(']') {
			return true
		}
		for {
			if !w.value(depth + 1) {
				return false
			}
			if w.next(',') {
				continue
			}
			return w.next(']')
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

func (w *jsonbWalk) literal(s string) bool {
	if len(w.b)-w.i >= len(s) && string(w.b[w.i:w.i+len(s)]) == s {
		w.i += len(s)
		return true
	}
	return false
}

// str steps over a string from its opening quote. Bytes of 0x80 and above
// pass unchecked, as in json.Valid.
func (w *jsonbWalk) str() bool {
	b := w.b
	for i := w.i + 1; i < len(b); {
		c := b[i]
		if jsonbPlain[c] {
			i++
			continue
		}
		switch {
		case c == '"':
			w.i = i + 1
			return true
		case c == '\\':
			if i+1 >= len(b) {
				return false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) || !isHex(b[i+5]) ||
					b[i+2] == 'd' || b[i+2] == 'D' || string(b[i+2:i+6]) == "0000" {
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

// jsonbPlain marks the bytes str steps over without a second look: all but
// the quote, the backslash and control characters.
var jsonbPlain = func() (t [256]bool) {
	for c := range t {
		t[c] = c != '"' && c != '\\' && c >= 0x20
	}
	return t
}()

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// number steps over -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? with at
// most 1,000 digits before and after the point and 4 in the exponent.
func (w *jsonbWalk) number() bool {
	b := w.b
	digits := func() int {
		n := 0
		for w.i < len(b) && b[w.i] >= '0' && b[w.i] <= '9' {
			w.i++
			n++
		}
		return n
	}
	if b[w.i] == '-' {
		w.i++
	}
	if w.i < len(b) && b[w.i] == '0' {
		w.i++
	} else if n := digits(); n == 0 || n > 1000 {
		return false
	}
	if w.i < len(b) && b[w.i] == '.' {
		w.i++
		if n := digits(); n == 0 || n > 1000 {
			return false
		}
	}
	if w.i < len(b) && (b[w.i] == 'e' || b[w.i] == 'E') {
		w.i++
		if w.i < len(b) && (b[w.i] == '+' || b[w.i] == '-') {
			w.i++
		}
		if n := digits(); n == 0 || n > 4 {
			return false
		}
	}
	return true
}
