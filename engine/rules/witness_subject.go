package rules

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"

	"github.com/fourd-dev/fourd/engine"
)

// witnessFromParsed lets witnessSubject reuse the subject's parse; tests
// turn it off to compare with a parse of the whole record.
var witnessFromParsed = true

// witnessSubject is NewSubject(res, s.Now) for res, s's resource with the
// attribute key, which its record lacks, set to the witness w (res's
// attributes are withTopLevelKey's). Rather than parsing the whole record
// again, it copies the attributes s parsed and decodes {"key": w} into the
// copy: the field key names is zero there, so the copy shares no memory the
// decode writes to, and it ends as a parse of res would. It parses res when
// that could differ: s did not parse or recorded nothing, the attribute
// type decodes itself, or s's record has a key that encoding/json decodes
// into the same field as key (equal up to case), which a parse of res
// would decode after the witness.
func (s *Subject) witnessSubject(res *engine.Resource, key, w string) *Subject {
	if !witnessFromParsed || s.bad || s.blank || s.attrs == nil || s.recordsFoldedKey(key) {
		return NewSubject(res, s.Now)
	}
	if _, ok := s.attrs.(json.Unmarshaler); ok {
		return NewSubject(res, s.Now)
	}
	v := &Subject{Resource: res, Now: s.Now, blank: blankAttributes(res.Attributes)}
	src := reflect.ValueOf(s.attrs)
	c := reflect.New(src.Type().Elem())
	c.Elem().Set(src.Elem())
	v.attrs = c.Interface()
	if t := witnessFieldsOf(res.Type, key, w); t != nil && s.keysKnown && !t.mask.overlaps(s.keys) {
		// The witness decoded once per audit process: its fields go into
		// the copy as the fast decoder would have set them.
		for _, i := range t.fields {
			c.Elem().Field(i).Set(t.val.Field(i))
		}
		v.keys, v.keysKnown = t.mask.union(s.keys), true
		return v
	}
	obj := witnessObject(key, w)
	if dec, ok := attrDecoders[res.Type]; ok && s.keysKnown {
		// The fast decoder reads the witness into the copy when it can;
		// the record's keys are then s's and key.
		var m fieldMask
		if decodeInto(dec, obj, v.attrs, &m) && !m.overlaps(s.keys) {
			v.keys, v.keysKnown = m.union(s.keys), true
			return v
		}
		c.Elem().Set(src.Elem())
	}
	v.bad = json.Unmarshal(obj, v.attrs) != nil
	return v
}

// recordsFoldedKey is recordsFoldedKey of s's attributes, from the keys
// the fast decoder saw when it read them.
func (s *Subject) recordsFoldedKey(key string) bool {
	if !s.fastKeys() {
		return recordsFoldedKey(s.Resource.Attributes, key)
	}
	for i, k := range attrDecoders[s.Resource.Type].keys {
		if s.keys.has(i) && k != key && strings.EqualFold(k, key) {
			return true
		}
	}
	return false
}

// recordsFoldedKey reports whether the JSON object b has a top-level key
// other than key that equals it up to case, as encoding/json matches keys
// to fields (bytes.EqualFold).
func recordsFoldedKey(b []byte, key string) bool {
	found := false
	eachTopLevelKey(b, func(name, _ []byte) bool {
		found = string(name) != key && bytes.EqualFold(name, []byte(key))
		return !found
	})
	return found
}

// witnessObject is the JSON object {"key": w}.
func witnessObject(key, w string) []byte {
	k, _ := json.Marshal(key)
	obj := make([]byte, 0, len(k)+len(w)+3)
	return append(append(append(append(append(obj, '{'), k...), ':'), w...), '}')
}
