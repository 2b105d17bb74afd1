package inventory

import "encoding/json"

// present is a decoded field that remembers whether its key was in the
// object, in the same pass as the value: Set is true when the key was there
// (null included), so that a nested key the input lacks (a public access
// block without one of its switches, a security group rule without its
// fromPort) is told from one whose value is false or 0 (the absent-key rule
// of awsconfig_absent.go, one level down).
type present[T any] struct {
	V   T
	Set bool
}

// UnmarshalJSON decodes the value and marks the key present.
func (p *present[T]) UnmarshalJSON(b []byte) error {
	p.Set = true
	return json.Unmarshal(b, &p.V)
}

// withUnrecorded returns attrs with keys also left unrecorded: attrs as a
// mapper returns it (a canonical struct or an unrecorded wrapper).
func withUnrecorded(attrs any, keys ...string) any {
	if len(keys) == 0 {
		return attrs
	}
	if u, ok := attrs.(unrecorded); ok {
		u.keys = append(u.keys, keys...)
		return u
	}
	return unrecorded{attrs: attrs, keys: keys}
}
