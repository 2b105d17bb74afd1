package rules

import (
	"fmt"
	"maps"
	"os"
	"runtime"
	"slices"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// TestFinishDeferredInParallelMatchesOneGoroutine guards finishDeferred:
// judging the deferred resources in chunks on several goroutines gives
// what judging them one after the other gives — the same violations in
// the same order (the order resources were recorded in), the same
// not-evaluated and judged counts. The seeded estate's resources of types with joining checks are
// recorded 200 times over (each copy's native ids made distinct) so that
// they fill several chunks.
func TestFinishDeferredInParallelMatchesOneGoroutine(t *testing.T) {
	f, err := os.Open("../../testdata/estates/seeded.aws-config.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	one := loadReader(t, f)
	res := slices.Clone(one)
	for k := range 200 {
		for _, r := range one {
			if len(loadPack().joinsByType[r.Type]) > 0 {
				r.NativeID = fmt.Sprintf("%s#%d", r.NativeID, k)
				res = append(res, r)
			}
		}
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	a := NewAuditor(sampleNow)
	var deferred []engine.Resource // as recorded, not as packed
	for _, r := range res {
		o := AssessDeferring(r, sampleNow)
		a.Record(r, o)
		if o.Deferred {
			deferred = append(deferred, r)
		}
	}
	if a.deferred.len() != len(deferred) || len(deferred) < 3*deferredChunk {
		t.Fatalf("%d resources deferred, %d held: fewer than 3 chunks, or not all", len(deferred), a.deferred.len())
	}
	// The reference: the deferred resources judged one after the other, on
	// top of what Record counted, as Finish did before it used chunks.
	p := loadPack()
	var want []string
	wantNE := maps.Clone(a.notEval)
	wantJ := slices.Clone(a.judged)
	for _, r := range deferred {
		s := NewSubject(&r, sampleNow)
		s.account = a.accounts[r.Account]
		o := assessRules(s, p.joinsByType[r.Type])
		for _, ne := range o.NotEvaluated {
			wantNE[ne.Rule.ID]++
		}
		countJudgedInto(wantJ, o, false)
		for _, v := range o.Violations {
			want = append(want, violationKey(r, v))
		}
	}
	if len(want) < 2 {
		t.Fatalf("%d violations of deferred checks: the comparison compares nothing", len(want))
	}
	var got []string
	for _, v := range a.finishDeferred(nil) {
		got = append(got, violationKey(v.Resource, v.Violation))
	}
	if !slices.Equal(got, want) {
		t.Errorf("violations: %d in chunks, %d one after the other, or in another order", len(got), len(want))
		for _, k := range diffKeys(sorted(got), sorted(want)) {
			t.Log(k)
		}
	}
	for id, n := range a.notEval {
		if wantNE[id] != n {
			t.Errorf("not evaluated %s: %d in chunks, %d one after the other", id, n, wantNE[id])
		}
	}
	if len(a.notEval) != len(wantNE) {
		t.Errorf("not evaluated: %v in chunks, %v one after the other", a.notEval, wantNE)
	}
	if !slices.Equal(a.judged, wantJ) {
		t.Errorf("judged counts differ: %v in chunks, %v one after the other", a.judged, wantJ)
	}
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}
