package rest

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/findings"
	"github.com/fourd-dev/fourd/internal/testserver"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// The REST benchmarks run the whole stack (loopback HTTP, auth against
// PostgreSQL, the Service, ClickHouse) over the 10M-finding snapshot that
// store/clickhouse's benchmarks keep in the database fourd_bench (tenant
// ten_bench). Without it they write a 200k-finding snapshot of their own.
//
//	FOURD_BENCH_10M=1 go test ./store/clickhouse -run '^$' -bench ListFindings/rows=10M -benchtime 1x  # once, writes fourd_bench
//	go test ./rest -run '^$' -bench . -benchtime 200x -timeout 30m
const (
	benchDB           = "fourd_bench"
	benchTenant       = "ten_bench"
	benchBigSize      = 10_000_000
	benchFallbackSize = 200_000
)

// benchStack is a fourd server over the bench snapshot.
type benchStack struct {
	url     string
	client  *http.Client
	token   string
	ch      *clickhouse.Store
	auditID string
	n       int64
	svc     *findings.Service
	p       engine.Principal
}

// tenantMapped reads the bench tenant's findings in ClickHouse for whichever
// PostgreSQL tenant the token belongs to (the bench snapshot was written for
// ten_bench); everything else is the real store.
type tenantMapped struct {
	engine.FindingStore
}

func (m tenantMapped) ListFindings(ctx context.Context, q engine.FindingQuery) ([]engine.Finding, error) {
	q.TenantID = benchTenant
	return m.FindingStore.ListFindings(ctx, q)
}

func (m tenantMapped) GetFinding(ctx context.Context, _, auditID, id string) (engine.Finding, error) {
	return m.FindingStore.GetFinding(ctx, benchTenant, auditID, id)
}

func (m tenantMapped) CountFindings(ctx context.Context, q engine.FindingCountQuery) ([]engine.FindingCount, error) {
	q.TenantID = benchTenant
	return m.FindingStore.CountFindings(ctx, q)
}

// newBenchStack starts a server for one benchmark (closed when it ends);
// configure, when given, changes the handler's Config.
func newBenchStack(b *testing.B, configure ...func(*Config)) *benchStack {
	b.Helper()
	ctx := context.Background()
	ch, auditID, n := benchSnapshot(b)
	// As fourd serve wires it, following the change feed that lets the
	// Service cache each tenant's latest audit and overrides.
	st := testserver.New(b, testserver.Options{ClickHouse: ch, NoUserStore: true, FollowChanges: true,
		Engine: func(c *findings.Config) { c.Findings = tenantMapped{ch} }})
	pg, svc, ids := st.PG, st.Engine, st.Identity
	it := st.IssueToken(b, "bench", "bench@example.com", engine.RoleAdmin)
	now := time.Now()
	a := engine.Audit{ID: auditID, TenantID: it.Tenant.ID, Status: engine.AuditQueued, CreatedAt: now}
	if err := pg.CreateAudit(ctx, a); err != nil {
		b.Fatal(err)
	}
	a.Status, a.StartedAt, a.CompletedAt = engine.AuditCompleted, &now, &now
	if err := pg.UpdateAudit(ctx, a); err != nil {
		b.Fatal(err)
	}
	cfg := Config{Service: svc, Identity: ids, Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))}
	for _, c := range configure {
		c(&cfg)
	}
	url := serve(b, cfg, nil)
	p, err := ids.Authenticate(ctx, it.Secret)
	if err != nil {
		b.Fatal(err)
	}
	tr := &http.Transport{MaxIdleConnsPerHost: 256, MaxConnsPerHost: 256}
	b.Cleanup(tr.CloseIdleConnections)
	return &benchStack{url: url, client: &http.Client{Transport: tr}, token: it.Secret, ch: ch,
		auditID: auditID, n: n, svc: svc, p: p}
}

