package rules

import (
	"reflect"
	"strings"
	"sync"
)

// A witness is a constant of the pack (reads_gen.go), yet witnessSubject
// decoded it for every partial record it was put into: on a 1M audit, the
// Terraform users' missing inline policies alone decoded three policy
// documents per user through encoding/json (~2 s of client CPU). The fields
// a witness sets are decoded once instead, into a zero struct of the type,
// and copied from there into each witness subject.

// witnessFields is {"key": witness} decoded by the fast decoder of a type
// into a zero value of its struct: the fields it set, their bits, and the
// value holding them. The value is shared by every subject the witness is
// put into, read-only like every subject's attributes.
type witnessFields struct {
	val    reflect.Value // the struct (not a pointer)
	mask   fieldMask
	fields []int // struct field indices, those of mask's bits
}

type witnessFieldsKey struct{ typ, key, witness string }

// witnessFieldsCache holds a *witnessFields, or nil when the fast decoder
// cannot decode the witness (witnessSubject then decodes as before), by
// witnessFieldsKey.
var witnessFieldsCache sync.Map

// witnessFieldsOf returns the decoded witness w of key for resource type
// typ, or nil when the type has no fast decoder or it does not decode w.
func witnessFieldsOf(typ, key, w string) *witnessFields {
	k := witnessFieldsKey{typ, key, w}
	if v, ok := witnessFieldsCache.Load(k); ok {
		return v.(*witnessFields)
	}
	t := decodeWitnessFields(typ, key, w)
	witnessFieldsCache.Store(k, t)
	return t
}

func decodeWitnessFields(typ, key, w string) *witnessFields {
	dec, ok := attrDecoders[typ]
	newAttrs, known := attrTypes[typ]
	if !ok || !known {
		return nil
	}
	v := newAttrs()
	var m fieldMask
	if !decodeInto(dec, witnessObject(key, w), v, &m) {
		return nil
	}
	t := &witnessFields{val: reflect.ValueOf(v).Elem(), mask: m}
	st := t.val.Type()
	for i, name := range dec.keys {
		if !m.has(i) {
			continue
		}
		// The decoder's field i must be the struct's field i, as the
		// generator writes them; anything else is left to the decoder.
		if i >= st.NumField() || jsonName(st.Field(i)) != name {
			return nil
		}
		t.fields = append(t.fields, i)
	}
	return t
}

// jsonName is the key encoding/json uses for a struct field with a tag.
func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" {
		return f.Name
	}
	return name
}
