package webhook_test

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/webhook"
)

// step is one logged attempt as the tests expect it.
type step struct {
	Outcome string
	Status  int
	Error   string
}

func TestOutboxFaults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		timeout time.Duration // 0: the Sender's default, 10 s
		behave  func(n int, w http.ResponseWriter, r *http.Request)
		want    []step
		status  engine.DeliveryStatus
		// minGap is the least time between attempt 1 and attempt 2.
		minGap   time.Duration
		disabled string
	}{
		{name: "500 then recovers", behave: func(n int, w http.ResponseWriter, r *http.Request) {
			if n <= 2 {
				w.WriteHeader(http.StatusInternalServerError)
			}
		}, want: []step{{"retry", 500, "endpoint answered HTTP 500"}, {"retry", 500, "endpoint answered HTTP 500"}, {"success", 200, ""}},
			status: engine.DeliveryDelivered, minGap: 30 * time.Second},
		{name: "times out past 10 s", behave: func(n int, w http.ResponseWriter, r *http.Request) {
			if n == 1 {
				select {
				case <-time.After(12 * time.Second):
				case <-r.Context().Done():
				}
			}
		}, want: []step{{"retry", 0, "timed out after 10s"}, {"success", 200, ""}}, status: engine.DeliveryDelivered},
		{name: "closes the connection", behave: func(n int, w http.ResponseWriter, r *http.Request) {
			if n == 1 {
				conn, _, err := http.NewResponseController(w).Hijack()
				if err == nil {
					conn.Close()
				}
			}
		}, want: []step{{"retry", 0, "connection closed before a response"}, {"success", 200, ""}}, status: engine.DeliveryDelivered},
		{name: "410 gone", behave: func(n int, w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusGone)
		}, want: []step{{"gone", 410, "endpoint answered 410 Gone; disabling it"}}, status: engine.DeliveryFailed,
			disabled: "endpoint answered 410 Gone"},
		{name: "429 with Retry-After", behave: func(n int, w http.ResponseWriter, r *http.Request) {
			if n == 1 {
				w.Header().Set("Retry-After", "3600")
				w.WriteHeader(http.StatusTooManyRequests)
			}
		}, want: []step{{"retry", 429, "endpoint answered HTTP 429"}, {"success", 200, ""}}, status: engine.DeliveryDelivered,
			minGap: time.Hour},
		{name: "fails 8 times", behave: func(n int, w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusBadGateway)
		}, want: []step{{"retry", 502, "endpoint answered HTTP 502"}, {"retry", 502, "endpoint answered HTTP 502"},
			{"retry", 502, "endpoint answered HTTP 502"}, {"retry", 502, "endpoint answered HTTP 502"},
			{"retry", 502, "endpoint answered HTTP 502"}, {"retry", 502, "endpoint answered HTTP 502"},
			{"retry", 502, "endpoint answered HTTP 502"}, {"retry", 502, "endpoint answered HTTP 502"}},
			status: engine.DeliveryFailed, minGap: 30 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			g := newRig(t)
			g.timeout = tt.timeout
			rv := newReceiver(t, g.clock, tt.behave)
			ep := g.endpoint(rv, "*")
			events := g.events(3, engine.EventFindingCreated)
			d := g.dispatcher("w1", 8, nil)
			g.drain(d, 5*time.Minute, ep.ID)

			for _, dl := range checkTruth(t, g, ep, rv, events, tt.status) {
				var got []step
				for _, a := range dl.AttemptLog {
					got = append(got, step{a.Outcome, a.StatusCode, a.Error})
				}
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("attempt log of %s (-want +got):\n%s", dl.EventID, diff)
				}
				log := dl.AttemptLog
				for i := 1; i < len(log); i++ {
					prev := log[i-1]
					if prev.NextAttemptAt == nil || log[i].StartedAt.Before(*prev.NextAttemptAt) {
						t.Errorf("attempt %d started %s, before the scheduled %v", i+1, log[i].StartedAt, prev.NextAttemptAt)
					}
					if i == 1 && log[1].StartedAt.Sub(log[0].StartedAt) < tt.minGap {
						t.Errorf("attempt 2 came %s after attempt 1; want at least %s", log[1].StartedAt.Sub(log[0].StartedAt), tt.minGap)
					}
				}
				if last := log[len(log)-1]; last.StartedAt.Sub(log[0].StartedAt) > 24*time.Hour {
					t.Errorf("last attempt %s after the first; the window is 24 h", last.StartedAt.Sub(log[0].StartedAt))
				}
			}
			got, err := g.store.GetWebhookEndpoint(context.Background(), g.tenant.ID, ep.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got.Enabled != (tt.disabled == "") || got.DisabledReason != tt.disabled {
				t.Errorf("endpoint enabled=%v reason %q; want reason %q", got.Enabled, got.DisabledReason, tt.disabled)
			}
		})
	}
}

