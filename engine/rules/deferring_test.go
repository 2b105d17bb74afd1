package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// TestAuditor_DeferringMatchesJudgingAtOnce is the differential test of
// the audit's dispatch: an Auditor that judges each resource as it comes
// (AssessDeferring, Record reusing the parsed subject) and runs only the
// joined checks again in Finish must make of every sample and estate
// exactly what judging every resource with its account's facts already
// known makes: the same violations (rule, resource, severity, evidence)
// and the same not-evaluated counts.
func TestAuditor_DeferringMatchesJudgingAtOnce(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/inventory/*")
	estates, _ := filepath.Glob("../../testdata/estates/*.aws-config.json")
	files = append(files, estates...)
	if len(files) < 6 {
		t.Fatalf("found %d inventories", len(files))
	}
	total, deferred := 0, 0
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			f, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			res := loadReader(t, f)

			streamed := NewAuditor(sampleNow)
			var got []string
			for _, r := range res {
				for _, v := range streamed.Evaluate(r) {
					got = append(got, violationKey(r, v))
				}
			}
			deferred += streamed.deferred.len()
			for _, v := range streamed.Finish() {
				got = append(got, violationKey(v.Resource, v.Violation))
			}

			// The reference: every fact first, then every check at once.
			ref := NewAuditor(sampleNow)
			for _, r := range res {
				ref.Observe(r)
			}
			var want []string
			notEval := map[string]int64{}
			for _, r := range res {
				s := NewSubject(&r, sampleNow)
				s.account = ref.accounts[r.Account]
				o := assess(s)
				for _, v := range o.Violations {
					want = append(want, violationKey(r, v))
				}
				for _, ne := range o.NotEvaluated {
					notEval[ne.Rule.ID]++
				}
			}
			for _, v := range ref.Finish() { // account rules only: nothing was deferred
				want = append(want, violationKey(v.Resource, v.Violation))
			}
			for id, n := range ref.NotEvaluated() {
				notEval[id] += n
			}

			slices.Sort(got)
			slices.Sort(want)
			total += len(want)
			if !slices.Equal(got, want) {
				t.Errorf("streamed audit: %d violations, judged at once: %d", len(got), len(want))
				for _, k := range diffKeys(got, want) {
					t.Log(k)
				}
			}
			if g := streamed.NotEvaluated(); !mapsEqual(g, notEval) {
				t.Errorf("not evaluated: streamed %v, judged at once %v", g, notEval)
			}
		})
	}
	if total == 0 || deferred == 0 { // the comparison compared something
		t.Fatalf("%d violations, %d resources deferred in all", total, deferred)
	}
}

func violationKey(r engine.Resource, v Violation) string {
	return fmt.Sprintf("%s %s %s %s", v.Rule.ID, r.NativeID, v.Severity, v.EvidenceJSON())
}

// diffKeys lists the keys of one sorted list missing from the other.
func diffKeys(got, want []string) []string {
	var out []string
	for _, k := range got {
		if _, ok := slices.BinarySearch(want, k); !ok {
			out = append(out, "only streamed: "+k)
		}
	}
	for _, k := range want {
		if _, ok := slices.BinarySearch(got, k); !ok {
			out = append(out, "only judged at once: "+k)
		}
	}
	return out
}

func mapsEqual(a, b map[string]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
