package engine

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// Tag is one of a resource's tags.
type Tag struct {
	Key, Value string
}

// Tags are a resource's tags in key order, each key once; in JSON, an
// object (null when nil), as a map[string]string would be. A slice rather
// than a map: a first import builds, checks, hashes, stores and announces
// the tags of every resource once each, in key order every time, and a map
// cost it a map per resource plus two sorts of its keys (~2 s of CPU a
// million resources, measured 2026-11-22). A resource has a few
// tags, so a scan finds one as fast as a map would.
//
// Build Tags with TagsFromMap or SortTags unless they are in key order
// already; Get works in any order, the rest expects key order.
type Tags []Tag

// TagsFromMap returns m's tags in key order; nil for a nil map.
func TagsFromMap(m map[string]string) Tags {
	if m == nil {
		return nil
	}
	t := make(Tags, 0, len(m))
	for k, v := range m {
		t = append(t, Tag{k, v})
	}
	slices.SortFunc(t, compareTags)
	return t
}

// SortTags puts t in key order in place and, of tags with the same key,
// keeps the last (as decoding a JSON object into a map does). It returns
// the tags kept, a prefix of t.
func SortTags(t Tags) Tags {
	if t.InOrder() {
		return t
	}
	// Stable, so that of equal keys the last given stays last.
	slices.SortStableFunc(t, compareTags)
	out := t[:0]
	for i := range t {
		if i+1 < len(t) && t[i+1].Key == t[i].Key {
			continue
		}
		out = append(out, t[i])
	}
	clear(t[len(out):])
	return out
}

// Sorted returns t when it is in key order, each key once, and otherwise
// a copy put in order as SortTags does (t itself does not change).
func (t Tags) Sorted() Tags {
	if t.InOrder() {
		return t
	}
	return SortTags(slices.Clone(t))
}

// InOrder reports whether t is in key order, each key once.
func (t Tags) InOrder() bool {
	for i := 1; i < len(t); i++ {
		if t[i-1].Key >= t[i].Key {
			return false
		}
	}
	return true
}

func compareTags(a, b Tag) int { return strings.Compare(a.Key, b.Key) }

// Get returns the value of the tag key.
func (t Tags) Get(key string) (string, bool) {
	for _, tag := range t {
		if tag.Key == key {
			return tag.Value, true
		}
	}
	return "", false
}

// Value returns the value of the tag key, "" when there is none.
func (t Tags) Value(key string) string {
	v, _ := t.Get(key)
	return v
}

// Map returns the tags as a map; nil for nil Tags.
func (t Tags) Map() map[string]string {
	if t == nil {
		return nil
	}
	m := make(map[string]string, len(t))
	for _, tag := range t {
		m[tag.Key] = tag.Value
	}
	return m
}

// MarshalJSON writes the tags as an object in key order, byte for byte
// what encoding/json writes for the map (null for nil Tags).
func (t Tags) MarshalJSON() ([]byte, error) {
	return appendTagsJSON(nil, t), nil
}

// appendTagsJSON appends t as MarshalJSON writes it.
func appendTagsJSON(b []byte, t Tags) []byte {
	if t == nil {
		return append(b, "null"...)
	}
	t = t.Sorted()
	b = append(b, '{')
	for i, tag := range t {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendJSONString(b, tag.Key)
		b = append(b, ':')
		b = AppendJSONString(b, tag.Value)
	}
	return append(b, '}')
}

// UnmarshalJSON reads an object of strings (or null) as encoding/json reads
// it into a map[string]string.
func (t *Tags) UnmarshalJSON(b []byte) error {
	if string(bytes.TrimSpace(b)) == "null" {
		*t = nil
		return nil
	}
	// Into the tags already there, as encoding/json decodes a repeated
	// key's object into the same map.
	m := t.Map()
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*t = TagsFromMap(m)
	return nil
}

// AppendJSON appends the tags to b as MarshalJSON writes them.
func (t Tags) AppendJSON(b []byte) []byte { return appendTagsJSON(b, t) }