// benchSnapshot returns the store holding the bench snapshot, its audit id
// and size: fourd_bench's 10M snapshot when present, else a fresh 200k one.
func benchSnapshot(b *testing.B) (*clickhouse.Store, string, int64) {
	ctx := context.Background()
	auditID := engine.DerivedID(engine.PrefixAudit, "bench", fmt.Sprint(benchBigSize))
	s, err := clickhouse.Open(ctx, clickhouse.Config{URL: chtest.WithDatabase(b, chtest.URL(), benchDB), QueryTimeout: time.Minute})
	if err == nil {
		got, cerr := s.CountFindings(ctx, engine.FindingCountQuery{TenantID: benchTenant, Filter: engine.FindingFilter{AuditID: auditID}})
		if cerr == nil && got[0].Count == benchBigSize {
			b.Cleanup(func() { s.Close() })
			return s, auditID, benchBigSize
		}
		s.Close()
	}
	b.Logf("%s has no %d-finding snapshot; writing %d findings instead", benchDB, benchBigSize, benchFallbackSize)
	s = chtest.New(b)
	auditID = engine.DerivedID(engine.PrefixAudit, "bench", fmt.Sprint(benchFallbackSize))
	res := make([]engine.Resource, 5000)
	for i := range res {
		res[i] = engine.Resource{ID: engine.ResourceID(benchTenant, "aws", fmt.Sprint(i)), Provider: "aws",
			Account: fmt.Sprintf("acct-%d", i%20), Region: "us-east-1", Type: "aws_s3_bucket"}
	}
	fs := testserver.MakeFindings(benchTenant, auditID, res, benchFallbackSize, 0, time.Now().UTC())
	if _, err := s.WriteSnapshot(ctx, benchTenant, auditID, testserver.SeqOf(fs)); err != nil {
		b.Fatal(err)
	}
	return s, auditID, benchFallbackSize
}

// idAt returns the id at fraction frac of the 128-bit id space.
func idAt(prefix string, frac float64) string {
	x, _ := new(big.Float).Mul(big.NewFloat(frac), new(big.Float).SetInt(new(big.Int).Lsh(big.NewInt(1), 128))).Int(nil)
	var b [16]byte
	x.FillBytes(b[:])
	return engine.FormatID(prefix, b)
}

// latencies collects per-request times and reports percentiles.
type latencies []time.Duration

func (ls latencies) pct(p float64) time.Duration {
	s := slices.Clone(ls)
	slices.Sort(s)
	return s[min(len(s)-1, int(p*float64(len(s))))]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func (s *benchStack) fetch(b *testing.B, path string) {
	req, _ := http.NewRequest(http.MethodGet, s.url+path, nil)
	req.Header.Set("Authorization", "Bearer "+s.token)
	res, err := s.client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		b.Fatalf("GET %s: %d", path, res.StatusCode)
	}
}

// BenchmarkFindingsPage times GET /v1/findings?limit=200 at the first, a
// middle and the last page through the whole stack, and in the same
// iterations the ClickHouse query that serves the page, run directly.
func BenchmarkFindingsPage(b *testing.B) {
	s := newBenchStack(b)
	ctx := context.Background()
	info, err := s.ch.CountFindings(ctx, engine.FindingCountQuery{TenantID: benchTenant,
		Filter: engine.FindingFilter{AuditID: s.auditID, Severity: engine.SeverityInfo}})
	if err != nil {
		b.Fatal(err)
	}
	cases := []struct {
		name string
		at   *engine.Finding // the page starts after it
	}{
		{"first", nil},
		{"middle", &engine.Finding{AuditID: s.auditID, Severity: engine.SeverityMedium, ID: idAt("fnd", 0.5)}},
		{"last", &engine.Finding{AuditID: s.auditID, Severity: engine.SeverityInfo, ID: idAt("fnd", 1-150/float64(info[0].Count))}},
	}
	for _, c := range cases {
		b.Run(fmt.Sprintf("n=%d/%s", s.n, c.name), func(b *testing.B) {
			path := "/v1/findings?limit=200"
			q := engine.FindingQuery{TenantID: benchTenant, Filter: engine.FindingFilter{AuditID: s.auditID}, Limit: 201}
			if c.at != nil {
				path += "&cursor=" + url.QueryEscape(s.svc.FindingCursor(s.p, engine.FindingFilter{}, *c.at))
				q.After = &engine.FindingKey{SeverityRank: c.at.Severity.Rank(), ID: c.at.ID}
			}
			s.timePages(b, func() (string, engine.FindingQuery) { return path, q })
		})
	}
}

