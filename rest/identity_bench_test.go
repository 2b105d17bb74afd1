package rest

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/testserver"
)

// BenchmarkAuthMiddleware measures what bearer authentication and the rate
// limiter (in-memory store) add to a request: the same no-op handler bare,
// behind authenticated, and behind authenticated with the RateLimiter. The
// token cache is warm, as on a busy replica, so the store is not on the
// path. Besides ns/op it reports the median and p99 of single requests,
// and the paced sub-benchmarks issue requests at 5,000 a second from 16
// goroutines (each one 3,200 µs apart) to measure latency at that load.
//
//	go test -run '^$' -bench BenchmarkAuthMiddleware -benchtime 20000x ./rest/
func BenchmarkAuthMiddleware(b *testing.B) {
	st := testserver.New(b, testserver.Options{})
	svc, ids := st.Engine, st.Identity
	it := st.IssueToken(b, "acme", "a@acme.test", engine.RoleAdmin)
	limiter, err := NewRateLimiter(RateLimitConfig{TokenRate: 1 << 40}) // never reached: measure the bookkeeping
	if err != nil {
		b.Fatal(err)
	}
	noop := func(w http.ResponseWriter, r *http.Request) error { w.WriteHeader(http.StatusNoContent); return nil }
	mk := func(l Limiter, auth bool) http.Handler {
		a := &api{cfg: Config{Service: svc, Identity: ids, Limiter: l, Now: time.Now}.withDefaults(), svc: svc, ids: ids, log: slog.New(slog.DiscardHandler),
			metrics: newHTTPMetrics(prometheus.NewRegistry()), mux: http.NewServeMux()}
		h := handlerFunc(noop)
		if auth {
			h = a.authenticated(noop)
		}
		a.mux.Handle("GET /v1/findings", a.handle(h))
		return a.mux
	}
	cases := []struct {
		name string
		h    http.Handler
	}{
		{"bare", mk(nil, false)},
		{"auth", mk(nil, true)},
		{"auth+ratelimit", mk(limiter, true)},
	}
	request := func(h http.Handler) time.Duration {
		req := httptest.NewRequest(http.MethodGet, "/v1/findings", nil)
		req.Header.Set("Authorization", "Bearer "+it.Secret)
		w := httptest.NewRecorder()
		start := time.Now()
		h.ServeHTTP(w, req)
		d := time.Since(start)
		if w.Code != http.StatusNoContent {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
		return d
	}
	for _, c := range cases {
		request(c.h) // warm the token cache
		b.Run(c.name, func(b *testing.B) {
			ds := make([]time.Duration, 0, b.N)
			b.ReportAllocs()
			for b.Loop() {
				ds = append(ds, request(c.h))
			}
			reportLatency(b, ds)
		})
		b.Run(c.name+"/paced-5k", func(b *testing.B) {
			const workers = 16
			interval := time.Second * workers / 5000
			var mu sync.Mutex
			ds := make([]time.Duration, 0, b.N)
			var wg sync.WaitGroup
			per := b.N/workers + 1
			b.ResetTimer()
			for w := range workers {
				wg.Go(func() {
					time.Sleep(time.Duration(w) * interval / workers) // spread the workers' phases
					tick := time.NewTicker(interval)
					defer tick.Stop()
					local := make([]time.Duration, 0, per)
					for range per {
						<-tick.C
						local = append(local, request(c.h))
					}
					mu.Lock()
					ds = append(ds, local...)
					mu.Unlock()
				})
			}
			wg.Wait()
			reportLatency(b, ds)
		})
	}
}

// reportLatency reports the median and p99 of per-request durations.
func reportLatency(b *testing.B, ds []time.Duration) {
	if len(ds) == 0 {
		return
	}
	slices.Sort(ds)
	b.ReportMetric(float64(ds[len(ds)/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(ds[len(ds)*99/100].Nanoseconds()), "p99-ns")
}
