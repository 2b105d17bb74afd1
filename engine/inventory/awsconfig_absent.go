package inventory

import (
	"bytes"
	"strings"

	"github.com/fourd-dev/fourd/internal/jsonvalid"
)

// The absent-key rule of the AWS Config decoder: a canonical attribute is
// written only when the configuration item carries the key it comes from.
// A key the item lacks (an Advanced Query that did not select it) leaves
// the attribute out of the canonical attributes, which the checks read as
// unknown ("not evaluated"), never as false, 0 or "". A mapper names the
// sources of the attributes checks judge with recordedOnly.
//
// Some keys AWS leaves out of a whole item when the setting is off (an SQS
// queue without a dead-letter queue has no RedrivePolicy, a log group
// without retention no retentionInDays): those are optional sources, whose
// absence means "not configured" in a whole item (snapshot, history,
// batch-get, notification) and unknown only in an item that may be partial
// (select-resource-config's JSON strings).

// recordedOnly returns attrs without the canonical attributes whose source
// keys ci does not carry. Each source is "attr=key": attr the canonical
// attribute, key its top-level configuration key (matched ignoring case,
// as encoding/json does) or a "."-separated path into it, "supp:Name" for
// a supplementaryConfiguration entry, several keys joined by "|" when any
// of them gives the attribute, and a leading "?" for an optional source.
// A "?" before a nested step ("Lifecycle.?DeleteAfterDays") makes that
// step optional the same way: AWS leaves it out of a whole item when the
// setting is off, so only a partial item lacking it leaves attr unknown.
func recordedOnly(ci *configItem, conf []byte, attrs any, sources ...string) any {
	var unknown []string
	for _, s := range sources {
		attr, keys, _ := strings.Cut(s, "=")
		optional := strings.HasPrefix(keys, "?")
		keys = strings.TrimPrefix(keys, "?")
		if optional && !ci.partial && !carriesTop(conf, keys) {
			continue // a whole item: absence is the setting's absence
		}
		if !carries(ci, conf, keys) {
			unknown = append(unknown, attr)
		}
	}
	if len(unknown) == 0 {
		return attrs
	}
	return unrecorded{attrs: attrs, keys: unknown}
}

// withUnknown returns v (canonical attributes, or recordedOnly's answer)
// without the attributes keys as well.
func withUnknown(v any, keys ...string) any {
	if u, ok := v.(unrecorded); ok {
		u.keys = append(u.keys, keys...)
		return u
	}
	return unrecorded{attrs: v, keys: keys}
}

// carries reports whether the item has any of the "|"-separated keys:
// a top-level key of conf, or "supp:Name" a supplementary entry.
func carries(ci *configItem, conf []byte, keys string) bool {
	for k := range strings.SplitSeq(keys, "|") {
		if name, ok := strings.CutPrefix(k, "supp:"); ok {
			if _, ok := ci.Supplementary[name]; ok {
				return true
			}
			continue
		}
		if hasPathIn(conf, k, !ci.partial) {
			return true
		}
	}
	return false
}

// carriesTop reports whether conf has the first step of any of the
// "|"-separated paths (supplementary entries count as carried).
func carriesTop(conf []byte, keys string) bool {
	for k := range strings.SplitSeq(keys, "|") {
		if strings.HasPrefix(k, "supp:") {
			return true
		}
		first, _, _ := strings.Cut(k, ".")
		if hasKey(conf, first) {
			return true
		}
	}
	return false
}

// hasPath reports whether the JSON object b carries the "."-separated
// path: each step a key (ignoring case) of the object the previous one
// holds, an object written as a JSON string included; through an array,
// every element must carry the rest.
func hasPath(b []byte, path string) bool {
	return hasPathIn(b, path, false)
}

// hasPathIn is hasPath where a step written "?key" is optional: missing
// from an object of a whole item (whole true), it counts as carried (AWS
// leaves the key out when the setting is off); in a partial item it is
// missing like any other step.
func hasPathIn(b []byte, path string, whole bool) bool {
	first, rest, nested := strings.Cut(path, ".")
	optional := strings.HasPrefix(first, "?")
	v, ok := keyValue(b, strings.TrimPrefix(first, "?"))
	if !ok {
		return optional && whole
	}
	if !nested {
		return true
	}
	v = bytes.TrimSpace(v)
	if len(v) > 0 && v[0] == '[' {
		all := true
		eachElement(v, func(e []byte) bool {
			all = hasPathIn(jsonObject(e), rest, whole)
			return all
		})
		return all
	}
	return hasPathIn(jsonObject(v), rest, whole)
}

// keyValue returns the raw value of the top-level key of the JSON object
// b, matched ignoring case.
func keyValue(b []byte, key string) ([]byte, bool) {
	var out []byte
	found := false
	eachKeyValue(b, func(name, value []byte) bool {
		if bytesEqualFold(name, key) {
			out, found = value, true
		}
		return !found
	})
	return out, found
}

// eachElement calls fn with each element of the JSON array b until fn
// returns false.
func eachElement(b []byte, fn func(e []byte) bool) {
	i := jsonvalid.SkipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return
	}
	i = jsonvalid.SkipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return
	}
	for i < len(b) {
		end := jsonvalid.SkipTrusted(b, i)
		if !fn(b[i:end]) {
			return
		}
		i = jsonvalid.SkipSpace(b, end)
		if i >= len(b) || b[i] != ',' {
			return
		}
		i = jsonvalid.SkipSpace(b, i+1)
	}
}

// hasKey reports whether the JSON object b has key at its top level,
// matched ignoring case as encoding/json matches field names. It scans the
// bytes without allocating (b has decoded already, so its grammar is
// trusted): presence costs a scan, not a second unmarshal into a map.
func hasKey(b []byte, key string) bool {
	found := false
	eachKey(b, func(name []byte) bool {
		found = bytesEqualFold(name, key)
		return !found
	})
	return found
}

// eachKey calls fn with each top-level key of the JSON object b (unescaped
// when written with escapes) until fn returns false.
func eachKey(b []byte, fn func(name []byte) bool) {
	eachKeyValue(b, func(name, _ []byte) bool { return fn(name) })
}

// eachKeyValue is eachKey with each key's raw value (jsonvalid.Members).
func eachKeyValue(b []byte, fn func(name, value []byte) bool) {
	jsonvalid.Members(b, fn)
}

func bytesEqualFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return strings.EqualFold(string(b), s) // multi-byte folds; rare
	}
	for i := 0; i < len(b); i++ {
		x, y := b[i], s[i]
		if x == y {
			continue
		}
		if x|0x20 != y|0x20 || x|0x20 < 'a' || x|0x20 > 'z' {
			return strings.EqualFold(string(b), s)
		}
	}
	return true
}