// crashingOutbox simulates a dispatcher process killed mid-batch: once
// killed, results are never recorded (the process is gone), so the leases
// it holds can only expire.
type crashingOutbox struct {
	webhook.Outbox
	killed atomic.Bool
}

func (o *crashingOutbox) RecordAttempt(ctx context.Context, rec webhook.AttemptRecord) error {
	if o.killed.Load() {
		return nil
	}
	return o.Outbox.RecordAttempt(ctx, rec)
}

func TestDispatcherKilledMidBatchAndRestarted(t *testing.T) {
	t.Parallel()
	g := newRig(t)
	var calls atomic.Int32
	var co *crashingOutbox
	rv := newReceiver(t, g.clock, func(n int, w http.ResponseWriter, r *http.Request) {
		// The process dies while the 5th request of the batch is in
		// flight: what the batch sent is never recorded.
		if calls.Add(1) == 5 {
			co.killed.Store(true)
		}
	})
	ep := g.endpoint(rv, engine.EventFindingCreated)
	events := g.events(40, engine.EventFindingCreated)

	first := g.dispatcher("w1", 8, func(o webhook.Outbox) webhook.Outbox {
		co = &crashingOutbox{Outbox: o}
		return co
	})
	for !co.killed.Load() {
		if _, err := first.RunOnce(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	// The restarted process (another worker) takes over once the leases
	// of the dead one expire.
	if g.settled(ep.ID) {
		t.Fatal("everything settled before the crash; the test proves nothing")
	}
	second := g.dispatcher("w2", 8, nil)
	if n, err := second.RunOnce(context.Background()); err != nil || n != 8 {
		// Only the batch the dead worker did not claim is due yet.
		t.Logf("first batch after restart: %d, %v", n, err)
	}
	g.drain(second, time.Minute, ep.ID)
	ds := checkTruth(t, g, ep, rv, events, engine.DeliveryDelivered)
	abandoned := 0
	for _, d := range ds {
		for _, a := range d.AttemptLog {
			if a.Outcome == engine.AttemptAbandoned {
				abandoned++
			}
		}
	}
	if abandoned == 0 {
		t.Error("no attempt was logged as abandoned after the crash")
	}
}

func TestTwoDispatchersAtOnce(t *testing.T) {
	t.Parallel()
	g := newRig(t)
	var inFlight sync.Map // event id + endpoint → in flight
	var overlap atomic.Int32
	behave := func(path string) func(n int, w http.ResponseWriter, r *http.Request) {
		return func(n int, w http.ResponseWriter, r *http.Request) {
			key := path + r.Header.Get("X-Service-Event-Id")
			if _, busy := inFlight.LoadOrStore(key, true); busy {
				overlap.Add(1)
			}
			time.Sleep(time.Millisecond)
			inFlight.Delete(key)
		}
	}
	rv1, rv2 := newReceiver(t, g.clock, behave("a")), newReceiver(t, g.clock, behave("b"))
	ep1, ep2 := g.endpoint(rv1, "*"), g.endpoint(rv2, engine.EventFindingCreated)
	events := g.events(300, engine.EventFindingCreated)

	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for _, name := range []string{"w1", "w2"} {
		d := g.dispatcher(name, 16, nil)
		wg.Go(func() { _ = d.Run(ctx) })
	}
	deadline := time.Now().Add(60 * time.Second)
	// Both endpoints' deliveries must all exist before "settled" means
	// anything: a fan-out still committing adds pending ones afterwards.
	for len(g.deliveries(ep1.ID)) < len(events) || len(g.deliveries(ep2.ID)) < len(events) || !g.settled(ep1.ID, ep2.ID) {
		if time.Now().After(deadline) {
			t.Fatal("the two dispatchers did not deliver everything within 60 s")
		}
		time.Sleep(50 * time.Millisecond)
	}
	cancel()
	wg.Wait()
	for _, c := range []struct {
		ep engine.WebhookEndpoint
		rv *receiver
	}{{ep1, rv1}, {ep2, rv2}} {
		checkTruth(t, g, c.ep, c.rv, events, engine.DeliveryDelivered)
		for id, n := range c.rv.counts() {
			if n != 1 {
				t.Errorf("event %s reached %s %d times; with no failure each delivery is sent once", id, c.ep.ID, n)
			}
		}
	}
	if n := overlap.Load(); n > 0 {
		t.Errorf("%d deliveries were in flight twice at once", n)
	}
}
