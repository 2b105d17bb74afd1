package jsonvalid

import "encoding/json"

// Members, SkipSpace and SkipTrusted are the walks of fourd's presence
// scans (which top-level keys a resource's canonical attributes or a
// configuration item hold), shared by engine/rules and engine/inventory,
// which had a copy each. The bytes have parsed already, so SkipTrusted
// steps over a value without checking its grammar: stepping with the
// validating Skip cost the scan 1.05–1.22× (median 1.08×) in thread CPU
// time, interleaved under load (engine/rules TestPresenceScanCost,
// docs/benchmarks.md), more than the 5 % the project allows for sharing
// Skip. FuzzMembers checks the trusted walk against encoding/json.

// SkipSpace returns the index of the first byte at or after i that is not
// JSON whitespace.
func SkipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// Members calls fn with each member of the JSON object b's top level,
// until fn returns false: the member's name (unescaped when written with
// escapes) and its raw value. A value that is not an object has no
// members. b is trusted as SkipTrusted trusts it; on input that is not
// valid JSON the walk ends somewhere without panicking.
func Members(b []byte, fn func(name, value []byte) bool) {
	i := SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return
	}
	i++
	for {
		i = SkipSpace(b, i)
		if i >= len(b) || b[i] != '"' {
			return
		}
		end := skipTrustedString(b, i)
		if end-i < 2 {
			return
		}
		name := b[i+1 : end-1]
		for _, c := range name {
			if c == '\\' {
				var k string
				if json.Unmarshal(b[i:end], &k) == nil {
					name = []byte(k)
				}
				break
			}
		}
		i = SkipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return
		}
		start := SkipSpace(b, i+1)
		vend := SkipTrusted(b, start)
		if !fn(name, b[start:vend]) {
			return
		}
		i = SkipSpace(b, vend)
		if i >= len(b) || b[i] != ',' {
			return
		}
		i++
	}
}

// SkipTrusted steps over the whitespace at b[i:] and the one JSON value
// after it, and returns the index after that value. b must hold valid
// JSON there (it is not checked): a number or literal ends at the next
// ',', '}' or ']', with the whitespace before it. On other input it returns an index in
// [i, len(b)] without panicking.
func SkipTrusted(b []byte, i int) int {
	i = SkipSpace(b, i)
	depth := 0
	for i < len(b) {
		switch b[i] {
		case '"':
			i = skipTrustedString(b, i)
			if depth == 0 {
				return i
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i // the end of the enclosing object or array
			}
			depth--
			if depth == 0 {
				return i + 1
			}
		case ',':
			if depth == 0 {
				return i
			}
		}
		i++
	}
	return i
}

// skipTrustedString returns the index after the string starting at
// b[i] == '"'.
func skipTrustedString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}
