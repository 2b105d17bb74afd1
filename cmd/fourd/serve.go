package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/fourd-dev/fourd/graph"
	"github.com/fourd-dev/fourd/rest"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// serve runs the API until ctx is canceled (Ctrl-C, SIGTERM), then drains
// in-flight requests and stops its workers.
func serve(ctx context.Context, cfg config, log *slog.Logger) error {
	if len(cfg.Secret) == 0 {
		return errors.New("FOURD_SECRET is not set: serve needs a key of at least 32 bytes for cursors and signed values (make run generates one into .data/secret)")
	}
	s, err := openStores(ctx, cfg, log, true)
	if err != nil {
		return err
	}
	defer s.close()
	// A long-lived process: it builds the q index of the tenants it writes
	// and reads (issue 33 §3); commands that exit soon after leave it to it.
	s.ch.EnableQIndexBuilds()
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	api, err := newAPIServices(cfg, log, s, reg)
	if err != nil {
		return err
	}
	svc, ids := api.engine, api.identity
	limiter, closeLimiter, err := newLimiter(ctx, cfg.Limits, log)
	if err != nil {
		return err
	}
	defer closeLimiter()
	h, err := rest.New(rest.Config{Service: svc, Audits: api.audits, Identity: ids, Webhooks: api.webhooks, Ingest: api.ingest, Reports: api.reporting, Compliance: api.posture, Dashboard: api.dashboard, Policies: api.policies, Exports: api.exports, Triage: api.triage, Idempotency: api.idem, Mutes: api.mutes, Secret: cfg.Secret, Logger: log, CORSOrigins: cfg.CORSOrigins,
		TrustProxyHeaders: cfg.TrustProxy, Registry: reg, MetricsOnAPI: cfg.MetricsToken != "", MetricsToken: cfg.MetricsToken,
		Limiter: limiter, ReadTimeout: readTimeout(cfg.ReadTimeout)})
	if err != nil {
		return err
	}
	// GraphQL at /graphql (GraphiQL on a browser's GET), everything else
	// REST. GraphQL authenticates with the same tokens and counts against
	// the same rate limiter; its query cost has its own budget.
	gql, err := graph.NewHandler(graph.Config{Service: svc, Audits: api.audits, Reports: api.reporting, Compliance: api.posture, Dashboard: api.dashboard, Policies: api.policies, Triage: api.triage, Mutes: api.mutes, Identity: ids, Logger: log, Authenticate: true, Limiter: limiter,
		ReadTimeout: readTimeout(cfg.ReadTimeout)})
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/graphql", gql)
	mux.Handle("/graphql/", gql)
	mux.Handle("/", h)
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("FOURD_ADDR=%s: %w", cfg.Addr, err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 3)
	// The Service caches each tenant's latest audit and finding overrides
	// while PostgreSQL's change feed tells it of every write (other
	// replicas, workers, the CLI); it reads past the caches while the feed
	// is down.
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := api.upkeep.FollowChanges(ctx); ctx.Err() == nil {
			log.Error("change feed stopped; read caches bypassed", "err", err)
		}
	}()
	if cfg.MetricsAddr != "" {
		mln, err := net.Listen("tcp", cfg.MetricsAddr)
		if err != nil {
			ln.Close()
			return fmt.Errorf("FOURD_METRICS_ADDR=%s: %w", cfg.MetricsAddr, err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			mux := http.NewServeMux()
			mux.Handle("GET /metrics", rest.MetricsHandler(reg))
			errs <- rest.ServeListener(ctx, mln, mux, log)
		}()
	}
	host, _ := os.Hostname()
	worker := fmt.Sprintf("%s-%d", host, os.Getpid())
	startWorkers(ctx, &wg, api.upkeep, api.auditRunner, api.reportRunner, log, worker)
	startDispatcher(ctx, &wg, cfg.Webhooks, s.pg, cfg.Secret, log, worker)
	log.Info("fourd serving", "addr", "http://"+ln.Addr().String(), "metrics", cfg.MetricsAddr)
	err = rest.ServeListener(ctx, ln, mux, log)
	wg.Wait()
	close(errs)
	for e := range errs {
		err = errors.Join(err, e)
	}
	return err
}

// readTimeout is FOURD_READ_TIMEOUT for the handlers' configurations, whose
// zero means their default: 0 (none) becomes negative.
func readTimeout(d time.Duration) time.Duration {
	if d == 0 {
		return -1
	}
	return d
}
