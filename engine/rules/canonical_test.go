package rules

import (
	"encoding/json"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// wholeRecord returns res with every key its type's canonical attributes
// write even when zero added at its zero value where res lacks it: the
// record an importer writes whole, on which an omitempty attribute's
// absence is its zero.
func wholeRecord(t testing.TB, res engine.Resource) engine.Resource {
	t.Helper()
	newAttrs, ok := attrTypes[res.Type]
	if !ok {
		t.Fatalf("%s has no canonical attributes", res.Type)
	}
	b, err := json.Marshal(newAttrs())
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]json.RawMessage{}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var own map[string]json.RawMessage
	if err := json.Unmarshal(res.Attributes, &own); err != nil {
		t.Fatal(err)
	}
	for k, v := range own {
		m[k] = v
	}
	if res.Attributes, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	return res
}
