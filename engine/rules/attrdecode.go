package rules

import (
	"encoding/json"
	"math"
	"sync"
	"unicode/utf8"

	"github.com/fourd-dev/fourd/engine/inventory"
	"github.com/fourd-dev/fourd/internal/jsonvalid"
)

//go:generate go test -run TestAttrDecodersGenerated -update .

// The canonical attributes of a resource are decoded once per resource
// into the struct of its type (NewSubject), a quarter of a 1M audit's
// client CPU with encoding/json, whose validating pass and reflection are
// most of it. attrdecode_gen.go holds a decoder per canonical struct,
// generated from the structs by TestAttrDecodersGenerated (-update writes
// it; without, the test fails when the file is stale), over the small
// reader below: one pass over the bytes, no reflection.
//
// The fast decoder decodes into a zero value exactly what encoding/json
// decodes, or gives up: on anything it does not handle (a key it does not
// know or meets twice, a key with escapes, a value of another JSON type
// than the field's, a number with a fraction or out of range, invalid
// JSON, a field kind it has no code for) it returns false and the caller
// decodes the whole record with encoding/json, so the result is always
// encoding/json's (FuzzAttrDecode* check it, family by family). Types that
// decode themselves (json.Unmarshaler: policy documents, string lists,
// times, raw messages) get the bytes of their value, as encoding/json
// gives them.

// fastAttrs decodes the attributes b of a resource of type typ into a new
// value of the type's canonical struct, and sets in keys a bit for each of
// its fields (attrDecoding.keys) that b holds; ok is false when typ has no
// fast decoder or b holds anything it leaves to encoding/json. When ok, b
// holds no key but those fields, each once.
func fastAttrs(typ string, b []byte, keys *fieldMask) (v any, ok bool) {
	dec, found := attrDecoders[typ]
	newAttrs, known := attrTypes[typ]
	if !found || !known {
		return nil, false
	}
	v = newAttrs()
	if !decodeInto(dec, b, v, keys) {
		return nil, false
	}
	return v, true
}

// decodeInto decodes the JSON object b into v, a struct of dec's type
// whose fields b names are zero, setting keys' bit of each.
func decodeInto(dec attrDecoding, b []byte, v any, keys *fieldMask) bool {
	d := attrDecoder{b: b}
	d.ws()
	if !dec.decode(&d, v, keys[:]) {
		return false
	}
	d.ws()
	return d.i == len(d.b)
}

// attrMaskWords bounds the fields of a struct with a fast decoder (64
// each); a wider one is left to encoding/json.
const attrMaskWords = 2

// fieldMask has bit i set for field i of a canonical struct (in the order
// of attrDecoding.keys).
type fieldMask [attrMaskWords]uint64

func (k *fieldMask) has(i int) bool { return k[i/64]&(1<<(i%64)) != 0 }

func (k *fieldMask) overlaps(o fieldMask) bool {
	for i := range k {
		if k[i]&o[i] != 0 {
			return true
		}
	}
	return false
}

func (k *fieldMask) union(o fieldMask) fieldMask {
	for i := range o {
		o[i] |= k[i]
	}
	return o
}

// attrDecoding is the generated decoder of a canonical type.
type attrDecoding struct {
	// decode decodes into v (a pointer to the type's struct), setting bit
	// i of mask for each field i it meets.
	decode func(d *attrDecoder, v any, mask []uint64) bool
	// keys are the JSON keys of the struct's fields, by field index.
	keys []string
}

// attrDecoders are the generated decoders by resource type
// (attrdecode_gen.go fills it, so that the package builds without that
// file while it is generated again).
var attrDecoders = map[string]attrDecoding{}

// attrFieldIndex is, by resource type, the field index of each key of its
// fast decoder.
var attrFieldIndex = sync.OnceValue(func() map[string]map[string]int {
	out := map[string]map[string]int{}
	for typ, dec := range attrDecoders {
		out[typ] = make(map[string]int, len(dec.keys))
		for i, k := range dec.keys {
			out[typ][k] = i
		}
	}
	return out
})

// attrDecoder reads JSON from b at i. Each value method starts at the
// value's first byte (whitespace skipped) and leaves i just after it.
type attrDecoder struct {
	b []byte
	i int
}

