package jsonvalid

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// validCases are documents on both sides of json.Valid's line.
var validCases = []string{
	`{}`, ` { } `, `{"a":1}`, `{"a":[1,2,{"b":null}],"c":true,"d":false}`, `[]`, `[ ]`, `"x"`, `0`, `-0`,
	`1.5e10`, `-1.5E-10`, `1e+2`, `{"a":"\u00e9\n\t\"\\\/\b\f\r"}`, "{\"a\":\"caf\xc3\xa9\"}",
	"{\"a\":\"\xff\xfe\"}", // invalid UTF-8 is valid to json.Valid
	`{"a":1,}`, `{"a" 1}`, `{a:1}`, `{"a":01}`, `{"a":1.}`, `{"a":.5}`, `{"a":1e}`, `{"a":-}`, `{"a":+1}`,
	`{"a":"\x"}`, `{"a":"\u12"}`, `{"a":"\u12g4"}`, "{\"a\":\"\x01\"}", `{"a":"`, `{"a":tru}`, `{"a":nul}`,
	`{"a":1}}`, `{"a":1} x`, `[1,]`, `[,1]`, `{"a":[1 2]}`, `{"a":{"b":1}`, `{"a":"b\"}`, ``, ` `, `nulll`,
	`{"a":1} `, "\n{\"a\":1}\r\n", `{"":""}`, `[[[[[]]]]]`, `{"a":"\\"}`, `{"a":"\\\"}`, `1 2`,
	`"0123456789abcdef\"0123456789abcdef"`, "\"0123456789\x1f0123456789\"", `"01234567\`, `"0123456"`,
	nest(MaxDepth), nest(MaxDepth + 1), // deeper than the walk: json.Valid decides
	nest(MaxDepth + 1)[1:], strings.Repeat("[", 600) + strings.Repeat("]", 599),
	`{"a":1}` + "\x00", `[1e99999]`, `["\u0000", "\uD83D\uDE00"]`,
}

// nest is n nested arrays.
func nest(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }

// sampleAttributes are the sample estate's attributes: realistic documents,
// all valid.
func sampleAttributes(tb testing.TB) [][]byte {
	b, err := os.ReadFile("../../testdata/inventory/fourd.ndjson")
	if err != nil {
		tb.Fatal(err)
	}
	var docs [][]byte
	for line := range strings.SplitSeq(strings.TrimSpace(string(b)), "\n") {
		var l struct{ Attributes json.RawMessage }
		if json.Unmarshal([]byte(line), &l) == nil && len(l.Attributes) > 0 {
			docs = append(docs, l.Attributes)
		}
	}
	return docs
}

func TestValid(t *testing.T) {
	cases := validCases
	for i, d := range sampleAttributes(t) {
		cases = append(cases, string(d))
		if i < 5 { // and every prefix of the first few: mostly invalid
			for j := range len(d) {
				cases = append(cases, string(d[:j]))
			}
		}
	}
	for _, c := range cases {
		if got, want := Valid([]byte(c)), json.Valid([]byte(c)); got != want {
			t.Errorf("Valid(%.80q) = %v, json.Valid says %v", c, got, want)
		}
	}
}

func FuzzValid(f *testing.F) {
	for _, c := range validCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := Valid(b), json.Valid(b); got != want {
			t.Errorf("Valid(%q) = %v, json.Valid says %v", b, got, want)
		}
	})
}

// Strict refuses exactly the strict exclusions among valid documents, at
// their bounds, at any depth, and everything invalid.
func TestStrict(t *testing.T) {
	digits := func(n int) string { return strings.Repeat("9", n) }
	deep := func(s string) string { return strings.Repeat("[", MaxDepth+1) + s + strings.Repeat("]", MaxDepth+1) }
	tests := []struct {
		doc  string
		want bool
	}{
		{`{"a":[1,2.5e10,-3E+308,true,false,null],"b":"x\"y\u00e9\u2028"}`, true},
		{`{"a":"\u0000"}`, false}, {`{"a":"\u0001"}`, true}, {`{"a":"x\\u0000"}`, true},
		{`{"a":"\uD83D\uDE00"}`, false}, {`{"a":"\udfff"}`, false}, {`{"a":"\uD800"}`, false},
		{`{"a":"\uD7FF"}`, true}, {`{"a":"\uE000"}`, true}, {`{"a":"\ud000"}`, true},
		{`[1` + digits(999) + `]`, true}, {`[1` + digits(1000) + `]`, false},
		{`[0.` + digits(1000) + `]`, true}, {`[0.` + digits(1001) + `]`, false},
		{`[1e9999]`, true}, {`[1E-10000]`, false}, {`[1e00001]`, false},
		{nest(64), true}, {nest(MaxDepth), true}, {nest(MaxDepth + 1), true},
		{deep(`"\u0000"`), false}, {deep(`"\uDBFF"`), false}, {deep(`1e10000`), false}, {deep(digits(1001)), false},
		{deep(`"\u00e9", 1e9999, ` + digits(1000)), true}, {deep(`1,`), false},
		{`{"a":1,}`, false}, {`[1 2]`, false}, {``, false}, {`{"a":1} x`, false},
	}
	for _, tt := range tests {
		if got := Strict([]byte(tt.doc)); got != tt.want {
			t.Errorf("Strict(%.50q) = %v, want %v", tt.doc, got, tt.want)
		}
	}
	for _, c := range validCases {
		if Strict([]byte(c)) && !json.Valid([]byte(c)) {
			t.Errorf("Strict(%q) accepts what json.Valid refuses", c)
		}
	}
}

// FuzzStrict compares the strict walk with json.Valid and the flat scan
// that decides documents deeper than the walk: two implementations of the
// same bounds.
func FuzzStrict(f *testing.F) {
	for _, c := range validCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := Strict(b), json.Valid(b) && strictScan(b); got != want {
			t.Errorf("Strict(%q) = %v; json.Valid and strictScan say %v", b, got, want)
		}
	})
}

// Skip steps over exactly one value: inside a larger document it stops
// where the value ends, and on a whole document it agrees with Valid
// except beyond MaxDepth, where it is not ok.
func TestSkip(t *testing.T) {
	doc := []byte(`{"a": {"b":[1,"x\"}",{}]} , "c":2}`)
	end, ok := Skip(doc, len(`{"a":`))
	if want := len(`{"a": {"b":[1,"x\"}",{}]}`); !ok || end != want {
		t.Errorf("Skip = %d, %v; want %d, true", end, ok, want)
	}
	if _, ok := Skip([]byte(nest(MaxDepth+1)), 0); ok {
		t.Error("Skip of a document deeper than MaxDepth is ok")
	}
	if end, ok := Skip([]byte(nest(MaxDepth)), 0); !ok || end != 2*MaxDepth {
		t.Errorf("Skip(nest(MaxDepth)) = %d, %v", end, ok)
	}
}

func FuzzSkip(f *testing.F) {
	for _, c := range validCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		end, ok := Skip(b, 0)
		if !ok {
			if strings.Count(string(b), "[")+strings.Count(string(b), "{") <= MaxDepth && Valid(b) {
				t.Errorf("Skip(%q) not ok; Valid says true", b)
			}
			return
		}
		if !Valid(b[:end]) {
			t.Errorf("Skip(%q) = %d, but %q is not valid", b, end, b[:end])
		}
		w := walker{b: b, i: end}
		w.ws()
		if w.i == len(b) != Valid(b) {
			t.Errorf("Skip(%q) = %d; Valid says %v", b, end, Valid(b))
		}
	})
}

// BenchmarkValid checks the sample estate's attributes (25 types).
func BenchmarkValid(b *testing.B) {
	docs := sampleAttributes(b)
	size := 0
	for _, d := range docs {
		size += len(d)
	}
	for _, bb := range []struct {
		name string
		f    func([]byte) bool
	}{{"fast", Valid}, {"strict", Strict}, {"encoding_json", json.Valid}} {
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

// FuzzMembers checks the presence scans' trusted walk against
// encoding/json: on every valid document SkipTrusted ends where Skip (and
// encoding/json) ends, and Members yields exactly the members
// encoding/json decodes, in order, with their raw values; on any input it
// must not panic.
func FuzzMembers(f *testing.F) {
	for _, s := range []string{`{"a":1,"b":[1,{"c":"}"}],"d":"x\"y"}`, ` [1, 2] `, `"s"`, `true`, `{}`, `{"a\u0062":null}`,
		`{"a" : { "b" : [ ] } , "c" : 2 }`, `{"a":1}x`, `{`, `{"a":1,`, `{"a":tru}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		end := SkipTrusted(b, 0)
		if end < 0 || end > len(b) {
			t.Fatalf("SkipTrusted(%q) = %d, out of range", b, end)
		}
		var names, values []string
		Members(b, func(name, value []byte) bool {
			names, values = append(names, string(name)), append(values, strings.TrimRight(string(value), " \t\n\r"))
			return true
		})
		if !json.Valid(b) || !utf8.Valid(b) { // encoding/json rewrites invalid UTF-8 in names
			return
		}
		if want, ok := Skip(b, 0); ok && end != want && SkipSpace(b, want) != end {
			t.Fatalf("SkipTrusted(%q) = %d, Skip (encoding/json's answer) %d", b, end, want)
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
			if len(names) != 0 {
				t.Fatalf("Members(%q) found %q in a value that is not an object", b, names)
			}
			return
		}
		var want, wantValues []string
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				t.Fatal(err)
			}
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				t.Fatal(err)
			}
			want, wantValues = append(want, tok.(string)), append(wantValues, string(v))
		}
		if !slices.Equal(names, want) || !slices.Equal(values, wantValues) {
			t.Fatalf("Members(%q) = %q %q, encoding/json %q %q", b, names, values, want, wantValues)
		}
	})
}
