package rules

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/inventory"
)

// TestWitnessSubjectMatchesParsingTheRecord is the differential test of
// witnessSubject: for every resource of the samples and estates, with each
// attribute a rule of its type reads removed (and, separately, renamed to
// its upper case, which encoding/json still decodes into the same field),
// the subject it makes for each witness of each such rule holds exactly
// what parsing the record with the witness added holds; and assessing the
// partial records with it gives what assessing them with full parses
// gives (violations with their evidence, not evaluated, deferred).
func TestWitnessSubjectMatchesParsingTheRecord(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/inventory/*")
	estates, _ := filepath.Glob("../../testdata/estates/*.aws-config.json")
	files = append(files, estates...)
	reused, outcomes := 0, 0
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		res := loadReader(t, f)
		f.Close()
		for _, r := range res {
			for _, k := range readKeys(r) {
				for _, in := range []engine.Resource{withoutKey(t, r, k), renamedKey(t, r, k)} {
					reused += compareWitnessSubjects(t, in)
					compareOutcomes(t, in)
					outcomes++
				}
			}
		}
	}
	if reused < 100 || outcomes < 100 {
		t.Fatalf("%d witness subjects made from a parse, %d partial records: too few to compare", reused, outcomes)
	}
	t.Logf("%d witness subjects made from a parse, %d partial records assessed both ways", reused, outcomes)
}

// readKeys are the attributes of r's record that the rules of its type read.
func readKeys(r engine.Resource) []string {
	var out []string
	have := attrKeys(r)
	for _, rule := range ByType(r.Type) {
		for _, k := range rule.Reads[r.Type] {
			if slices.Contains(have, k) && !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	return out
}

// renamedKey returns res with the top-level attribute key written in upper
// case.
func renamedKey(t *testing.T, res engine.Resource, key string) engine.Resource {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(res.Attributes, &m); err != nil {
		t.Fatal(err)
	}
	m[strings.ToUpper(key)] = m[key]
	delete(m, key)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	res.Attributes = b
	return res
}

// compareWitnessSubjects compares, for each missing read and witness of
// each rule of in's type, witnessSubject with NewSubject; it returns how
// many subjects witnessSubject made from the parse of in.
func compareWitnessSubjects(t *testing.T, in engine.Resource) int {
	t.Helper()
	s := NewSubject(&in, sampleNow)
	reused := 0
	for _, rule := range ByType(in.Type) {
		for _, key := range s.unrecordedReads(rule.Reads[in.Type]) {
			for _, w := range rule.witnesses[in.Type][key] {
				res := in
				res.Attributes = withTopLevelKey(in.Attributes, key, w)
				got, want := s.witnessSubject(&res, key, w), NewSubject(&res, sampleNow)
				if got.bad != want.bad || got.blank != want.blank || !reflect.DeepEqual(got.attrs, want.attrs) {
					t.Errorf("%s %s, %s = %s: witness subject (bad %v, blank %v) %+v, parsed (bad %v, blank %v) %+v",
						in.Type, in.NativeID, key, w, got.bad, got.blank, got.attrs, want.bad, want.blank, want.attrs)
				}
				if !recordsFoldedKey(in.Attributes, key) && !s.bad && !s.blank {
					reused++
				}
			}
		}
	}
	return reused
}

// compareOutcomes assesses in with witness subjects made from its parse
// and with full parses, pending its account's facts and not.
func compareOutcomes(t *testing.T, in engine.Resource) {
	t.Helper()
	outcome := func(fromParsed, pending bool) string {
		witnessFromParsed = fromParsed
		defer func() { witnessFromParsed = true }()
		var o Outcome
		if pending {
			o = AssessDeferring(in, sampleNow)
		} else {
			o = Assess(in, sampleNow)
		}
		var b strings.Builder
		for _, v := range o.Violations {
			b.WriteString(violationKey(in, v) + "\n")
		}
		for _, ne := range o.NotEvaluated {
			b.WriteString("not evaluated " + ne.Rule.ID + " " + strings.Join(ne.Missing, ",") + "\n")
		}
		if o.Deferred {
			b.WriteString("deferred\n")
		}
		return b.String()
	}
	for _, pending := range []bool{false, true} {
		if got, want := outcome(true, pending), outcome(false, pending); got != want {
			t.Errorf("%s %s (pending %v): with witness subjects\n%s\nwith full parses\n%s", in.Type, in.NativeID, pending, got, want)
		}
	}
}

// TestWitnessFieldsDecodedOnce: a witness the fast decoder reads is decoded
// once and its fields are then copied (the differential test above checks
// the subjects it makes); one it cannot read is left to witnessSubject's
// decode.
func TestWitnessFieldsDecodedOnce(t *testing.T) {
	w := `[{"name":"i","document":{"Statement":[{"Effect":"Allow","Action":"kms:Decrypt","Resource":"*"}]}}]`
	a := witnessFieldsOf("aws_iam_user", "inline_policies", w)
	if a == nil || !slices.Equal(a.fields, []int{9}) {
		t.Fatalf("witness fields %+v, want field 9 (InlinePolicies)", a)
	}
	if b := witnessFieldsOf("aws_iam_user", "inline_policies", w); b != a {
		t.Fatalf("decoded twice: %p, %p", a, b)
	}
	if got := len(a.val.Field(9).Index(0).Field(1).Elem().FieldByName("Statement").Interface().([]inventory.PolicyStatement)); got != 1 {
		t.Fatalf("decoded %d statements, want 1", got)
	}
	if x := witnessFieldsOf("aws_iam_user", "inline_policies", `[{"name":1}]`); x != nil {
		t.Fatalf("a witness the decoder refuses gave fields %+v", x)
	}
	if x := witnessFieldsOf("no_such_type", "k", `1`); x != nil {
		t.Fatalf("a type without a decoder gave fields %+v", x)
	}
}