func (d *attrDecoder) ws() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *attrDecoder) peek() byte {
	if d.i < len(d.b) {
		return d.b[d.i]
	}
	return 0
}

// literal consumes the literal s (null, true, false) if it is next.
func (d *attrDecoder) literal(s string) bool {
	if len(d.b)-d.i >= len(s) && string(d.b[d.i:d.i+len(s)]) == s {
		d.i += len(s)
		return true
	}
	return false
}

// Object states returned by open.
const (
	objBad = iota
	objNull
	objEmpty
	objFields
)

// open starts an object value: null, {} or { followed by a first key
// (whitespace skipped); anything else is objBad.
func (d *attrDecoder) open() int {
	switch d.peek() {
	case 'n':
		if d.literal("null") {
			return objNull
		}
		return objBad
	case '{':
		d.i++
		d.ws()
		if d.peek() == '}' {
			d.i++
			return objEmpty
		}
		return objFields
	}
	return objBad
}

// key reads an object key and the colon after it, and skips the space
// before the value. Keys with escapes or bytes outside printable ASCII are
// refused: the canonical keys have none, and encoding/json could match
// them to a field up to case.
func (d *attrDecoder) key() ([]byte, bool) {
	if d.peek() != '"' {
		return nil, false
	}
	start := d.i + 1
	for j := start; j < len(d.b); j++ {
		c := d.b[j]
		if c == '"' {
			k := d.b[start:j]
			d.i = j + 1
			d.ws()
			if d.peek() != ':' {
				return nil, false
			}
			d.i++
			d.ws()
			return k, true
		}
		if c == '\\' || c < 0x20 || c >= 0x80 {
			return nil, false
		}
	}
	return nil, false
}

// Results of next.
const (
	nextBad = iota
	nextMore
	nextEnd
)

// next reads what follows a value in an object (end '}') or an array
// (end ']'): a comma (then the space before the next key or value) or
// the end.
func (d *attrDecoder) next(end byte) int {
	d.ws()
	switch d.peek() {
	case ',':
		d.i++
		d.ws()
		return nextMore
	case end:
		d.i++
		return nextEnd
	}
	return nextBad
}

// seen marks field f of an object as decoded; false when it already was
// (a duplicate key, which encoding/json decodes again over the first).
func seen(mask []uint64, f int) bool {
	w, bit := f/64, uint64(1)<<(f%64)
	if mask[w]&bit != 0 {
		return false
	}
	mask[w] |= bit
	return true
}

// str decodes a string (null leaves it unchanged).
func (d *attrDecoder) str(v *string) bool {
	switch d.peek() {
	case 'n':
		return d.literal("null")
	case '"':
	default:
		return false
	}
	start := d.i
	plain := true
	j := start + 1
	for ; j < len(d.b); j++ {
		c := d.b[j]
		if c == '"' {
			break
		}
		if c == '\\' {
			plain = false
			n := escapeLen(d.b, j)
			if n == 0 {
				return false
			}
			j += n - 1
			continue
		}
		if c < 0x20 {
			return false
		}
		if c >= 0x80 {
			plain = false
		}
	}
	if j >= len(d.b) {
		return false
	}
	d.i = j + 1
	s := d.b[start+1 : j]
	if plain || utf8.Valid(s) && !hasByte(s, '\\') {
		*v = string(s)
		return true
	}
	// Escapes or invalid UTF-8 (which encoding/json replaces): let it
	// unquote this one valid string.
	return json.Unmarshal(d.b[start:j+1], v) == nil
}

func hasByte(b []byte, c byte) bool {
	for _, x := range b {
		if x == c {
			return true
		}
	}
	return false
}

// escapeLen returns the length of the valid escape at b[j] == '\\', or 0.
func escapeLen(b []byte, j int) int {
	if j+1 >= len(b) {
		return 0
	}
	switch b[j+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		if j+6 > len(b) {
			return 0
		}
		for _, c := range b[j+2 : j+6] {
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return 0
			}
		}
		return 6
	}
	return 0
}

// boolean decodes true or false (null leaves it unchanged).
func (d *attrDecoder) boolean(v *bool) bool {
	switch d.peek() {
	case 't':
		if d.literal("true") {
			*v = true
			return true
		}
	case 'f':
		if d.literal("false") {
			*v = false
			return true
		}
	case 'n':
		return d.literal("null")
	}
	return false
}

