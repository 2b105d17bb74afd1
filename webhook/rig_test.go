package webhook_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/postgres"
	"github.com/fourd-dev/fourd/store/postgres/pgtest"
	"github.com/fourd-dev/fourd/webhook"
	"github.com/fourd-dev/fourd/webhook/signature"
)

// The rig runs the real Dispatcher and Sender over the real PostgreSQL
// outbox (StoreOutbox over store/postgres) against receivers on loopback.
// Every part shares one injectable clock, so retries hours apart are
// driven by advancing it, not by sleeping.

var master = []byte("webhook outbox test master key, 32+ bytes")

// clock is a settable clock starting at the current time (receivers verify
// signature timestamps against it).
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock() *clock { return &clock{now: time.Now().UTC().Truncate(time.Millisecond)} }

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *clock) Advance(d time.Duration) { c.mu.Lock(); defer c.mu.Unlock(); c.now = c.now.Add(d) }

// receiver is a loopback endpoint: it verifies each request's signature
// and counts verified requests per event id; behave decides the answer to
// the nth request (from 1) carrying an event.
type receiver struct {
	t      testing.TB
	secret string
	clock  *clock
	behave func(n int, w http.ResponseWriter, r *http.Request)
	mu     sync.Mutex
	seen   map[string]int // event id → requests received
	bad    []string
	srv    *httptest.Server
}

func newReceiver(t testing.TB, c *clock, behave func(n int, w http.ResponseWriter, r *http.Request)) *receiver {
	rv := &receiver{t: t, secret: webhook.NewSigningSecret(), clock: c, behave: behave, seen: map[string]int{}}
	rv.srv = httptest.NewServer(http.HandlerFunc(rv.serve))
	t.Cleanup(rv.srv.Close)
	return rv
}

func (rv *receiver) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var env struct {
		EventID string `json:"event_id"`
		Type    string `json:"type"`
	}
	err := signature.VerifyRequest([][]byte{[]byte(rv.secret)}, r.Header, body, rv.clock.Now())
	if err == nil {
		err = json.Unmarshal(body, &env)
	}
	rv.mu.Lock()
	if err != nil || env.EventID != r.Header.Get(signature.HeaderEventID) || env.Type != r.Header.Get(signature.HeaderEvent) {
		rv.bad = append(rv.bad, fmt.Sprintf("%s: %v", r.Header.Get(signature.HeaderEventID), err))
		rv.mu.Unlock()
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	rv.seen[env.EventID]++
	n := rv.seen[env.EventID]
	rv.mu.Unlock()
	if rv.behave != nil {
		rv.behave(n, w, r)
	}
}

// counts returns how many verified requests each event id got.
func (rv *receiver) counts() map[string]int {
	rv.mu.Lock()
	defer rv.mu.Unlock()
	out := make(map[string]int, len(rv.seen))
	for k, v := range rv.seen {
		out[k] = v
	}
	if len(rv.bad) > 0 {
		rv.t.Errorf("receiver rejected %d requests, e.g. %s", len(rv.bad), rv.bad[0])
	}
	return out
}

// rig is one tenant on a fresh database with a dispatcher factory.
type rig struct {
	t       testing.TB
	store   *postgres.Store
	clock   *clock
	tenant  engine.Tenant
	timeout time.Duration
}

func newRig(t testing.TB) *rig {
	t.Helper()
	c := newClock()
	s := pgtest.Open(t, postgres.Config{Now: c.Now})
	ten, err := s.EnsureTenant(context.Background(), "acme", "Acme")
	if err != nil {
		t.Fatal(err)
	}
	return &rig{t: t, store: s, clock: c, tenant: ten}
}

// endpoint registers rv as an endpoint subscribed to types.
func (g *rig) endpoint(rv *receiver, types ...string) engine.WebhookEndpoint {
	g.t.Helper()
	sealed, err := webhook.SealSecret(master, rv.secret)
	if err != nil {
		g.t.Fatal(err)
	}
	now := g.clock.Now()
	e := engine.WebhookEndpoint{ID: engine.NewID(engine.PrefixWebhook, now), TenantID: g.tenant.ID, URL: rv.srv.URL + "/hook",
		EventTypes: types, Enabled: true, SealedSecret: sealed, CreatedAt: now, UpdatedAt: now}
	if err := g.store.CreateWebhookEndpoint(context.Background(), e); err != nil {
		g.t.Fatal(err)
	}
	return e
}

// events appends n events of type typ and returns their ids.
func (g *rig) events(n int, typ string) []string {
	g.t.Helper()
	evs := make([]engine.Event, n)
	ids := make([]string, n)
	for i := range evs {
		now := g.clock.Now()
		evs[i] = engine.Event{ID: engine.NewID(engine.PrefixEvent, now), TenantID: g.tenant.ID, Type: typ, CreatedAt: now,
			Data: json.RawMessage(fmt.Sprintf(`{"finding":{"id":"fnd_%d","title":"t <&> %d"}}`, i, i))}
		ids[i] = evs[i].ID
	}
	if err := g.store.AppendEvents(context.Background(), evs); err != nil {
		g.t.Fatal(err)
	}
	return ids
}

