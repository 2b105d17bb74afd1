package engine

import (
	"encoding/json"
	"testing"
)

// FuzzAppendJSONString checks AppendJSONString against encoding/json.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", `a"b\c`, "<&>", "\x00\x1f\x7f", "café \xff \u2028", "\xe2\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendJSONString(nil, s); string(got) != string(want) {
			t.Fatalf("AppendJSONString(%q) = %s, want %s", s, got, want)
		}
	})
}
