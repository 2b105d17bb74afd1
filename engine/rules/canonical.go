package rules

import (
	"encoding/json"
	"reflect"
	"strings"
)

// What a record's keys say about its source (issue 29: a pass needs what
// it read). The canonical types omit some attributes when zero
// (omitempty: an instance without a public IP has no public_ip), so a
// missing key means "none" for those and "not recorded" for the others.
// That contract holds only for a record the importer wrote whole: the
// AWS Config, Terraform and NDJSON importers write every attribute the
// canonical type writes even when zero, and leave one out only when their
// input lacked its source (an Advanced Query that did not select it) — and
// then an omitempty attribute may be missing for the same reason. So:
//
//   - A record holding none of its type's canonical keys (loadgen's
//     {"index":N,"synthetic":true}) recorded nothing a check reads: a pass
//     on it is not evaluated, like a pass on {} (recordedNothing).
//   - A record lacking one of the keys its type writes even when zero is
//     partial: the omitempty attributes its checks read are as unrecorded
//     as any other, and a pass that rests on one is not evaluated (judged).
//     On a whole record their absence is the zero and the pass stands.

// canonicalIndex returns the key index of typ's canonical attributes:
// every top-level key, and a bit for each key written even when zero.
func canonicalIndex(typ string) *typeReads {
	tr := &typeReads{keys: map[string]keySlot{}}
	newAttrs, ok := attrTypes[typ]
	if !ok {
		return tr
	}
	tr.canonical = true
	v := newAttrs()
	for _, k := range jsonKeys(reflect.TypeOf(v).Elem()) {
		tr.keys[k] = keySlot{read: -1, written: -1, canonical: true}
	}
	b, _ := json.Marshal(v)
	var zero map[string]json.RawMessage
	_ = json.Unmarshal(b, &zero)
	bit := 0
	for k := range tr.keys {
		if _, ok := zero[k]; ok && bit < 64 {
			slot := tr.keys[k]
			slot.written = int8(bit)
			tr.keys[k] = slot
			tr.written |= 1 << bit
			bit++
		}
	}
	return tr
}

// jsonKeys returns the top-level JSON keys of struct type t, as
// encoding/json names them (embedded structs without a tag flattened).
func jsonKeys(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			out = append(out, jsonKeys(f.Type)...)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, name)
	}
	return out
}

// foreign reports whether the record holds attributes but none of its
// type's canonical keys: nothing a check reads was recorded.
func (s *Subject) foreign() bool {
	tr := s.reads()
	return tr.canonical && !s.canonical && !s.blank
}

// whole reports whether the record holds every key its type's canonical
// attributes write even when zero, so that a missing omitempty key is the
// importer's zero. A type without canonical attributes counts as whole.
func (s *Subject) whole() bool {
	tr := s.reads()
	return s.written == tr.written
}