// integer reads an integer written -?(0|[1-9][0-9]*) into n; a fraction,
// an exponent or a value past int64 is refused (encoding/json fails on
// them for integer fields, or would need its own parse).
func (d *attrDecoder) integer() (n int64, ok bool) {
	i, neg := d.i, false
	if i < len(d.b) && d.b[i] == '-' {
		neg = true
		i++
	}
	start := i
	var u uint64
	for i < len(d.b) && '0' <= d.b[i] && d.b[i] <= '9' {
		if u > (math.MaxUint64-9)/10 {
			return 0, false
		}
		u = u*10 + uint64(d.b[i]-'0')
		i++
	}
	digits := i - start
	if digits == 0 || digits > 1 && d.b[start] == '0' {
		return 0, false
	}
	if i < len(d.b) && (d.b[i] == '.' || d.b[i] == 'e' || d.b[i] == 'E') {
		return 0, false
	}
	switch {
	case !neg && u <= math.MaxInt64:
		n = int64(u)
	case neg && u <= 1<<63:
		n = -int64(u-1) - 1
	default:
		return 0, false
	}
	d.i = i
	return n, true
}

// signed decodes an integer into a signed field of the given bit size
// (null leaves it unchanged).
func signed[T ~int | ~int8 | ~int16 | ~int32 | ~int64](d *attrDecoder, v *T) bool {
	if d.peek() == 'n' {
		return d.literal("null")
	}
	n, ok := d.integer()
	if !ok || int64(T(n)) != n {
		return false
	}
	*v = T(n)
	return true
}

// unsigned decodes a non-negative integer into an unsigned field (null
// leaves it unchanged).
func unsigned[T ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64](d *attrDecoder, v *T) bool {
	if d.peek() == 'n' {
		return d.literal("null")
	}
	if d.peek() == '-' {
		return false
	}
	n, ok := d.integer()
	if !ok || n < 0 || uint64(T(n)) != uint64(n) {
		return false
	}
	*v = T(n)
	return true
}

// ptr decodes into *v, allocated when nil; null sets it to nil.
func ptr[T any](d *attrDecoder, v **T, elem func(*attrDecoder, *T) bool) bool {
	if d.peek() == 'n' {
		if !d.literal("null") {
			return false
		}
		*v = nil
		return true
	}
	if *v == nil {
		*v = new(T)
	}
	return elem(d, *v)
}

// slice decodes an array (an empty one into an empty, non-nil slice; null
// sets it to nil) into a zero slice.
func slice[T any](d *attrDecoder, v *[]T, elem func(*attrDecoder, *T) bool) bool {
	switch d.peek() {
	case 'n':
		if !d.literal("null") {
			return false
		}
		*v = nil
		return true
	case '[':
	default:
		return false
	}
	d.i++
	d.ws()
	out := (*v)[:0]
	if out == nil {
		out = []T{}
	}
	if d.peek() == ']' {
		d.i++
		*v = out
		return true
	}
	for {
		var zero T
		out = append(out, zero)
		if !elem(d, &out[len(out)-1]) {
			return false
		}
		switch d.next(']') {
		case nextEnd:
			*v = out
			return true
		case nextBad:
			return false
		}
	}
}

// unmarshal hands the bytes of the next value to u, as encoding/json does
// for a type that decodes itself (null included).
func unmarshal(d *attrDecoder, u json.Unmarshaler) bool {
	if doc, ok := u.(*inventory.PolicyDocument); ok {
		// A plain document is read in this pass (attrdecode_policy.go).
		start := d.i
		if d.policyDocument(doc) {
			return true
		}
		d.i = start
	}
	raw, ok := d.raw()
	return ok && u.UnmarshalJSON(raw) == nil
}

// raw validates the next value and returns its bytes (jsonvalid.Skip: a
// value nested deeper than it walks is left to encoding/json).
func (d *attrDecoder) raw() ([]byte, bool) {
	start := d.i
	end, ok := jsonvalid.Skip(d.b, d.i)
	if !ok {
		return nil, false
	}
	d.i = end
	return d.b[start:end], true
}
