package rules

import (
	"encoding/json"
	"fmt"
	"go/format"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// A probe is one passing input of a rule's cases: the stream and the index
// of the resource the rule judges.
type probe struct {
	stream []engine.Resource
	i      int
}

// checkOutcome runs rule r on stream[i] with the facts of the rest of the
// stream joined, as an audit's Finish (or Explain) sees it. With raw, the
// rule's Reads are not consulted: the probe that derives them sees what
// the check itself makes of the input.
func checkOutcome(r *Rule, stream []engine.Resource, i int, raw bool) Result {
	a := NewAuditor(testNow)
	for j, res := range stream {
		if j != i {
			a.Observe(res)
		}
	}
	a.Observe(stream[i])
	s := NewSubject(&stream[i], testNow)
	s.account = a.accounts[stream[i].Account]
	if s.bad {
		return notEvaluated("attributes")
	}
	if raw {
		return recordedNothing(s, r, r.Check(s))
	}
	return judged(s, r, r.Check(s))
}

func outcomeWord(res Result) string {
	switch {
	case res.deferred:
		return "deferred"
	case res.NotEvaluated:
		return OutcomeNotEvaluated
	case res.Failed:
		return OutcomeFailed
	}
	return OutcomePassed
}

// attrMap is a resource's attributes as raw values by top-level key.
func attrMap(t *testing.T, res engine.Resource) map[string]json.RawMessage {
	m := map[string]json.RawMessage{}
	if len(res.Attributes) > 0 && json.Unmarshal(res.Attributes, &m) != nil {
		t.Fatalf("%s: attributes do not parse as an object", res.Type)
	}
	if m == nil {
		m = map[string]json.RawMessage{}
	}
	return m
}

// withAttr returns stream with stream[i]'s top-level key set to v, or
// removed when v is nil.
func withAttr(t *testing.T, stream []engine.Resource, i int, key string, v json.RawMessage) []engine.Resource {
	m := attrMap(t, stream[i])
	if v == nil {
		delete(m, key)
	} else {
		m[key] = v
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	out := slices.Clone(stream)
	out[i].Attributes = b
	return out
}

// valuePool gathers, per resource type and top-level attribute, the
// distinct values the cases' inputs (passing and failing, every rule's)
// and the estates give it: the values a probe tries in place of a key.
type valuePool map[string]map[string][]json.RawMessage

func (p valuePool) add(t *testing.T, rs ...engine.Resource) {
	for _, r := range rs {
		if p[r.Type] == nil {
			p[r.Type] = map[string][]json.RawMessage{}
		}
		for k, v := range attrMap(t, r) {
			if !slices.ContainsFunc(p[r.Type][k], func(w json.RawMessage) bool { return string(w) == string(v) }) {
				p[r.Type][k] = append(p[r.Type][k], v)
			}
		}
	}
}

// failingStreams returns the failing inputs of rule id's cases.
func failingStreams(t *testing.T, id string) [][]engine.Resource {
	var out [][]engine.Resource
	if c, ok := ruleCases[id]; ok {
		out = append(out, []engine.Resource{c.fail})
	}
	if c, ok := policyRuleCases[id]; ok {
		out = append(out, []engine.Resource{c.fail})
	}
	if c, ok := joinRuleCases[id]; ok {
		out = append(out, c.fail)
	}
	if c, ok := configRuleCases[id]; ok {
		out = append(out, decodeItems(t, c.fail))
	}
	for _, c := range typeRuleCases[id] {
		out = append(out, c.fail)
	}
	return out
}

func casesPool(t *testing.T) valuePool {
	pool := valuePool{}
	for _, r := range All() {
		for _, s := range append(passingStreams(t, r.ID), failingStreams(t, r.ID)...) {
			pool.add(t, s...)
		}
	}
	for _, f := range []string{"clean.aws-config.json", "seeded.aws-config.json"} {
		fh, err := os.Open("../../testdata/estates/" + f)
		if err != nil {
			t.Fatal(err)
		}
		pool.add(t, loadReader(t, fh)...)
		fh.Close()
	}
	return pool
}

// readsOf derives the top-level attributes rule r reads on a passing
// probe: those whose value decides its outcome — some value the cases
// give the key (the rule's own failing inputs first) makes it fail; that
// value is the attribute's witness.
func readsOf(t *testing.T, r *Rule, p probe, own, pool map[string][]json.RawMessage) []attrRead {
	var keys []string
	for k := range pool {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	cur := attrMap(t, p.stream[p.i])
	var out []attrRead
	for _, k := range keys {
		tried := 0
		for _, v := range append(slices.Clone(own[k]), pool[k]...) {
			if string(v) == string(cur[k]) {
				continue
			}
			if tried++; tried > 16 {
				break
			}
			if outcomeWord(checkOutcome(r, withAttr(t, p.stream, p.i, k, v), p.i, true)) == OutcomeFailed {
				out = append(out, attrRead{k, []string{string(v)}})
				break
			}
		}
	}
	return out
}

// flippedStreams returns passing inputs made from rule r's failing ones:
// each failing input with one top-level key of the judged resource set to
// a value of the pool that makes the check pass. They find the reads a
// passing case hides: aws-s3-009 fails on versioning "Enabled" without MFA
// delete, and its passing case has versioning "Enabled" already, so
// varying one key of it never shows that versioning is read; the failing
// input with versioning "Suspended" passes, and restoring "Enabled" fails
// it again. Each key's zero value is tried too.
func flippedStreams(t *testing.T, r *Rule, pool valuePool) [][]engine.Resource {
	var out [][]engine.Resource
	for _, stream := range failingStreams(t, r.ID) {
		for i, res := range stream {
			if !slices.Contains(r.ResourceTypes, res.Type) ||
				outcomeWord(checkOutcome(r, stream, i, true)) != OutcomeFailed {
				continue
			}
			cur := attrMap(t, res)
			for _, k := range slices.Sorted(maps.Keys(cur)) {
				tried := 0
				for _, v := range append(slices.Clone(pool[res.Type][k]), zeroOf(cur[k])) {
					if string(v) == string(cur[k]) {
						continue
					}
					if tried++; tried > 17 {
						break
					}
					if s := withAttr(t, stream, i, k, v); outcomeWord(checkOutcome(r, s, i, true)) == OutcomePassed {
						out = append(out, s)
						break
					}
				}
			}
		}
	}
	return out
}

// zeroOf returns the zero value of v's JSON kind (false, 0, "", [] or
// null): the value the cases may never give a key (no case has a disabled
// GuardDuty detector), yet the one a record without it reads as.
func zeroOf(v json.RawMessage) json.RawMessage {
	s := strings.TrimSpace(string(v))
	switch {
	case s == "true" || s == "false":
		return json.RawMessage(`false`)
	case strings.HasPrefix(s, `"`):
		return json.RawMessage(`""`)
	case strings.HasPrefix(s, "["):
		return json.RawMessage(`[]`)
	case strings.HasPrefix(s, "{") || s == "null":
		return json.RawMessage(`null`)
	}
	return json.RawMessage(`0`)
}

// writtenWhenZero returns the top-level attributes the canonical type of
// typ writes even when zero (no omitempty): only for those does a missing
// key mean "not recorded". An omitempty field's absence is the importer's
// zero (no policy, no inline policy), by the canonical model's contract.
func writtenWhenZero(typ string) map[string]bool {
	out := map[string]bool{}
	if newAttrs, ok := attrTypes[typ]; ok {
		b, _ := json.Marshal(newAttrs())
		var m map[string]json.RawMessage
		_ = json.Unmarshal(b, &m)
		for k := range m {
			out[k] = true
		}
	}
	return out
}

// TestRules_PartialRecords: a check passes only on what its source
// recorded. For every check and every passing input of its cases, each
// top-level attribute the check reads (some value the cases give it makes
// the check fail) is removed: the check must then be not evaluated (or
// fail), never pass — a bucket whose record lacks only versioning does
// not pass the versioning check. On the old code (recordedNothing judged
// only records with no attribute at all) 129 check/input/attribute
// triples passed on a missing attribute. The reads it derives are the
// rules' Reads (reads_gen.go; -update rewrites it): the test also fails
// when a declaration is missing or stale, so the table cannot drift from
// what the checks do. Attributes the canonical type omits when zero
// (omitempty: a queue without a policy) are not Reads: their absence is
// the importer's zero; the test logs them.
func TestRules_PartialRecords(t *testing.T) {
	pool := casesPool(t)
	derived := map[string]map[string][]attrRead{} // rule → type → attributes
	var omitted []string
	gaps := 0
	for _, r := range All() {
		if r.Account || readsTagsOnly[r.ID] {
			continue
		}
		rule, _ := ByID(r.ID)
		own := valuePool{}
		for _, s := range failingStreams(t, r.ID) {
			own.add(t, s...)
		}
		for _, stream := range append(passingStreams(t, r.ID), flippedStreams(t, rule, pool)...) {
			for i, res := range stream {
				if !slices.Contains(r.ResourceTypes, res.Type) {
					continue
				}
				if outcomeWord(checkOutcome(rule, stream, i, true)) != OutcomePassed {
					continue // a join waiting, or reported by the pass/fail tests
				}
				present, written := attrMap(t, res), writtenWhenZero(res.Type)
				whole := true
				for k := range written {
					_, ok := present[k]
					whole = whole && ok
				}
				for _, rd := range readsOf(t, rule, probe{stream, i}, own[res.Type], pool[res.Type]) {
					k := rd.key
					if !written[k] {
						omitted = append(omitted, r.ID+" "+res.Type+" "+k)
					}
					if derived[r.ID] == nil {
						derived[r.ID] = map[string][]attrRead{}
					}
					derived[r.ID][res.Type] = append(derived[r.ID][res.Type], rd)
					var got string
					if _, ok := present[k]; ok {
						got = outcomeWord(checkOutcome(rule, withAttr(t, stream, i, k, nil), i, false))
					} else {
						got = outcomeWord(checkOutcome(rule, stream, i, false))
					}
					if got == OutcomePassed && !written[k] && whole {
						continue // omitted when zero from a whole record: absent is the zero
					}
					if got == OutcomePassed {
						gaps++
						t.Errorf("%s passes on %s without %q, which decides its outcome", r.ID, res.Type, k)
					}
				}
			}
		}
	}
	for _, byType := range derived {
		for typ, rs := range byType {
			byType[typ] = mergeReads(rs)
		}
	}
	if gaps > 0 {
		t.Logf("%d check/input/attribute triples pass on a missing attribute", gaps)
	}
	slices.Sort(omitted)
	omitted = slices.Compact(omitted)
	t.Logf("%d check/type/attribute reads whose absence is the importer's zero (omitempty): %v", len(omitted), omitted)
	if len(derived) < 100 {
		t.Errorf("reads derived for %d rules only: the probe is broken", len(derived))
	}
	if *update {
		writeReads(t, derived)
		return
	}
	for _, r := range All() {
		want, wit := readsOfRule(derived[r.ID])
		if !maps.EqualFunc(r.Reads, want, slices.Equal) || !maps.EqualFunc(r.witnesses, wit, func(a, b map[string][]string) bool {
			return maps.EqualFunc(a, b, slices.Equal)
		}) {
			t.Errorf("%s declares Reads %v, its cases show %v: run go test ./engine/rules -run TestRules_PartialRecords -update", r.ID, r.Reads, want)
		}
	}
}

// mergeReads sorts reads by attribute and merges the witnesses of each.
func mergeReads(rs []attrRead) []attrRead {
	by := map[string][]string{}
	for _, r := range rs {
		by[r.key] = append(by[r.key], r.witnesses...)
	}
	var out []attrRead
	for _, k := range slices.Sorted(maps.Keys(by)) {
		w := by[k]
		slices.Sort(w)
		out = append(out, attrRead{k, slices.Compact(w)})
	}
	return out
}

// writeReads rewrites reads_gen.go from the derived reads.
func writeReads(t *testing.T, derived map[string]map[string][]attrRead) {
	var b strings.Builder
	b.WriteString("// Code generated by TestRules_PartialRecords -update; DO NOT EDIT.\n\npackage rules\n\n")
	b.WriteString("// ruleReads are, per rule and resource type, the top-level canonical\n")
	b.WriteString("// attributes whose value decides the check's outcome on its cases'\n")
	b.WriteString("// passing inputs, each with its witnesses (see Rule.Reads and judged).\n")
	b.WriteString("var ruleReads = map[string]map[string][]attrRead{\n")
	for _, id := range slices.Sorted(maps.Keys(derived)) {
		fmt.Fprintf(&b, "\t%q: {\n", id)
		for _, typ := range slices.Sorted(maps.Keys(derived[id])) {
			fmt.Fprintf(&b, "\t\t%q: {\n", typ)
			for _, r := range derived[id][typ] {
				fmt.Fprintf(&b, "\t\t\t{%q, []string{", r.key)
				for j, w := range r.witnesses {
					if j > 0 {
						b.WriteString(", ")
					}
					b.WriteString(goString(w))
				}
				b.WriteString("}},\n")
			}
			b.WriteString("\t\t},\n")
		}
		b.WriteString("\t},\n")
	}
	b.WriteString("}\n")
	src, err := format.Source([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("reads_gen.go", src, 0o644); err != nil {
		t.Fatal(err)
	}
}

// goString quotes s as a raw string literal when it can, else with %q.
func goString(s string) string {
	if !strings.Contains(s, "`") {
		return "`" + s + "`"
	}
	return fmt.Sprintf("%q", s)
}

// TestWithTopLevelKey checks the witness rerun's insertion of a missing
// attribute.
func TestWithTopLevelKey(t *testing.T) {
	for in, want := range map[string]string{
		`{"a":1}`:   `{"k":[1],"a":1}`,
		` { } `:     `{"k":[1] } `,
		`{ "a":1 }`: `{"k":[1], "a":1 }`,
		`null`:      `null`,
	} {
		got := string(withTopLevelKey([]byte(in), "k", `[1]`))
		if got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
		if want != "null" && !json.Valid([]byte(got)) {
			t.Errorf("%s: %s is not JSON", in, got)
		}
	}
}
