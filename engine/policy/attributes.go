package policy

import (
	"bytes"
	"encoding/json"
	"math"

	"github.com/fourd-dev/fourd/engine"
)

// maxExactInt is the largest integer a float64 holds exactly (2^53).
const maxExactInt = 1 << 53

// ParseAttributes decodes a resource's attributes (a JSON object) into the
// form policies read: objects as map[string]any, arrays as []any, integral
// numbers up to 2^53 in magnitude as int64 and other numbers as float64,
// so that `resource.attributes.port == 22` and `x.size_gb + 1` behave as
// written. Parse once per resource and share the result, read-only, between
// the policies evaluated on it. Empty input and JSON null give a nil map
// (no attributes); anything but one JSON object is a validation_failed
// error on the field "attributes".
func ParseAttributes(raw json.RawMessage) (map[string]any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if raw[0] != '{' {
		return nil, engine.FieldErrorf("attributes", "attributes must be a JSON object")
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, engine.FieldErrorf("attributes", "attributes are not valid JSON: %v", err)
	}
	convertNumbers(m)
	return m, nil
}

// convertNumbers turns integral float64 values into int64, in place.
func convertNumbers(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			switch n := e.(type) {
			case float64:
				if i, ok := exactInt(n); ok {
					x[k] = i
				}
			case map[string]any, []any:
				convertNumbers(n)
			}
		}
	case []any:
		for i, e := range x {
			switch n := e.(type) {
			case float64:
				if j, ok := exactInt(n); ok {
					x[i] = j
				}
			case map[string]any, []any:
				convertNumbers(n)
			}
		}
	}
}

func exactInt(f float64) (int64, bool) {
	if f != math.Trunc(f) || f > maxExactInt || f < -maxExactInt {
		return 0, false
	}
	return int64(f), true
}
