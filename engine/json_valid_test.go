package engine

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
)

// jsonValidCases are documents on both sides of json.Valid's line.
var jsonValidCases = []string{
	`{}`, ` { } `, `{"a":1}`, `{"a":[1,2,{"b":null}],"c":true,"d":false}`, `[]`, `[ ]`, `"x"`, `0`, `-0`,
	`1.5e10`, `-1.5E-10`, `1e+2`, `{"a":"\u00e9\n\t\"\\\/\b\f\r"}`, "{\"a\":\"caf\xc3\xa9\"}",
	"{\"a\":\"\xff\xfe\"}", // invalid UTF-8 is valid to json.Valid
	`{"a":1,}`, `{"a" 1}`, `{a:1}`, `{"a":01}`, `{"a":1.}`, `{"a":.5}`, `{"a":1e}`, `{"a":-}`, `{"a":+1}`,
	`{"a":"\x"}`, `{"a":"\u12"}`, `{"a":"\u12g4"}`, "{\"a\":\"\x01\"}", `{"a":"`, `{"a":tru}`, `{"a":nul}`,
	`{"a":1}}`, `{"a":1} x`, `[1,]`, `[,1]`, `{"a":[1 2]}`, `{"a":{"b":1}`, `{"a":"b\"}`, ``, ` `, `nulll`,
	`{"a":1} `, "\n{\"a\":1}\r\n", `{"":""}`, `[[[[[]]]]]`, `{"a":"\\"}`, `{"a":"\\\"}`, `1 2`,
	strings.Repeat("[", 300) + strings.Repeat("]", 300), // deeper than the fast walk: json.Valid decides
	strings.Repeat("[", 300) + strings.Repeat("]", 299),
	`{"a":1}` + "\x00",
}

func TestValidJSON(t *testing.T) {
	cases := jsonValidCases
	// The sample estate's attributes: realistic documents, all valid.
	if b, err := os.ReadFile("../testdata/inventory/fourd.ndjson"); err == nil {
		for line := range strings.SplitSeq(strings.TrimSpace(string(b)), "\n") {
			var l struct{ Attributes json.RawMessage }
			if json.Unmarshal([]byte(line), &l) == nil && len(l.Attributes) > 0 {
				cases = append(cases, string(l.Attributes))
				// and every prefix of the first few: mostly invalid
				if len(cases) < len(jsonValidCases)+5 {
					for i := range len(l.Attributes) {
						cases = append(cases, string(l.Attributes[:i]))
					}
				}
			}
		}
	} else {
		t.Fatal(err)
	}
	for _, c := range cases {
		if got, want := ValidJSON([]byte(c)), json.Valid([]byte(c)); got != want {
			t.Errorf("ValidJSON(%q) = %v, json.Valid says %v", c, got, want)
		}
	}
}

func FuzzValidJSON(f *testing.F) {
	for _, c := range jsonValidCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := ValidJSON(b), json.Valid(b); got != want {
			t.Errorf("ValidJSON(%q) = %v, json.Valid says %v", b, got, want)
		}
	})
}

// ValidJSONStrict refuses exactly the strict exclusions among valid
// documents, at their bounds, and everything invalid.
func TestValidJSONStrict(t *testing.T) {
	digits := func(n int) string { return strings.Repeat("9", n) }
	nest := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	tests := []struct {
		doc  string
		want bool
	}{
		{`{"a":[1,2.5e10,-3E+308,true,false,null],"b":"x\"y\u00e9\u2028"}`, true},
		{`{"a":"\u0000"}`, false}, {`{"a":"\u0001"}`, true},
		{`{"a":"\uD83D\uDE00"}`, false}, {`{"a":"\udfff"}`, false}, {`{"a":"\uE000"}`, true},
		{`[1` + digits(999) + `]`, true}, {`[1` + digits(1000) + `]`, false},
		{`[0.` + digits(1000) + `]`, true}, {`[0.` + digits(1001) + `]`, false},
		{`[1e9999]`, true}, {`[1E-10000]`, false}, {`[1e00001]`, false},
		{nest(64), true}, {nest(65), false},
		{`{"a":1,}`, false}, {`[1 2]`, false}, {``, false}, {`{"a":1} x`, false},
	}
	for _, tt := range tests {
		if got := ValidJSONStrict([]byte(tt.doc)); got != tt.want {
			t.Errorf("ValidJSONStrict(%.50q) = %v, want %v", tt.doc, got, tt.want)
		}
	}
	for _, c := range jsonValidCases {
		if ValidJSONStrict([]byte(c)) && !json.Valid([]byte(c)) {
			t.Errorf("ValidJSONStrict(%q) accepts what json.Valid refuses", c)
		}
	}
}

func FuzzValidJSONStrict(f *testing.F) {
	for _, c := range jsonValidCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if ValidJSONStrict(b) && !json.Valid(b) {
			t.Errorf("ValidJSONStrict(%q) accepts what json.Valid refuses", b)
		}
	})
}

func TestValidName(t *testing.T) {
	provider := regexp.MustCompile(`^[a-z][a-z0-9]{0,31}$`)
	typ := regexp.MustCompile(`^[a-z][a-z0-9_]{0,99}$`)
	cases := []string{"", "a", "aws", "gcp2", "Aws", "1aws", "_a", "a_b", "aws_s3_bucket", "a-b", "a b", "é",
		"a\x00", strings.Repeat("a", 32), strings.Repeat("a", 33), strings.Repeat("a", 100), strings.Repeat("a", 101),
		"a" + strings.Repeat("_", 99), "a" + strings.Repeat("_", 100), "z9", "a{", "a`", "a/", "a:"}
	for _, c := range cases {
		if got, want := validName(c, 32, false), provider.MatchString(c); got != want {
			t.Errorf("provider %q: validName = %v, regexp %v", c, got, want)
		}
		if got, want := validName(c, 100, true), typ.MatchString(c); got != want {
			t.Errorf("type %q: validName = %v, regexp %v", c, got, want)
		}
	}
}

func BenchmarkValidJSON(b *testing.B) {
	data, err := os.ReadFile("../testdata/inventory/fourd.ndjson")
	if err != nil {
		b.Fatal(err)
	}
	var docs [][]byte
	size := 0
	for line := range strings.SplitSeq(strings.TrimSpace(string(data)), "\n") {
		var l struct{ Attributes json.RawMessage }
		if json.Unmarshal([]byte(line), &l) == nil {
			docs = append(docs, l.Attributes)
			size += len(l.Attributes)
		}
	}
	for _, bb := range []struct {
		name string
		f    func([]byte) bool
	}{{"fast", ValidJSON}, {"strict", ValidJSONStrict}, {"encoding_json", json.Valid}} {
		b.Run(bb.name, func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				for _, d := range docs {
					if !bb.f(d) {
						b.Fatal("invalid")
					}
				}
			}
		})
	}
}
