package rules

import "github.com/fourd-dev/fourd/internal/jsonvalid"

// Unknown is not false. A resource's canonical attributes carry every fact
// its importer knows, each written explicitly even when it is false, "", 0
// or null (no bucket policy): a key missing from them is a fact the source
// did not record. A check whose failing condition holds on an attribute's
// zero value asks recorded before it fails, and reports the attribute not
// evaluated when it is missing. (Attributes the importers themselves may
// not know are pointers in the canonical types, nil when unknown: those
// checks use failUnless.)

// recordedHook, when set (by tests), sees every attribute a check asks
// recorded about, with the resource's type.
var recordedHook func(resourceType, key string)

// recorded reports whether the resource's canonical attributes have the
// top-level key, whatever its value: from the keys the fast decoder saw,
// or else a scan of the attributes without allocating; checks ask only
// when their condition holds on a zero value.
func (s *Subject) recorded(key string) bool {
	if recordedHook != nil {
		recordedHook(s.Resource.Type, key)
	}
	if s.keysKnown {
		// The fast decoder saw the record's keys: all its type's fields.
		i, ok := attrFieldIndex()[s.Resource.Type][key]
		return ok && s.keys.has(i)
	}
	return hasTopLevelKey(s.Resource.Attributes, key)
}

// unrecorded returns those of keys missing from the resource's attributes.
func (s *Subject) unrecorded(keys ...string) []string {
	var out []string
	for _, k := range keys {
		if !s.recorded(k) {
			out = append(out, k)
		}
	}
	return out
}

// failIfRecorded is failIf for a condition that holds on the zero value of
// attribute attr ("encrypted" false, "kms_key_id" ""): when the source did
// not record attr, the check is not evaluated instead of failing.
func failIfRecorded(s *Subject, cond bool, attr string, evidence func() map[string]any) Result {
	if cond && !s.recorded(attr) {
		return notEvaluated(attr)
	}
	return failIf(s, cond, evidence)
}

// failIfRecordedAll is failIfRecorded for a condition that holds on the
// zero values of several attributes: any of attrs missing leaves the check
// not evaluated when cond holds.
func failIfRecordedAll(s *Subject, cond bool, evidence func() map[string]any, attrs ...string) Result {
	if cond {
		if m := s.unrecorded(attrs...); len(m) > 0 {
			return notEvaluated(m...)
		}
	}
	return failIf(s, cond, evidence)
}

// failIfZero is failIf for a condition that holds on attribute attr's
// zero value among others (a versioning status "" as well as "Suspended"):
// when cond holds, attr is zero and the source did not record it, the
// check is not evaluated.
func failIfZero(s *Subject, cond, zero bool, attr string, evidence func() map[string]any) Result {
	if cond && zero && !s.recorded(attr) {
		return notEvaluated(attr)
	}
	return failIf(s, cond, evidence)
}

// hasTopLevelKey reports whether the JSON object b has the key at its top
// level. The attributes have parsed already, so the scan trusts their
// grammar (jsonvalid.Members); a key written with escapes is unescaped to
// compare.
func hasTopLevelKey(b []byte, key string) bool {
	found := false
	eachTopLevelKey(b, func(name, _ []byte) bool {
		found = string(name) == key
		return !found
	})
	return found
}

// skipSpace returns the index of the first byte at or after i that is not
// JSON whitespace.
func skipSpace(b []byte, i int) int { return jsonvalid.SkipSpace(b, i) }
