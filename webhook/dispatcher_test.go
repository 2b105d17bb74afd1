package webhook

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/google/go-cmp/cmp"
)

// fakeOutbox is an in-memory Outbox.
type fakeOutbox struct {
	mu      sync.Mutex
	pending map[string]*fakeRow
	records []AttemptRecord
}

type fakeRow struct {
	p          Pending
	due        time.Time
	leaseUntil time.Time
	state      State
}

func (o *fakeOutbox) ClaimDue(_ context.Context, now time.Time, limit int, lease time.Duration) ([]Pending, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []Pending
	ids := make([]string, 0, len(o.pending))
	for id := range o.pending {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		row := o.pending[id]
		if len(out) == limit || row.state != StatePending || row.due.After(now) || row.leaseUntil.After(now) {
			continue
		}
		row.leaseUntil = now.Add(lease)
		out = append(out, row.p)
	}
	return out, nil
}

func (o *fakeOutbox) RecordAttempt(_ context.Context, rec AttemptRecord) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	row, ok := o.pending[rec.DeliveryID]
	if !ok {
		return engine.ErrNotFound("delivery", rec.DeliveryID)
	}
	o.records = append(o.records, rec)
	row.state, row.due, row.leaseUntil = rec.Plan.State, rec.Plan.NextAttemptAt, time.Time{}
	row.p.Attempt, row.p.FirstAttemptAt = rec.Attempt+1, rec.FirstAttemptAt
	return nil
}

func TestDispatcher(t *testing.T) {
	var flaky atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) {})
	mux.HandleFunc("/flaky", func(w http.ResponseWriter, r *http.Request) {
		if flaky.Add(1) == 1 {
			w.WriteHeader(http.StatusBadGateway)
		}
	})
	mux.HandleFunc("/gone", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusGone) })
	srv := httptest.NewServer(mux)
	defer srv.Close()

	var mu sync.Mutex
	now := testClock
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	outbox := &fakeOutbox{pending: map[string]*fakeRow{}}
	for _, path := range []string{"/ok", "/flaky", "/gone"} {
		d := testDelivery(srv.URL + path)
		d.ID = "dlv" + path
		outbox.pending[d.ID] = &fakeRow{p: Pending{Delivery: d, EndpointID: "whe" + path, Attempt: 1}, state: StatePending}
	}
	b := DefaultBackoff()
	b.Jitter = JitterNone
	disp, err := NewDispatcher(DispatcherConfig{Outbox: outbox, Sender: mustSender(t, Config{Now: clock}), Backoff: b, Now: clock})
	if err != nil {
		t.Fatal(err)
	}

	ctx := context.Background()
	if n, err := disp.RunOnce(ctx); n != 3 || err != nil {
		t.Fatalf("first RunOnce() = %d, %v", n, err)
	}
	if n, err := disp.RunOnce(ctx); n != 0 || err != nil {
		t.Fatalf("RunOnce() before the retry is due = %d, %v", n, err)
	}
	mu.Lock()
	now = now.Add(time.Minute)
	mu.Unlock()
	if n, err := disp.RunOnce(ctx); n != 1 || err != nil {
		t.Fatalf("RunOnce() when the retry is due = %d, %v", n, err)
	}

	type rec struct {
		Delivery string
		Attempt  int
		Status   int
		Plan     Plan
	}
	var got []rec
	for _, r := range outbox.records {
		got = append(got, rec{r.DeliveryID, r.Attempt, r.Result.StatusCode, r.Plan})
		if !r.FirstAttemptAt.Equal(testClock) {
			t.Errorf("%s: FirstAttemptAt = %s", r.DeliveryID, r.FirstAttemptAt)
		}
	}
	sort.SliceStable(got, func(i, j int) bool {
		if got[i].Attempt != got[j].Attempt {
			return got[i].Attempt < got[j].Attempt
		}
		return got[i].Delivery < got[j].Delivery
	})
	want := []rec{
		{"dlv/flaky", 1, 502, Plan{State: StatePending, NextAttemptAt: testClock.Add(time.Minute)}},
		{"dlv/gone", 1, 410, Plan{State: StateFailed, DisableEndpoint: true}},
		{"dlv/ok", 1, 200, Plan{State: StateDelivered}},
		{"dlv/flaky", 2, 200, Plan{State: StateDelivered}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
}

func TestNewDispatcherValidates(t *testing.T) {
	s := mustSender(t, Config{})
	tests := []struct {
		name string
		cfg  DispatcherConfig
	}{
		{"no outbox", DispatcherConfig{Sender: s}},
		{"no sender", DispatcherConfig{Outbox: &fakeOutbox{}}},
		{"schedule beyond the window", DispatcherConfig{Outbox: &fakeOutbox{}, Sender: s,
			Backoff: Backoff{Attempts: 8, Base: time.Hour, Factor: 2, Max: 10 * time.Hour, Window: 24 * time.Hour}}},
		{"lease shorter than the timeout", DispatcherConfig{Outbox: &fakeOutbox{}, Sender: s, Lease: 100 * time.Millisecond}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := NewDispatcher(tt.cfg); err == nil {
				t.Error("NewDispatcher() = nil error")
			}
		})
	}
}

// TestDispatcherRunStops: Run drains what is due, then returns when its
// context ends.
func TestDispatcherRunStops(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer srv.Close()
	d := testDelivery(srv.URL)
	d.ID = "dlv_1"
	outbox := &fakeOutbox{pending: map[string]*fakeRow{d.ID: {p: Pending{Delivery: d, Attempt: 1}, state: StatePending}}}
	disp, err := NewDispatcher(DispatcherConfig{Outbox: outbox, Sender: mustSender(t, Config{}), PollInterval: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if err := disp.Run(ctx); err != context.DeadlineExceeded {
		t.Errorf("Run() = %v, want %v", err, context.DeadlineExceeded)
	}
	outbox.mu.Lock()
	defer outbox.mu.Unlock()
	if len(outbox.records) != 1 || outbox.pending[d.ID].state != StateDelivered {
		t.Errorf("records = %+v", outbox.records)
	}
}

// blockingOutbox has nothing due until its caller gives up, and then
// fails with the caller's error, as a database call cut short does.
type blockingOutbox struct{}

func (blockingOutbox) ClaimDue(ctx context.Context, _ time.Time, _ int, _ time.Duration) ([]Pending, error) {
	<-ctx.Done()
	return nil, fmt.Errorf("postgres: ClaimDue: %w", ctx.Err())
}

func (blockingOutbox) RecordAttempt(context.Context, AttemptRecord) error { return nil }

// TestDispatcherShutdownIsQuiet: an outbox call cut short by shutdown is
// not logged as a failed dispatch.
func TestDispatcherShutdownIsQuiet(t *testing.T) {
	var logs bytes.Buffer
	disp, err := NewDispatcher(DispatcherConfig{Outbox: blockingOutbox{}, Sender: mustSender(t, Config{}),
		PollInterval: 10 * time.Millisecond, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := disp.Run(ctx); err != context.DeadlineExceeded {
		t.Errorf("Run() = %v, want %v", err, context.DeadlineExceeded)
	}
	if logs.Len() > 0 {
		t.Errorf("shutdown logged:\n%s", logs.String())
	}
}
