package rules

import (
	"encoding/json"

	"github.com/fourd-dev/fourd/engine/inventory"
)

// Policy documents decode themselves (inventory.PolicyDocument accepts
// the encodings Terraform and AWS Config store them in), so the fast
// decoder handed their bytes to encoding/json: ~1 s of a 1M audit's client
// CPU for the buckets', queues', keys' and principals' policies. A
// document written as a plain JSON object with the keys AWS writes is
// read here in the same pass; anything else (an encoded document, a key in
// another case or unknown, a key twice, null where a value is expected) is
// left to PolicyDocument.UnmarshalJSON, as before. The result is what
// UnmarshalJSON gives (TestFastAttrsMatchesEncodingJSON, FuzzAttrDecode*).

// policyDocument decodes a policy document written as a plain object into
// v; false (d's position then undefined) when it is written otherwise.
func (d *attrDecoder) policyDocument(v *inventory.PolicyDocument) bool {
	if d.open() != objFields {
		return false // null, {} and the encoded forms: UnmarshalJSON
	}
	var out inventory.PolicyDocument
	var mask [1]uint64
	for {
		k, ok := d.key()
		if !ok {
			return false
		}
		f := 0
		switch string(k) {
		case "Version":
			f, ok = 0, d.peek() == '"' && d.str(&out.Version)
		case "Id":
			f, ok = 1, d.peek() == '"' && d.str(&out.ID)
		case "Statement":
			f, ok = 2, d.policyStatements(&out.Statement)
		default:
			return false
		}
		if !ok || !seen(mask[:], f) {
			return false
		}
		switch d.next('}') {
		case nextEnd:
			*v = out
			return true
		case nextBad:
			return false
		}
	}
}

// policyStatements decodes a document's Statement: an array of statement
// objects, or one statement object.
func (d *attrDecoder) policyStatements(v *[]inventory.PolicyStatement) bool {
	if d.peek() == '{' {
		var one inventory.PolicyStatement
		if !d.policyStatement(&one) {
			return false
		}
		*v = []inventory.PolicyStatement{one}
		return true
	}
	return d.peek() == '[' && slice(d, v, (*attrDecoder).policyStatement)
}

// policyStatement decodes one statement object.
func (d *attrDecoder) policyStatement(v *inventory.PolicyStatement) bool {
	switch d.open() {
	case objEmpty:
		return true
	case objFields:
	default:
		return false
	}
	var mask [1]uint64
	for {
		k, ok := d.key()
		if !ok {
			return false
		}
		f := 0
		switch string(k) {
		case "Sid":
			f, ok = 0, d.peek() == '"' && d.str(&v.Sid)
		case "Effect":
			f, ok = 1, d.peek() == '"' && d.str(&v.Effect)
		case "Principal":
			f, ok = 2, d.rawCopy(&v.Principal)
		case "NotPrincipal":
			f, ok = 3, d.rawCopy(&v.NotPrincipal)
		case "Action":
			f, ok = 4, d.stringList(&v.Action)
		case "NotAction":
			f, ok = 5, d.stringList(&v.NotAction)
		case "Resource":
			f, ok = 6, d.stringList(&v.Resource)
		case "NotResource":
			f, ok = 7, d.stringList(&v.NotResource)
		case "Condition":
			f, ok = 8, d.rawCopy(&v.Condition)
		default:
			return false
		}
		if !ok || !seen(mask[:], f) {
			return false
		}
		switch d.next('}') {
		case nextEnd:
			return true
		case nextBad:
			return false
		}
	}
}

// rawCopy keeps the next value's bytes, copied, as json.RawMessage does.
func (d *attrDecoder) rawCopy(v *json.RawMessage) bool {
	raw, ok := d.raw()
	if !ok {
		return false
	}
	*v = append(json.RawMessage(nil), raw...)
	return true
}

// stringList decodes a string (a list of one) or an array of strings (an
// empty one into an empty, non-nil list), as inventory.StringList does;
// null, here or in the array, is left to it.
func (d *attrDecoder) stringList(v *inventory.StringList) bool {
	switch d.peek() {
	case '"':
		var s string
		if !d.str(&s) {
			return false
		}
		*v = inventory.StringList{s}
		return true
	case '[':
	default:
		return false
	}
	d.i++
	d.ws()
	out := inventory.StringList{}
	if d.peek() == ']' {
		d.i++
		*v = out
		return true
	}
	for {
		var s string
		if d.peek() != '"' || !d.str(&s) {
			return false
		}
		out = append(out, s)
		switch d.next(']') {
		case nextEnd:
			*v = out
			return true
		case nextBad:
			return false
		}
	}
}
