package policy

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/fourd-dev/fourd/engine"
)

// ParseAttributes decodes a resource's attributes (a JSON object) into the
// form policies read: objects as map[string]any, arrays as []any, integral
// numbers that fit as int64 and other numbers as float64, so that
// `resource.attributes.port == 22` and `size(x) > 0` behave as written.
// Parse once per resource and share the result, read-only, between the
// policies evaluated on it. Empty input and JSON null give a nil map (no
// attributes); anything but an object is a validation_failed error on the
// field "attributes".
func ParseAttributes(raw json.RawMessage) (map[string]any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if raw[0] != '{' {
		return nil, engine.FieldErrorf("attributes", "attributes must be a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, engine.FieldErrorf("attributes", "attributes are not valid JSON: %v", err)
	}
	if dec.More() {
		return nil, engine.FieldErrorf("attributes", "attributes must be a single JSON object")
	}
	convertNumbers(m)
	return m, nil
}

// convertNumbers replaces json.Number values in place.
func convertNumbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			switch e.(type) {
			case json.Number, map[string]any, []any:
				x[k] = convertNumbers(e)
			}
		}
	case []any:
		for i, e := range x {
			switch e.(type) {
			case json.Number, map[string]any, []any:
				x[i] = convertNumbers(e)
			}
		}
	case json.Number:
		s := string(x)
		if !strings.ContainsAny(s, ".eE") {
			if n, err := x.Int64(); err == nil {
				return n
			}
		}
		f, err := x.Float64()
		if err != nil {
			// Out of float64's range: keep the text rather than lose it.
			return s
		}
		return f
	}
	return v
}
