package engine

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSortTags(t *testing.T) {
	tests := []struct {
		name     string
		in, want Tags
	}{
		{"nil", nil, nil},
		{"in order", Tags{{"a", "1"}, {"b", "2"}}, Tags{{"a", "1"}, {"b", "2"}}},
		{"reversed", Tags{{"c", "3"}, {"b", "2"}, {"a", "1"}}, Tags{{"a", "1"}, {"b", "2"}, {"c", "3"}}},
		// Of a key given twice the last value stays, as in a decoded map.
		{"repeated key", Tags{{"b", "x"}, {"a", "1"}, {"b", "y"}, {"b", "z"}}, Tags{{"a", "1"}, {"b", "z"}}},
		{"repeated in order", Tags{{"a", "1"}, {"a", "2"}}, Tags{{"a", "2"}}},
		{"bytes, not letters", Tags{{"b", ""}, {"B", ""}, {"é", ""}, {"a", ""}}, Tags{{"B", ""}, {"a", ""}, {"b", ""}, {"é", ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := append(Tags(nil), tt.in...)
			if sorted := in.Sorted(); !cmp.Equal(tt.want, sorted) || !cmp.Equal(append(Tags(nil), tt.in...), in) {
				t.Errorf("Sorted() = %v, want %v, leaving %v as it was", sorted, tt.want, tt.in)
			}
			got := SortTags(in)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Fatalf("(-want +got)\n%s", diff)
			}
			if !got.InOrder() {
				t.Fatalf("%v is not in order", got)
			}
		})
	}
}

func TestTagsFromMapAndGet(t *testing.T) {
	tags := TagsFromMap(map[string]string{"team": "core", "env": "prod", "Env": "dev", "": "empty"})
	want := Tags{{"", "empty"}, {"Env", "dev"}, {"env", "prod"}, {"team", "core"}}
	if diff := cmp.Diff(want, tags); diff != "" {
		t.Fatalf("(-want +got)\n%s", diff)
	}
	for k, v := range map[string]string{"env": "prod", "Env": "dev", "": "empty"} {
		if got, ok := tags.Get(k); !ok || got != v {
			t.Errorf("Get(%q) = %q, %v; want %q", k, got, ok, v)
		}
	}
	if got, ok := tags.Get("ENV"); ok || got != "" || tags.Value("ENV") != "" {
		t.Errorf("Get(ENV) = %q, %v; keys are case-sensitive", got, ok)
	}
	// Get needs no order.
	if v, ok := (Tags{{"z", "1"}, {"a", "2"}}).Get("a"); !ok || v != "2" {
		t.Errorf("Get on unordered tags = %q, %v", v, ok)
	}
	if TagsFromMap(nil) != nil || Tags(nil).Map() != nil {
		t.Error("nil does not stay nil")
	}
	if m := (Tags{}).Map(); m == nil || len(m) != 0 {
		t.Errorf("empty tags as a map: %#v", m)
	}
	if diff := cmp.Diff(map[string]string{"a": "1", "b": "2"}, Tags{{"a", "1"}, {"b", "2"}}.Map()); diff != "" {
		t.Errorf("Map (-want +got)\n%s", diff)
	}
}

// TestTagsJSON checks that Tags read and write JSON exactly as the
// map[string]string they replace did.
func TestTagsJSON(t *testing.T) {
	maps := []map[string]string{
		nil,
		{},
		{"Name": "web", "env": "prod"},
		{"<b>": "a&b", "é\u2028": "\x00\"\\", "z": "", "": "empty key"},
	}
	for _, m := range maps {
		want, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(TagsFromMap(m))
		if err != nil || string(got) != string(want) {
			t.Errorf("Marshal(%v) = %s, %v; want %s", m, got, err, want)
		}
		var back Tags
		if err := json.Unmarshal(want, &back); err != nil {
			t.Fatalf("Unmarshal(%s): %v", want, err)
		}
		if diff := cmp.Diff(TagsFromMap(m), back); diff != "" {
			t.Errorf("Unmarshal(%s) (-want +got)\n%s", want, diff)
		}
	}
	// Out of order or with a key twice, they are written as the map.
	got, err := json.Marshal(Resource{Tags: Tags{{"b", "2"}, {"a", "1"}, {"b", "3"}}})
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Tags json.RawMessage `json:"tags"`
	}
	if err := json.Unmarshal(got, &r); err != nil || string(r.Tags) != `{"a":"1","b":"3"}` {
		t.Errorf("unordered tags written as %s, %v", r.Tags, err)
	}
	// A repeated key keeps its last value, and a repeated object adds to
	// the tags, as encoding/json does with a map.
	var res Resource
	if err := json.Unmarshal([]byte(`{"tags":{"a":"1","b":"2","a":"3"},"tags":{"c":"4"}}`), &res); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Tags{{"a", "3"}, {"b", "2"}, {"c", "4"}}, res.Tags); diff != "" {
		t.Errorf("repeated keys (-want +got)\n%s", diff)
	}
	if err := json.Unmarshal([]byte(`{"tags":null}`), &res); err != nil || res.Tags != nil {
		t.Errorf("null tags read as %v, %v", res.Tags, err)
	}
	for _, bad := range []string{`{"tags":{"a":1}}`, `{"tags":["a"]}`, `{"tags":"a"}`, `{"tags":{"a":null,"b":{}}}`} {
		var m struct {
			Tags map[string]string `json:"tags"`
		}
		wantErr := json.Unmarshal([]byte(bad), &m) != nil
		if err := json.Unmarshal([]byte(bad), &res); (err != nil) != wantErr {
			t.Errorf("Unmarshal(%s) = %v; map error: %v", bad, err, wantErr)
		}
	}
}
