package policy

import (
	"encoding/json"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	"github.com/google/go-cmp/cmp"
)

func TestParseAttributes(t *testing.T) {
	tests := []struct {
		name    string
		raw     string
		want    map[string]any
		wantErr string
	}{
		{"empty", "", nil, ""},
		{"null", " null ", nil, ""},
		{"empty object", "{}", map[string]any{}, ""},
		{"numbers", `{"port":22,"ratio":0.5,"big":1e3,"neg":-7,"huge":123456789012345678901234567890}`,
			map[string]any{"port": int64(22), "ratio": 0.5, "big": int64(1000), "neg": int64(-7), "huge": 1.2345678901234568e+29}, ""},
		{"limits of exact integers", `{"max":9007199254740992,"above":9007199254740993e1,"float":2.0}`,
			map[string]any{"max": int64(9007199254740992), "above": 9.007199254740993e+16, "float": int64(2)}, ""},
		{"nested", `{"a":{"b":[1,{"c":2.5}],"d":null,"e":true,"f":"x"}}`,
			map[string]any{"a": map[string]any{"b": []any{int64(1), map[string]any{"c": 2.5}}, "d": nil, "e": true, "f": "x"}}, ""},
		{"array", `[1,2]`, nil, "attributes must be a JSON object"},
		{"string", `"x"`, nil, "attributes must be a JSON object"},
		{"invalid", `{"a":`, nil, "attributes are not valid JSON: unexpected end of JSON input"},
		{"trailing data", `{"a":1} {"b":2}`, nil, "attributes are not valid JSON: invalid character '{' after top-level value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseAttributes(json.RawMessage(tt.raw))
			if tt.wantErr != "" {
				want := &engine.Error{Code: engine.CodeValidationFailed, Field: "attributes", Message: tt.wantErr}
				if diff := cmp.Diff(want, err); diff != "" {
					t.Errorf("error (-want +got):\n%s", diff)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseAttributes: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseAttributes (-want +got):\n%s", diff)
			}
		})
	}
}
