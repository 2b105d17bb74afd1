package inventory

import (
	"unicode/utf8"

	"github.com/fourd-dev/fourd/internal/jsonvalid"
)

// plainStrings reads b when it is a JSON string, or an array of strings,
// written plainly: no escape, valid UTF-8, JSON whitespace only. It then
// gives what encoding/json gives for them (a string as a list of one; an
// empty array as an empty, non-nil list) without its validating pass and
// decoder; ok is false for anything else, which the caller decodes with
// encoding/json. IAM policies write every action and resource this way,
// and a 1M-resource audit decodes hundreds of thousands of them.
func plainStrings(b []byte) (out StringList, ok bool) {
	i := jsonvalid.SkipSpace(b, 0)
	if i == len(b) {
		return nil, false
	}
	if b[i] == '"' {
		s, j, ok := plainString(b, i)
		if !ok || jsonvalid.SkipSpace(b, j) != len(b) {
			return nil, false
		}
		return StringList{s}, true
	}
	if b[i] != '[' {
		return nil, false
	}
	out = StringList{}
	i = jsonvalid.SkipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return out, jsonvalid.SkipSpace(b, i+1) == len(b)
	}
	for {
		s, j, ok := plainString(b, i)
		if !ok {
			return nil, false
		}
		out = append(out, s)
		i = jsonvalid.SkipSpace(b, j)
		if i == len(b) {
			return nil, false
		}
		switch b[i] {
		case ',':
			i = jsonvalid.SkipSpace(b, i+1)
		case ']':
			return out, jsonvalid.SkipSpace(b, i+1) == len(b)
		default:
			return nil, false
		}
	}
}

// plainString reads the string starting at b[i] when it is written
// plainly (see plainStrings) and returns it with the index after it.
func plainString(b []byte, i int) (string, int, bool) {
	if i >= len(b) || b[i] != '"' {
		return "", 0, false
	}
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			s := b[i+1 : j]
			if !utf8.Valid(s) {
				return "", 0, false
			}
			return string(s), j + 1, true
		case c == '\\' || c < 0x20:
			return "", 0, false
		}
	}
	return "", 0, false
}
