package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/fourd-dev/fourd/engine"

	"github.com/google/go-cmp/cmp"
)

// fakeEventLog is an event log that may hold its first write until
// released, and may take appends as a stream (EventLogStreamer).
type fakeEventLog struct {
	mu      sync.Mutex
	hold    chan struct{} // when set, the first write waits for it to close
	held    bool
	logged  []engine.Event
	calls   int
	streams int // opened
	appends int // to a stream
	closed  int
	fail    error // every write fails with it
}

func (f *fakeEventLog) write(events []engine.Event) error {
	f.mu.Lock()
	first := !f.held
	f.held = true
	f.mu.Unlock()
	if first && f.hold != nil {
		<-f.hold
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if f.fail != nil {
		return f.fail
	}
	for _, e := range events { // keeping nothing of the caller's
		e.Data = bytes.Clone(e.Data)
		f.logged = append(f.logged, e)
	}
	return nil
}

func (f *fakeEventLog) LogEvents(_ context.Context, events []engine.Event) error {
	return f.write(events)
}

type fakeStreamingLog struct{ *fakeEventLog }

func (f fakeStreamingLog) StreamEvents(context.Context) engine.EventLogStream {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.streams++
	return fakeLogStream{f.fakeEventLog}
}

type fakeLogStream struct{ *fakeEventLog }

func (s fakeLogStream) Append(_ context.Context, events []engine.Event) error {
	s.mu.Lock()
	s.appends++
	s.mu.Unlock()
	return s.write(events)
}
func (s fakeLogStream) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed++
	return nil
}

// A copier copies committed resource.added to the event log after their
// commit, in commit order, and gives a batch's buffers back only once
// they are copied: later batches, prepared while a copy waits, do not
// overwrite what it has still to copy. A log that takes streams gets one,
// closed when the copier is, once logStreamAfter events went one write
// at a time.
func TestLogCopier(t *testing.T) {
	old := logStreamAfter
	logStreamAfter = 300
	t.Cleanup(func() { logStreamAfter = old })
	for _, streaming := range []bool{false, true} {
		t.Run(fmt.Sprint("streaming=", streaming), func(t *testing.T) {
			env := newTestEnv(t)
			log := &fakeEventLog{hold: make(chan struct{})}
			env.svc.cfg.EventLog = log
			if streaming {
				env.svc.cfg.EventLog = fakeStreamingLog{log}
			}
			copier := env.svc.startLogCopier()
			var want []string
			for b := range 3 { // the first copy holds; the queue takes the other two
				rs := make([]engine.Resource, 200)
				for i := range rs {
					rs[i] = engine.Resource{ID: engine.ResourceID("ten_a", "aws", fmt.Sprint(b, "-", i)), Provider: "aws", Type: "aws_s3_bucket",
						Tags: engine.TagsFromMap(map[string]string{"batch": fmt.Sprint(b)})}
					want = append(want, string(engine.AppendResourceAdded(nil, &rs[i])))
				}
				if err := env.svc.publishAdded(context.Background(), "ten_a", engine.PackAddedResources(rs), copier); err != nil {
					t.Fatal(err)
				}
			}
			if n := len(env.events.Events); n != len(want) {
				t.Fatalf("%d events in the outbox before the copies; want %d", n, len(want))
			}
			close(log.hold)
			copier.close()
			var got []string
			for i, e := range log.logged {
				got = append(got, string(e.Data))
				if o := env.events.Events[i]; e.ID != o.ID || !e.CreatedAt.Equal(o.CreatedAt) || e.Type != engine.EventResourceAdded {
					t.Fatalf("logged event %d is %s %s; the outbox's is %s %s", i, e.ID, e.Type, o.ID, o.Type)
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("event log (-want +got):\n%s", diff)
			}
			if streaming && (log.streams != 1 || log.closed != 1 || log.calls != 3 || log.appends != 1) {
				t.Errorf("%d streams opened, %d closed, %d writes of which %d appends; want 1, 1, 3, 1 (the third batch)",
					log.streams, log.closed, log.calls, log.appends)
			}
			if !streaming && (log.streams != 0 || log.calls != 3) {
				t.Errorf("%d streams, %d writes; want 0, 3", log.streams, log.calls)
			}
		})
	}
}

// A commit whose outbox write fails copies nothing to the event log; an
// event log that fails does not fail the commit (the copy is best effort).
func TestLogCopierFailures(t *testing.T) {
	env := newTestEnv(t)
	log := &fakeEventLog{}
	env.svc.cfg.EventLog = log
	copier := env.svc.startLogCopier()
	rs := []engine.Resource{{ID: engine.ResourceID("ten_a", "aws", "1"), Provider: "aws", Type: "aws_s3_bucket"}}
	ctx, cancel := context.WithCancel(context.Background())
	commit := func() error { return env.svc.publishAdded(ctx, "ten_a", engine.PackAddedResources(rs), copier) }
	env.events.Fail = errors.New("outbox down")
	if err := commit(); err == nil {
		t.Fatal("a failed outbox write committed")
	}
	env.events.Fail = nil
	log.fail = errors.New("event log down")
	cancel() // the caller gone: the commit and its copy go on
	if err := env.svc.publishAdded(ctx, "ten_a", engine.PackAddedResources(rs), copier); err != nil {
		t.Fatalf("a failing event log failed the commit: %v", err)
	}
	copier.close()
	if len(env.events.Events) != 1 || len(log.logged) != 0 || log.calls != 1 {
		t.Fatalf("%d events committed, %d logged in %d calls; want 1, 0 in 1", len(env.events.Events), len(log.logged), log.calls)
	}
	// Without an event log there is no copier.
	env.svc.cfg.EventLog = nil
	if c := env.svc.startLogCopier(); c != nil {
		t.Fatal("a copier without an event log")
	}
}