// dispatcher returns a Dispatcher named worker over the rig's outbox; wrap,
// when set, wraps the outbox (to simulate a crash).
func (g *rig) dispatcher(worker string, concurrency int, wrap func(webhook.Outbox) webhook.Outbox) *webhook.Dispatcher {
	g.t.Helper()
	sender, err := webhook.NewSender(webhook.Config{Addresses: webhook.AddressPolicy{AllowLoopbackHTTP: true},
		Timeout: g.timeout, Now: g.clock.Now})
	if err != nil {
		g.t.Fatal(err)
	}
	g.t.Cleanup(sender.Close)
	var ob webhook.Outbox
	ob, err = webhook.NewStoreOutbox(webhook.StoreOutboxConfig{Queue: g.store, Master: master, Worker: worker, Now: g.clock.Now})
	if err != nil {
		g.t.Fatal(err)
	}
	if wrap != nil {
		ob = wrap(ob)
	}
	b := webhook.DefaultBackoff()
	b.Rand = func() float64 { return 0.5 }
	d, err := webhook.NewDispatcher(webhook.DispatcherConfig{Outbox: ob, Sender: sender, Backoff: b, Concurrency: concurrency,
		PollInterval: 5 * time.Millisecond, Now: g.clock.Now})
	if err != nil {
		g.t.Fatal(err)
	}
	return d
}

// deliveries returns every delivery of an endpoint with its attempt log.
func (g *rig) deliveries(endpointID string) []engine.Delivery {
	g.t.Helper()
	var all []engine.Delivery
	before := ""
	for {
		ds, err := g.store.ListDeliveries(context.Background(), engine.DeliveryQuery{TenantID: g.tenant.ID,
			EndpointID: endpointID, BeforeID: before, Limit: 500})
		if err != nil {
			g.t.Fatal(err)
		}
		all = append(all, ds...)
		if len(ds) < 500 {
			return all
		}
		before = ds[len(ds)-1].ID
	}
}

// settled reports whether no delivery of the endpoints is pending or in
// flight.
func (g *rig) settled(endpointIDs ...string) bool {
	for _, id := range endpointIDs {
		for _, d := range g.deliveries(id) {
			if d.Status == engine.DeliveryPending || d.Status == engine.DeliveryDelivering {
				return false
			}
		}
	}
	return true
}

// drain runs d batch by batch, moving the clock on by step whenever nothing
// is due, until every delivery of the endpoints is settled.
func (g *rig) drain(d *webhook.Dispatcher, step time.Duration, endpointIDs ...string) {
	g.t.Helper()
	for range 1000 {
		n, err := d.RunOnce(context.Background())
		if err != nil {
			g.t.Fatal(err)
		}
		if n == 0 {
			if g.settled(endpointIDs...) {
				return
			}
			g.clock.Advance(step)
		}
	}
	g.t.Fatal("deliveries did not settle")
}

// checkTruth checks the at-least-once and attempt-log properties: every
// event has a delivery to the endpoint that ended as wantStatus; the
// receiver got every delivered event at least once; and the receiver's
// count of an event is at least the logged attempts that got an HTTP answer
// and at most all logged attempts (a timeout, a cut connection or an
// abandoned attempt may or may not have reached it).
func checkTruth(t testing.TB, g *rig, ep engine.WebhookEndpoint, rv *receiver, events []string, wantStatus engine.DeliveryStatus) []engine.Delivery {
	t.Helper()
	ds := g.deliveries(ep.ID)
	byEvent := map[string]engine.Delivery{}
	for _, d := range ds {
		byEvent[d.EventID] = d
	}
	got := rv.counts()
	for _, id := range events {
		d, ok := byEvent[id]
		if !ok {
			t.Errorf("event %s: no delivery to %s (lost)", id, ep.ID)
			continue
		}
		if d.Status != wantStatus {
			t.Errorf("event %s: delivery %s; want %s", id, d.Status, wantStatus)
		}
		if len(d.AttemptLog) != d.Attempts {
			t.Errorf("event %s: %d attempts counted, %d logged", id, d.Attempts, len(d.AttemptLog))
		}
		answered := 0
		for i, a := range d.AttemptLog {
			if a.Attempt != i+1 {
				t.Errorf("event %s: log entry %d is attempt %d", id, i, a.Attempt)
			}
			if a.StatusCode != 0 {
				answered++
			}
		}
		if n := got[id]; n < answered || n > len(d.AttemptLog) {
			t.Errorf("event %s: receiver got it %d times; the log shows %d attempts, %d answered: %s",
				id, n, len(d.AttemptLog), answered, logString(d))
		}
		if wantStatus == engine.DeliveryDelivered && got[id] == 0 {
			t.Errorf("event %s: delivered but never received", id)
		}
	}
	return ds
}

func logString(d engine.Delivery) string {
	var b strings.Builder
	for _, a := range d.AttemptLog {
		fmt.Fprintf(&b, "[#%d %s %d %q] ", a.Attempt, a.Outcome, a.StatusCode, a.Error)
	}
	return b.String()
}
