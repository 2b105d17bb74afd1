package rules

import (
	"runtime"
	"slices"
	"sync"
)

// deferredChunk is how many deferred resources a worker of finishDeferred
// takes at a time: enough that a chunk's bookkeeping is negligible, few
// enough that a small audit stays on one goroutine.
const deferredChunk = 512

// deferredPart is what finishDeferred made of one chunk of the deferred
// resources: its violations in the chunk's order, and its counts.
type deferredPart struct {
	violations []AccountViolation
	notEval    map[string]int64
	judged     []int64 // by Rule.idx
}

// finishDeferred runs the joining checks of the resources Record deferred,
// now that their accounts' facts are known, and appends their violations
// to out in the order the resources were recorded. The resources are
// independent and the facts are only read by then, so chunks of them are
// judged on every core: at the end of an audit nothing else runs, and a
// 1M-resource audit defers its ~80k buckets (their parse is most of the
// work).
func (a *Auditor) finishDeferred(out []AccountViolation) []AccountViolation {
	n := a.deferred.len()
	if n == 0 {
		return out
	}
	parts := make([]deferredPart, (n+deferredChunk-1)/deferredChunk)
	next := make(chan int, len(parts))
	for i := range parts {
		next <- i
	}
	close(next)
	var wg sync.WaitGroup
	for range min(len(parts), max(1, runtime.GOMAXPROCS(0))) {
		wg.Go(func() {
			for i := range next {
				lo := i * deferredChunk
				parts[i] = a.judgeDeferred(lo, min(lo+deferredChunk, n))
			}
		})
	}
	wg.Wait()
	// One slice of the right size, each part's let go once copied: at the
	// end of a 1M audit the violations are tens of MB, and growing out by
	// doubling while every part is still held made two or three copies.
	total := 0
	for _, part := range parts {
		total += len(part.violations)
	}
	out = slices.Grow(out, total)
	for i := range parts {
		part := &parts[i]
		out = append(out, part.violations...)
		part.violations = nil
		for id, n := range part.notEval {
			a.notEval[id] += n
		}
		for j, n := range part.judged {
			a.judged[j] += n
		}
	}
	return out
}

// judgeDeferred judges the joining checks of the deferred resources lo to
// hi, counting into a part of its own (it runs beside other chunks'
// judges). A resource whose packed form does not read back (a defect of
// deferredSet, never seen) counts as not evaluated by its joining checks.
func (a *Auditor) judgeDeferred(lo, hi int) deferredPart {
	p := loadPack()
	part := deferredPart{notEval: map[string]int64{}, judged: make([]int64, len(p.all))}
	for i := lo; i < hi; i++ {
		r, err := a.deferred.get(i)
		if err != nil {
			for _, rule := range p.joinsByType[r.Type] {
				part.notEval[rule.ID]++
			}
			continue
		}
		res := &r
		s := NewSubject(res, a.now)
		s.account = a.accounts[res.Account]
		// Only the checks that join other resources' facts deferred: the
		// others were judged when the resource was recorded.
		o := assessRules(s, p.joinsByType[res.Type])
		for _, ne := range o.NotEvaluated {
			part.notEval[ne.Rule.ID]++
		}
		countJudgedInto(part.judged, o, false)
		for _, v := range o.Violations {
			part.violations = append(part.violations, AccountViolation{Resource: *res, Violation: v})
		}
	}
	return part
}
