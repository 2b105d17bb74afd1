package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/webhook"
	"github.com/fourd-dev/fourd/webhook/signature"
	"github.com/google/go-cmp/cmp"
)

var secret = []byte("whsec_receiver_test")

func newTestReceiver(queue int) *receiver {
	return &receiver{secrets: [][]byte{secret}, seen: newDedup(100, time.Hour), queue: make(chan event, queue),
		log: slog.New(slog.DiscardHandler), now: time.Now}
}

func mustEventBody(t *testing.T, id string) []byte {
	t.Helper()
	b, err := webhook.EventBody(engine.Event{ID: id, Type: engine.EventFindingCreated,
		CreatedAt: time.Date(2026, 11, 21, 5, 0, 0, 0, time.UTC),
		Data:      []byte(`{"finding":{"id":"fnd_x","severity":"high","dimension":"security","resource_id":"res_x","title":"t"}}`)})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestReceiverWithSender delivers with fourd's own Sender: new events are
// queued once, retries of the same event are acknowledged as duplicates,
// and a full queue answers 503 with Retry-After.
func TestReceiverWithSender(t *testing.T) {
	rc := newTestReceiver(1)
	srv := httptest.NewServer(rc)
	defer srv.Close()
	s, err := webhook.NewSender(webhook.Config{Addresses: webhook.AddressPolicy{AllowLoopbackHTTP: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	deliver := func(id string) webhook.Result {
		return s.Send(context.Background(), webhook.Delivery{URL: srv.URL, EventID: id, EventType: engine.EventFindingCreated,
			Body: mustEventBody(t, id), Secret: secret})
	}
	type step struct {
		Status     int
		RetryAfter time.Duration
	}
	var got []step
	for _, id := range []string{"evt_1", "evt_1", "evt_2", "evt_2"} {
		r := deliver(id)
		got = append(got, step{r.StatusCode, r.RetryAfter})
	}
	if ev := <-rc.queue; ev.ID != "evt_1" { // the worker takes evt_1
		t.Fatalf("queued %+v first", ev)
	}
	r := deliver("evt_2")
	got = append(got, step{r.StatusCode, r.RetryAfter})
	want := []step{{202, 0}, {200, 0}, {503, 30 * time.Second}, {503, 30 * time.Second}, {202, 0}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("responses (-want +got):\n%s", diff)
	}
	if ev := <-rc.queue; ev.ID != "evt_2" || ev.Type != engine.EventFindingCreated {
		t.Errorf("queued %+v", ev)
	}
}

func TestReceiverRejects(t *testing.T) {
	body := mustEventBody(t, "evt_1")
	now := time.Now()
	signed := func(b []byte, ts time.Time, key []byte) http.Header {
		return http.Header{
			"Content-Type":            {"application/json"},
			signature.HeaderEvent:     {engine.EventFindingCreated},
			signature.HeaderEventID:   {"evt_1"},
			signature.HeaderTimestamp: {strconv.FormatInt(ts.Unix(), 10)},
			signature.HeaderSignature: {signature.Sign(key, ts.Unix(), b)},
		}
	}
	tests := []struct {
		name   string
		method string
		h      http.Header
		body   []byte
		want   int
	}{
		{"valid", http.MethodPost, signed(body, now, secret), body, 202},
		{"GET", http.MethodGet, signed(body, now, secret), body, 405},
		{"wrong secret", http.MethodPost, signed(body, now, []byte("whsec_other")), body, 401},
		{"tampered body", http.MethodPost, signed(body, now, secret), append(bytes.Clone(body), ' '), 401},
		{"replayed after 10 minutes", http.MethodPost, signed(body, now.Add(-10*time.Minute), secret), body, 401},
		{"no signature", http.MethodPost, http.Header{signature.HeaderTimestamp: {strconv.FormatInt(now.Unix(), 10)}}, body, 401},
		{"signed garbage", http.MethodPost, signed([]byte("not json"), now, secret), []byte("not json"), 400},
		{"too large", http.MethodPost, signed(body, now, secret), bytes.Repeat([]byte("x"), maxBody+1), 413},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(tt.method, "/", bytes.NewReader(tt.body))
			req.Header = tt.h
			w := httptest.NewRecorder()
			newTestReceiver(4).ServeHTTP(w, req)
			if w.Code != tt.want {
				b, _ := io.ReadAll(w.Body)
				t.Errorf("status = %d, want %d (%s)", w.Code, tt.want, b)
			}
		})
	}
	t.Run("event id header differs from body", func(t *testing.T) {
		req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
		req.Header = signed(body, now, secret)
		req.Header.Set(signature.HeaderEventID, "evt_2")
		w := httptest.NewRecorder()
		newTestReceiver(4).ServeHTTP(w, req)
		if w.Code != 400 {
			t.Errorf("status = %d, want 400", w.Code)
		}
	})
}

func TestDedup(t *testing.T) {
	t0 := time.Unix(0, 0)
	d := newDedup(2, time.Hour)
	type call struct {
		id  string
		at  time.Duration
		new bool
	}
	calls := []call{
		{"a", 0, true},
		{"a", time.Minute, false},
		{"b", 2 * time.Minute, true},
		{"c", 3 * time.Minute, true}, // evicts the least recently seen: a
		{"a", 4 * time.Minute, true},
		{"c", 5 * time.Minute, false},
		{"c", 2 * time.Hour, true}, // expired
	}
	for i, c := range calls {
		if got := d.add(c.id, t0.Add(c.at)); got != c.new {
			t.Errorf("call %d add(%q) = %v, want %v", i, c.id, got, c.new)
		}
	}
	if n := d.len(); n > 2 {
		t.Errorf("len = %d, want at most 2", n)
	}
	d.forget("c")
	if !d.add("c", t0.Add(2*time.Hour)) {
		t.Error("forgotten id still seen")
	}
}

func TestRunFlags(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	tests := []struct {
		name string
		args []string
		env  string
	}{
		{"no secret", nil, ""},
		{"bad queue", []string{"-queue", "0", "-secret", "s"}, ""},
		{"unknown flag", []string{"-nope"}, "s"},
		{"unusable address", []string{"-addr", "256.0.0.1:1"}, "s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := run(tt.args, tt.env, log); err == nil {
				t.Error("run() = nil, want an error")
			}
		})
	}
}
