package rest

import (
	"encoding/json"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/fourd-dev/fourd/engine/audit"
	"github.com/fourd-dev/fourd/engine/findings"
	"github.com/fourd-dev/fourd/engine/identity"
	"github.com/fourd-dev/fourd/engine/reporting"
	"github.com/fourd-dev/fourd/internal/testserver"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/postgres"
	"github.com/prometheus/client_golang/prometheus"
)

// env is a fourd REST server on a loopback listener over real ClickHouse and
// PostgreSQL stores (a database of each per test; internal/testserver),
// seeded with two tenants.
type env struct {
	url          string
	client       *http.Client
	svc          *findings.Service
	reports      *reporting.Service  // the report service the handler uses
	audits       *audit.Service      // the audit service the handler uses
	runner       *audit.Operator     // runs its claimed audits, as serve's workers do
	reportRunner *reporting.Operator // generates queued reports (newReportsEnv)
	ids          *identity.Service   // the identity service the handler uses
	ops          *identity.Operator  // its operator surface, as cmd/fourd holds it
	ch           *clickhouse.Store
	pg           *postgres.Store
	reg          *prometheus.Registry
	stack        *testserver.Stack
	// clock is the Service's clock; tests move it forward.
	clock *testserver.Clock
	a, b  testserver.TenantSeed
	// Tokens of tenant A: admin (every scope), resources-only, revoked.
	tokA, tokAResourcesOnly, tokAFindingsOnly, tokARevoked string
	tokB                                                   string
}

// envsStarted counts servers started by newEnv (see TestMain).
var envsStarted atomic.Int64

// envOptions changes how newEnv builds the handler.
type envOptions struct {
	findingsA, findingsB int
	config               func(*Config)
	// engine changes the Service's configuration (its stores); the test
	// stores time their calls into the server's registry either way.
	engine func(*findings.Config)
	// reporting changes the report service's configuration (its stores).
	reporting func(*reporting.Config)
	// stores changes the other services' stores (testserver.Stores: the
	// policies, inventory, decisions and mute rules stores) after engine.
	stores func(*testserver.Stores)
	// server changes the test server's settings (timeouts) before it starts.
	server func(*http.Server)
}

// newEnv starts a seeded server; findingsA/B findings for tenants A and B.
func newEnv(t testing.TB, o envOptions) *env {
	t.Helper()
	reg := prometheus.NewRegistry()
	st := testserver.New(t, testserver.Options{Registry: reg, Engine: o.engine, Reporting: o.reporting, Stores: o.stores})
	w := st.SeedTwo(t, o.findingsA, o.findingsB, true)
	e := &env{client: testserver.Client(), svc: st.Engine, reports: st.Reporting, audits: st.Audits, runner: st.AuditRunner, ids: st.Identity, ops: st.Operator, ch: st.CH, pg: st.PG,
		reg: reg, stack: st, clock: st.Clock, a: w.A, b: w.B, tokA: w.TokA, tokAResourcesOnly: w.TokAResourcesOnly,
		tokAFindingsOnly: w.TokAFindingsOnly, tokARevoked: w.TokARevoked, tokB: w.TokB}
	cfg := Config{Service: st.Engine, Reports: st.Reporting, Compliance: st.Posture, Dashboard: st.Dashboard, Policies: st.Policies, Exports: st.Exports, Triage: st.Triage, Idempotency: st.Idempotency, Mutes: st.Mutes, Audits: st.Audits, Identity: st.Identity, Ingest: st.Ingest, Secret: testserver.Secret, Logger: st.Logger,
		Registry: reg, MetricsOnAPI: true}
	if o.config != nil {
		o.config(&cfg)
	}
	e.url = serve(t, cfg, o.server)
	envsStarted.Add(1)
	return e
}

// serve starts the REST handler of cfg on a loopback listener (configure,
// when not nil, changes the server's settings) and returns its URL.
func serve(t testing.TB, cfg Config, configure func(*http.Server)) string {
	t.Helper()
	h, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return testserver.Serve(t, h, configure)
}

// get sends GET path with the token and validates the response.
func (e *env) get(t testing.TB, path, token string) response {
	t.Helper()
	return do(t, e.client, http.MethodGet, e.url+path, token, nil, nil)
}

// getJSON is get that decodes a 200 body into v; other statuses fail t.
func getJSON[T any](t testing.TB, e *env, path, token string) T {
	t.Helper()
	r := e.get(t, path, token)
	var v T
	if r.status != http.StatusOK {
		t.Fatalf("GET %s: status %d: %s", path, r.status, r.body)
	}
	if err := json.Unmarshal(r.body, &v); err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	return v
}
