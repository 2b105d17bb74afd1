package audit_test

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"runtime"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/audit"
)

// stoppingQueue fails the commit of an audit's events after the first
// `after` of them, once.
type stoppingQueue struct {
	audit.Queue
	after   int
	stopped *bool
}

var errStopped = errors.New("the outbox went away")

func (q stoppingQueue) CompleteAudit(ctx context.Context, evs iter.Seq2[engine.Event, error], final func() engine.Audit) error {
	if *q.stopped {
		return q.Queue.CompleteAudit(ctx, evs, final)
	}
	n := 0
	for _, err := range evs {
		if err != nil {
			return err
		}
		if n++; n == q.after {
			*q.stopped = true
			return errStopped
		}
	}
	return fmt.Errorf("the audit had %d events, the test needs more than %d", n, q.after)
}

// An audit's events are built on another goroutine, chunks ahead of the
// commit: a commit that stops reading them (here after 10 of more than
// 2,000) fails the audit, and the builder ends instead of waiting forever.
func TestAuditEventsStopEarly(t *testing.T) {
	stopped := false
	h := newHarnessWith(t, func(q audit.Queue) audit.Queue {
		return stoppingQueue{Queue: q, after: 10, stopped: &stopped}
	})
	var rs []engine.Resource
	for i := range 700 { // 3 findings each, 2 chunks of events and more
		rs = append(rs, bucket(fmt.Sprintf("stop-%d", i), nil, false))
	}
	h.ingest(rs...)
	a, err := h.audits.StartAudit(h.ctx, h.p)
	if err != nil {
		t.Fatal(err)
	}
	claimed, err := h.queue.ClaimAudit(h.ctx, "test", time.Minute)
	if err != nil || claimed.ID != a.ID {
		t.Fatalf("claim: %+v, %v", claimed, err)
	}
	before := runtime.NumGoroutine()
	done := h.runner.RunAudit(h.ctx, claimed)
	if !stopped || done.Status != engine.AuditFailed {
		t.Fatalf("audit ended %s (%s), stopped %v; want failed after the stop", done.Status, done.Error, stopped)
	}
	for deadline := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > before; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines after the audit, %d before:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
		}
	}
}
