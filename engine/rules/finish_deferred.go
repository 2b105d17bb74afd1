package rules

import (
	"runtime"
	"sync"

	"github.com/fourd-dev/fourd/engine"
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
	if len(a.deferred) == 0 {
		return out
	}
	parts := make([]deferredPart, (len(a.deferred)+deferredChunk-1)/deferredChunk)
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
				parts[i] = a.judgeDeferred(a.deferred[lo:min(lo+deferredChunk, len(a.deferred))])
			}
		})
	}
	wg.Wait()
	for _, part := range parts {
		out = append(out, part.violations...)
		for id, n := range part.notEval {
			a.notEval[id] += n
		}
		for i, n := range part.judged {
			a.judged[i] += n
		}
	}
	return out
}

// judgeDeferred judges the joining checks of resources, counting into a
// part of its own (it runs beside other chunks' judges).
func (a *Auditor) judgeDeferred(resources []engine.Resource) deferredPart {
	p := loadPack()
	part := deferredPart{notEval: map[string]int64{}, judged: make([]int64, len(p.all))}
	for i := range resources {
		res := &resources[i]
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
