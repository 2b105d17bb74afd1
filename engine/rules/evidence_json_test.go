package rules

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// EvidenceJSON writes what json.Marshal writes for the evidence of every
// violation of every sample estate, account-wide and deferred checks
// included.
func TestEvidenceJSONAsMarshal(t *testing.T) {
	n := 0
	check := func(v Violation) {
		if len(v.Evidence) == 0 {
			return
		}
		n++
		want, err := json.Marshal(v.Evidence)
		if err != nil {
			t.Fatal(err)
		}
		if got := v.EvidenceJSON(); string(got) != string(want) {
			t.Errorf("%s: EvidenceJSON\n got %s\nwant %s", v.Rule.ID, got, want)
		}
	}
	for _, name := range append(append([]string{}, sampleFiles...), policySampleFiles...) {
		a := NewAuditor(sampleNow)
		for _, r := range loadSample(t, name) {
			for _, v := range a.Evaluate(r) {
				check(v)
			}
		}
		for _, av := range a.Finish() {
			check(av.Violation)
		}
	}
	if n < 100 {
		t.Fatalf("only %d violations with evidence in the samples", n)
	}
}

type evidenceStruct struct {
	A string `json:"a"`
	B int    `json:"b,omitempty"`
}

// appendEvidence writes what json.Marshal writes for odd values too, or
// fails where it fails.
func TestAppendEvidenceOddValues(t *testing.T) {
	odd := []string{"", "plain", `quote " backslash \`, "<script>&amp;</script>", "\x00\x1f\x7f", "bad \xff utf8",
		"\u2028\u2029", "café ☃ 𝄞"}
	many := map[string]any{}
	for i := range 40 {
		many[strings.Repeat("k", 40-i)+odd[i%len(odd)]] = i
	}
	var nilMap map[string]any
	var nilStrings []string
	var nilAnys []any
	cases := []map[string]any{
		nil, {}, many,
		{"s": odd, "t": odd[3], odd[4]: odd[5], odd[6]: true, "f": false, "n": nil},
		{"i": 42, "i64": int64(-1 << 62), "i32": int32(-7), "u": uint(7), "u8": uint8(255)},
		{"f0": 0.0, "neg0": math.Copysign(0, -1), "f": 3.25, "big": 1e21, "almost": 999999999999999999999.0,
			"tiny": 1e-7, "small": 0.000001, "e": -1.5e-9, "f32": float32(0.1)},
		{"nil map": nilMap, "nil strings": nilStrings, "nil anys": nilAnys, "empty": []string{}, "empty any": []any{}},
		{"nested": map[string]any{"b": []any{1, "x", map[string]any{"z": nil, "a": []string{"<"}}}, "a": 1.5}},
		{"typed": evidenceStruct{A: "<a>"}, "ints": []int{1, 2}, "raw": json.RawMessage(`{"x": 1}`),
			"map": map[string]string{"b": "1", "a": "2"}, "ptr": &evidenceStruct{}},
	}
	for _, m := range cases {
		want, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := appendEvidence([]byte("pre"), m)
		if err != nil || string(got) != "pre"+string(want) {
			t.Errorf("appendEvidence(%v)\n got %s, %v\nwant %s", m, got, err, want)
		}
	}
	for _, m := range []map[string]any{{"nan": math.NaN()}, {"inf": []any{math.Inf(1)}}, {"ch": make(chan int)}} {
		if _, err := json.Marshal(m); err == nil {
			t.Fatalf("json.Marshal(%v) does not fail", m)
		}
		if _, err := appendEvidence(nil, m); err == nil {
			t.Errorf("appendEvidence(%v) does not fail", m)
		}
		if got := (Violation{Evidence: m}).EvidenceJSON(); string(got) != "{}" {
			t.Errorf("EvidenceJSON of %v = %s, want {}", m, got)
		}
	}
}

// BenchmarkEvidenceJSON is the evidence of every violation of the NDJSON
// sample, written once each, against json.Marshal.
func BenchmarkEvidenceJSON(b *testing.B) {
	var vs []Violation
	a := NewAuditor(sampleNow)
	for _, r := range loadSample(b, "fourd.ndjson") {
		vs = append(vs, a.Evaluate(r)...)
	}
	b.Run("EvidenceJSON", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, v := range vs {
				v.EvidenceJSON()
			}
		}
	})
	b.Run("json.Marshal", func(b *testing.B) { // what it replaced
		b.ReportAllocs()
		for b.Loop() {
			for _, v := range vs {
				if len(v.Evidence) > 0 {
					json.Marshal(v.Evidence)
				}
			}
		}
	})
}