// BenchmarkFindingsSummary times GET /v1/findings/summary.
func BenchmarkFindingsSummary(b *testing.B) {
	s := newBenchStack(b)
	for _, q := range []string{"", "group_by=severity,dimension", "group_by=dimension&severity=high"} {
		b.Run(fmt.Sprintf("n=%d/%s", s.n, q), func(b *testing.B) {
			var api latencies
			for b.Loop() {
				t0 := time.Now()
				s.fetch(b, "/v1/findings/summary?"+q)
				api = append(api, time.Since(t0))
			}
			b.ReportMetric(ms(api.pct(.5)), "p50-ms")
			b.ReportMetric(ms(api.pct(.99)), "p99-ms")
		})
	}
}

// BenchmarkThroughput compares sustained requests per second of GET
// /v1/findings?limit=50 (auth on) with a bare net/http handler answering a
// body of the same size, both on loopback from the same Go load generator
// (64 concurrent keep-alive clients), alternating one second each per
// iteration so that both see the same machine. It also drives the ClickHouse
// query behind the page directly with the same concurrency: the ceiling any
// API over this store can reach.
func BenchmarkThroughput(b *testing.B) {
	s := newBenchStack(b)
	bare, page := s.bareServer(b)
	const clients = 64
	ctx := context.Background()
	q := engine.FindingQuery{TenantID: benchTenant, Filter: engine.FindingFilter{AuditID: s.auditID}, Limit: 51}
	var fourd, plain, store float64
	rounds := 0
	for b.Loop() {
		fourd += load(b, clients, time.Second, func() error { return get(s.client, s.url+"/v1/findings?limit=50", s.token) })
		plain += load(b, clients, time.Second, func() error { return get(s.client, bare.URL+"/", "") })
		store += load(b, clients, time.Second, func() error { _, err := s.ch.ListFindings(ctx, q); return err })
		rounds++
	}
	b.ReportMetric(fourd/float64(rounds), "fourd-req/s")
	b.ReportMetric(plain/float64(rounds), "bare-req/s")
	b.ReportMetric(store/float64(rounds), "store-queries/s")
	b.ReportMetric(fourd/plain, "fourd/bare")
	b.ReportMetric(fourd/store, "fourd/store")
	b.ReportMetric(float64(len(page)), "body-bytes")
}

// bareServer starts a bare net/http handler answering the very bytes of a
// real page of GET /v1/findings?limit=50, and returns it with the page.
func (s *benchStack) bareServer(b *testing.B) (*httptest.Server, []byte) {
	req, _ := http.NewRequest(http.MethodGet, s.url+"/v1/findings?limit=50", nil)
	req.Header.Set("Authorization", "Bearer "+s.token)
	res, err := s.client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	bare := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(page)
	}))
	b.Cleanup(bare.Close)
	return bare, page
}

