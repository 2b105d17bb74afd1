package clickhouse

import (
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// unpackTags reads what the server packs and refuses anything else, without
// reading past the string.
func TestUnpackTags(t *testing.T) {
	good := map[string]engine.Tags{
		"":                     {},
		"1:a0:":                {{Key: "a"}},
		"3:a:b2:1:0:1:x":       nil, // a key of three bytes, a value "1:", then a key "", a value "x"
		"2:é1:\x003:k:v4:12:3": {{Key: "é", Value: "\x00"}, {Key: "k:v", Value: "12:3"}},
	}
	good["3:a:b2:1:0:1:x"] = engine.Tags{{Key: "a:b", Value: "1:"}, {Key: "", Value: "x"}}
	for in, want := range good {
		got, err := unpackTags(in)
		if err != nil || len(got) != len(want) || got == nil {
			t.Errorf("unpackTags(%q) = %q, %v; want %q", in, got, err, want)
			continue
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("unpackTags(%q) = %q, want %q", in, got, want)
			}
		}
	}
	for _, in := range []string{"a", "1", "1:", "1:a", "1:a1:", "2:a0:", ":a0:", "x:a0:", "1:a0", "1:a0:3:abc", "1234567890:a",
		"-1:a0:", "1:a0:x"} {
		if got, err := unpackTags(in); err == nil {
			t.Errorf("unpackTags(%q) = %q, want an error", in, got)
		}
	}
}
