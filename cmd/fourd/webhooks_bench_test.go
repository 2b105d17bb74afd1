package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/webhooks"
	"github.com/fourd-dev/fourd/store/postgres"
	"github.com/fourd-dev/fourd/store/postgres/pgtest"
	"github.com/fourd-dev/fourd/webhook"
)

// benchReceiver is a fast loopback endpoint that notes when each event id
// first arrived.
type benchReceiver struct {
	first sync.Map // event id → time.Time
	n     atomic.Int64
}

func (rv *benchReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	if id := r.Header.Get("X-Service-Event-Id"); id != "" {
		if _, loaded := rv.first.LoadOrStore(id, time.Now()); !loaded {
			rv.n.Add(1)
		}
	}
	w.WriteHeader(http.StatusNoContent)
}

func (rv *benchReceiver) waitFor(b *testing.B, n int64) {
	deadline := time.Now().Add(5 * time.Minute)
	for rv.n.Load() < n {
		if time.Now().After(deadline) {
			b.Fatalf("received %d of %d events", rv.n.Load(), n)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// benchEvents returns n events of the tenant with finding.created bodies.
func benchEvents(tenantID string, n int) []engine.Event {
	evs := make([]engine.Event, n)
	for i := range evs {
		now := time.Now()
		evs[i] = engine.Event{ID: engine.NewID(engine.PrefixEvent, now), TenantID: tenantID, Type: engine.EventFindingCreated,
			CreatedAt: now, Data: json.RawMessage(fmt.Sprintf(`{"finding":{"id":"fnd_%026d","severity":"high","dimension":"security",`+
				`"resource_id":"res_%026d","title":"S3 bucket is publicly readable"}}`, i, i))}
	}
	return evs
}

// BenchmarkWebhookDispatch measures the webhook dispatch loops of one
// serve process (newDispatchers with the default settings) through the
// real PostgreSQL outbox to a fast loopback receiver: the drain rate of a
// backlog of events, the same bodies posted by a bare http.Client loop with
// the same concurrency in the same run, and the latency from an event's
// commit to its first arrival under a steady load of 2,000 events/s.
func BenchmarkWebhookDispatch(b *testing.B) {
	const backlog, rate, loadFor = 10000, 2000, 5 * time.Second
	ctx := context.Background()
	pg := pgtest.Open(b, postgres.Config{MaxConns: 16})
	ten, err := pg.EnsureTenant(ctx, "bench", "Bench")
	if err != nil {
		b.Fatal(err)
	}
	secret := []byte("benchmark master secret, 32 bytes or more")
	rv := &benchReceiver{}
	srv := httptest.NewServer(rv)
	defer srv.Close()
	settings := webhookSettings{AllowLoopbackHTTP: true, Dispatchers: 4, Concurrency: 32, DisableAfter: -1}
	svc, err := newWebhooks(settings, pg, secret)
	if err != nil {
		b.Fatal(err)
	}
	p := engine.Principal{TenantID: ten.ID, Scopes: engine.AllScopes}
	if _, err := svc.CreateWebhookEndpoint(ctx, p, webhooks.CreateWebhookEndpointInput{URL: srv.URL + "/hook",
		EventTypes: []string{"*"}}); err != nil {
		b.Fatal(err)
	}
	ds, sender, err := newDispatchers(settings, pg, secret, slog.New(slog.DiscardHandler), "bench")
	if err != nil {
		b.Fatal(err)
	}
	defer sender.Close()

	for b.Loop() {
		// 1. Drain a backlog.
		evs := benchEvents(ten.ID, backlog)
		if err := pg.AppendEvents(ctx, evs); err != nil {
			b.Fatal(err)
		}
		runCtx, stop := context.WithCancel(ctx)
		var wg sync.WaitGroup
		for _, d := range ds {
			wg.Go(func() { _ = d.Run(runCtx) })
		}
		base := rv.n.Load()
		start := time.Now()
		rv.waitFor(b, base+backlog)
		dispatchRate := float64(backlog) / time.Since(start).Seconds()

		// 2. Steady load: commit→first arrival.
		var commits sync.Map
		var sent []string
		tick := time.NewTicker(50 * time.Millisecond)
		for end := time.Now().Add(loadFor); time.Now().Before(end); <-tick.C {
			batch := benchEvents(ten.ID, rate/20)
			if err := pg.AppendEvents(ctx, batch); err != nil {
				b.Fatal(err)
			}
			now := time.Now()
			for _, e := range batch {
				commits.Store(e.ID, now)
				sent = append(sent, e.ID)
			}
		}
		tick.Stop()
		rv.waitFor(b, base+backlog+int64(len(sent)))
		stop()
		wg.Wait()
		lat := make([]time.Duration, 0, len(sent))
		for _, id := range sent {
			c, _ := commits.Load(id)
			f, _ := rv.first.Load(id)
			lat = append(lat, max(f.(time.Time).Sub(c.(time.Time)), 0))
		}
		slices.Sort(lat)

		// 3. A bare client posting the same bodies with the same concurrency.
		bodies := make([][]byte, len(evs))
		for i, e := range evs {
			bodies[i], _ = webhook.EventBody(e)
		}
		bareRate := bareLoop(b, srv.URL+"/bare", bodies, settings.Dispatchers*settings.Concurrency)

		b.ReportMetric(dispatchRate, "deliveries/s")
		b.ReportMetric(bareRate, "bare-posts/s")
		b.ReportMetric(dispatchRate/bareRate, "dispatch/bare-ratio")
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-commit-to-attempt-ms")
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-commit-to-attempt-ms")
	}
}

// bareLoop posts every body once with conc goroutines and a plain
// keep-alive client, and returns posts per second.
func bareLoop(b *testing.B, url string, bodies [][]byte, conc int) float64 {
	tr := &http.Transport{MaxIdleConns: conc, MaxIdleConnsPerHost: conc}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 10 * time.Second}
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range conc {
		wg.Go(func() {
			for i := next.Add(1) - 1; i < int64(len(bodies)); i = next.Add(1) - 1 {
				resp, err := client.Post(url, "application/json", bytes.NewReader(bodies[i]))
				if err != nil {
					b.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		})
	}
	wg.Wait()
	return float64(len(bodies)) / time.Since(start).Seconds()
}