// BenchmarkRateLimitedRequests is BenchmarkThroughput's fourd figure with
// the production rate limiter in front, as fourd serve runs it: counters in
// memory (one replica) or in Redis (FOURD_REDIS_URL, shared by replicas; the
// local one at 127.0.0.1:56379 or FOURD_TEST_REDIS_URL). The token's budget
// is made too large to spend, so every request pays the counter update and
// none is refused. Same 64 clients, alternating one second each with the
// bare handler.
func BenchmarkRateLimitedRequests(b *testing.B) {
	for _, name := range []string{"memory", "redis"} {
		b.Run("store="+name, func(b *testing.B) {
			cfg := RateLimitConfig{TokenRate: 1 << 40, Logger: slog.New(slog.DiscardHandler)}
			if name == "redis" {
				u := os.Getenv("FOURD_TEST_REDIS_URL")
				if u == "" {
					u = "redis://127.0.0.1:56379/0"
				}
				store, closeFn, err := NewRedisLimitStore(context.Background(), u)
				if err != nil {
					b.Skipf("Redis at %s: %v", u, err)
				}
				b.Cleanup(func() { _ = closeFn() })
				cfg.Store = store
			}
			lim, err := NewRateLimiter(cfg)
			if err != nil {
				b.Fatal(err)
			}
			s := newBenchStack(b, func(c *Config) { c.Limiter = lim })
			bare, _ := s.bareServer(b)
			var fourd, plain float64
			rounds := 0
			for b.Loop() {
				fourd += load(b, 64, time.Second, func() error { return get(s.client, s.url+"/v1/findings?limit=50", s.token) })
				plain += load(b, 64, time.Second, func() error { return get(s.client, bare.URL+"/", "") })
				rounds++
			}
			b.ReportMetric(fourd/float64(rounds), "fourd-req/s")
			b.ReportMetric(plain/float64(rounds), "bare-req/s")
			b.ReportMetric(fourd/plain, "fourd/bare")
		})
	}
}

// get sends one GET and drains the answer, which must be 200.
func get(c *http.Client, u, token string) error {
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := c.Do(req)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", u, res.Status)
	}
	return nil
}

// load runs op from n goroutines for d and returns operations per second.
func load(b *testing.B, n int, d time.Duration, op func() error) float64 {
	var done atomic.Int64
	var failed atomic.Value
	start := time.Now()
	deadline := start.Add(d)
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			for time.Now().Before(deadline) {
				if err := op(); err != nil {
					failed.Store(err.Error())
					return
				}
				done.Add(1)
			}
		})
	}
	wg.Wait()
	if f := failed.Load(); f != nil {
		b.Fatalf("load: %v", f)
	}
	return float64(done.Load()) / time.Since(start).Seconds()
}

// BenchmarkFindingsColdPages times GET /v1/findings?limit=200 at a new
// depth every iteration (a random position in a random severity bucket),
// so no page is ever served from a cache: what a client paging through
// the whole collection meets. In the same iterations it runs the
// ClickHouse query behind each page directly (after the API's, so the
// API pays any cold read).
func BenchmarkFindingsColdPages(b *testing.B) {
	s := newBenchStack(b)
	r := rand.New(rand.NewPCG(7, 11))
	s.timePages(b, func() (string, engine.FindingQuery) {
		at := engine.Finding{AuditID: s.auditID, Severity: engine.Severities[r.IntN(len(engine.Severities))],
			ID: idAt("fnd", r.Float64())}
		path := "/v1/findings?limit=200&cursor=" + url.QueryEscape(s.svc.FindingCursor(s.p, engine.FindingFilter{}, at))
		return path, engine.FindingQuery{TenantID: benchTenant, Filter: engine.FindingFilter{AuditID: s.auditID}, Limit: 201,
			After: &engine.FindingKey{SeverityRank: at.Severity.Rank(), ID: at.ID}}
	})
}

// timePages times, each iteration, the page next names through the API
// and then its ClickHouse query directly, and reports both and their ratio.
func (s *benchStack) timePages(b *testing.B, next func() (path string, q engine.FindingQuery)) {
	ctx := context.Background()
	var api, direct latencies
	for b.Loop() {
		path, q := next()
		t0 := time.Now()
		s.fetch(b, path)
		t1 := time.Now()
		if _, err := s.ch.ListFindings(ctx, q); err != nil {
			b.Fatal(err)
		}
		api, direct = append(api, t1.Sub(t0)), append(direct, time.Since(t1))
	}
	b.ReportMetric(ms(api.pct(.5)), "api-p50-ms")
	b.ReportMetric(ms(api.pct(.99)), "api-p99-ms")
	b.ReportMetric(ms(direct.pct(.5)), "store-p50-ms")
	b.ReportMetric(ms(direct.pct(.99)), "store-p99-ms")
	b.ReportMetric(float64(api.pct(.5))/float64(direct.pct(.5)), "api/store-p50")
}
