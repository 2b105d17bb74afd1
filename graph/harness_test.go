package graph_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/audit"
	"github.com/fourd-dev/fourd/engine/findings"
	"github.com/fourd-dev/fourd/engine/identity"
	"github.com/fourd-dev/fourd/engine/ingest"
	"github.com/fourd-dev/fourd/engine/reporting"
	"github.com/fourd-dev/fourd/graph"
	"github.com/fourd-dev/fourd/internal/testserver"
	"github.com/fourd-dev/fourd/rest"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/postgres"
)

// env is fourd's REST API (/v1) and GraphQL API (/graphql) on one loopback
// server over real ClickHouse and PostgreSQL stores (a database of each per
// test; internal/testserver), with two seeded tenants. The stores are
// wrapped in counters so tests can assert how many store queries an
// operation makes.
type env struct {
	url          string
	client       *http.Client
	svc          *findings.Service
	reports      *reporting.Service  // the report service the handler uses
	audits       *audit.Service      // the audit service both APIs use
	runner       *audit.Operator     // runs its claimed audits, as serve's workers do
	reportRunner *reporting.Operator // generates queued reports (newReportEnv)
	ingest       *ingest.Service     // the inventory intake (POST /v1/resources)
	ids          *identity.Service   // the identity service both APIs use
	ops          *identity.Operator  // its operator surface, as cmd/fourd holds it
	ch           *clickhouse.Store
	pg           *postgres.Store
	stack        *testserver.Stack
	calls        *counter
	a, b         testserver.TenantSeed
	// Tokens of tenant A: admin (every scope) and resources-only; of B: admin.
	tokA, tokAResources, tokB string
}

type envOptions struct {
	findingsA, findingsB int
	graph                func(*graph.Config)
	// stores, when set, replaces the finding and resource stores the
	// Service reads (the benchmark's kept large tenant); the call counters
	// wrap what it returns.
	stores func(engine.FindingStore, engine.ResourceStore) (engine.FindingStore, engine.ResourceStore)
	// limiter, when set, rate-limits both APIs (as fourd serve does).
	limiter *rest.RateLimiter
	// engine changes the Service's configuration last (its stores).
	engine func(*findings.Config)
	// reporting changes the report service's configuration (its stores).
	reporting func(*reporting.Config)
	// serviceStores changes the other services' stores (testserver.Stores:
	// the policies, inventory, decisions and mute rules stores) after
	// engine.
	serviceStores func(*testserver.Stores)
}

func newEnv(t testing.TB, o envOptions) *env {
	t.Helper()
	calls := &counter{n: map[string]int{}}
	st := testserver.New(t, testserver.Options{Engine: func(c *findings.Config) {
		findings, resources := c.Findings, c.Resources
		if o.stores != nil {
			findings, resources = o.stores(findings, resources)
		}
		c.Findings, c.Resources = countedFindings{findings, calls}, countedResources{resources, calls}
		c.Audits = countedAudits{c.Audits, calls}
		if o.engine != nil {
			o.engine(c)
		}
	}, Reporting: o.reporting, Stores: o.serviceStores})
	w := st.SeedTwo(t, o.findingsA, o.findingsB, false)
	e := &env{client: testserver.Client(), svc: st.Engine, reports: st.Reporting, audits: st.Audits, runner: st.AuditRunner, ingest: st.Ingest, ids: st.Identity, ops: st.Operator,
		ch: st.CH, pg: st.PG, stack: st, calls: calls, a: w.A, b: w.B, tokA: w.TokA, tokAResources: w.TokAResourcesOnly, tokB: w.TokB}
	e.url = serveBoth(t, st, st.Services, o.limiter, o.graph)
	return e
}

// serveBoth serves the REST API of s with its ingest service and the
// GraphQL API (configured by configure when not nil) on one loopback
// listener, both rate-limited by limiter when not nil, and returns the URL.
func serveBoth(t testing.TB, st *testserver.Stack, s testserver.Services, limiter *rest.RateLimiter, configure func(*graph.Config)) string {
	t.Helper()
	rcfg := rest.Config{Service: s.Engine, Reports: s.Reporting, Compliance: s.Posture, Dashboard: s.Dashboard, Policies: s.Policies, Exports: s.Exports, Triage: s.Triage, Idempotency: s.Idempotency, Mutes: s.Mutes, Audits: s.Audits, Identity: s.Identity, Ingest: s.Ingest, Secret: s.Config.Secret, Logger: st.Logger}
	gcfg := graph.Config{Service: s.Engine, Reports: s.Reporting, Compliance: s.Posture, Dashboard: s.Dashboard, Policies: s.Policies, Triage: s.Triage, Mutes: s.Mutes, Audits: s.Audits, Identity: s.Identity, Logger: st.Logger, Authenticate: true}
	if limiter != nil {
		rcfg.Limiter, gcfg.Limiter = limiter, limiter
	}
	api, err := rest.New(rcfg)
	if err != nil {
		t.Fatal(err)
	}
	if configure != nil {
		configure(&gcfg)
	}
	gql, err := graph.NewHandler(gcfg)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/graphql", gql)
	mux.Handle("/graphql/", gql)
	mux.Handle("/", api)
	return testserver.Serve(t, mux, nil)
}

// gqlResponse is a GraphQL answer with its HTTP status.
type gqlResponse struct {
	status int
	header http.Header
	Data   json.RawMessage `json:"data"`
	Errors []struct {
		Message    string         `json:"message"`
		Path       []any          `json:"path"`
		Extensions map[string]any `json:"extensions"`
	} `json:"errors"`
	Extensions map[string]any `json:"extensions"`
}

// code is the first error's code, or "".
func (r gqlResponse) code() string {
	if len(r.Errors) == 0 {
		return ""
	}
	c, _ := r.Errors[0].Extensions["code"].(string)
	return c
}

// gql POSTs an operation with the token.
func (e *env) gql(t testing.TB, token, query string, vars map[string]any) gqlResponse {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req, _ := http.NewRequest(http.MethodPost, e.url+"/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	return e.send(t, req, token)
}

// gqlGet sends an operation as GET query parameters.
func (e *env) gqlGet(t testing.TB, token, query string) gqlResponse {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, e.url+"/graphql?query="+url.QueryEscape(query), nil)
	return e.send(t, req, token)
}

func (e *env) send(t testing.TB, req *http.Request, token string) gqlResponse {
	t.Helper()
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := e.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var r gqlResponse
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("%s %s: status %d, not JSON: %s", req.Method, req.URL.Path, resp.StatusCode, b)
	}
	r.status, r.header = resp.StatusCode, resp.Header
	return r
}

// data decodes a successful answer's data into v, failing on errors.
func data[T any](t testing.TB, r gqlResponse) T {
	t.Helper()
	var v T
	if len(r.Errors) > 0 {
		t.Fatalf("GraphQL errors (status %d): %+v", r.status, r.Errors)
	}
	if err := json.Unmarshal(r.Data, &v); err != nil {
		t.Fatalf("decoding data: %v: %s", err, r.Data)
	}
	return v
}

// rest sends GET path to the REST API and decodes the body.
func (e *env) rest(t testing.TB, path, token string, v any) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, e.url+path, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := e.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	return resp.StatusCode
}

// counter counts store calls by method.
type counter struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *counter) inc(name string) {
	c.mu.Lock()
	c.n[name]++
	c.mu.Unlock()
}

// reset clears the counts and returns them.
func (c *counter) reset() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.n
	c.n = map[string]int{}
	return n
}

type countedFindings struct {
	engine.FindingStore
	c *counter
}

func (s countedFindings) ListFindings(ctx context.Context, q engine.FindingQuery) ([]engine.Finding, error) {
	s.c.inc("ListFindings")
	return s.FindingStore.ListFindings(ctx, q)
}

func (s countedFindings) GetFinding(ctx context.Context, tenantID, auditID, id string) (engine.Finding, error) {
	s.c.inc("GetFinding")
	return s.FindingStore.GetFinding(ctx, tenantID, auditID, id)
}

func (s countedFindings) CountFindings(ctx context.Context, q engine.FindingCountQuery) ([]engine.FindingCount, error) {
	s.c.inc("CountFindings")
	return s.FindingStore.CountFindings(ctx, q)
}

type countedResources struct {
	engine.ResourceStore
	c *counter
}

func (s countedResources) ListResources(ctx context.Context, q engine.ResourceQuery) ([]engine.Resource, error) {
	s.c.inc("ListResources")
	return s.ResourceStore.ListResources(ctx, q)
}

func (s countedResources) GetResource(ctx context.Context, tenantID, id string) (engine.Resource, error) {
	s.c.inc("GetResource")
	return s.ResourceStore.GetResource(ctx, tenantID, id)
}

func (s countedResources) GetResources(ctx context.Context, tenantID string, ids []string) ([]engine.Resource, error) {
	s.c.inc("GetResources")
	return s.ResourceStore.GetResources(ctx, tenantID, ids)
}

func (s countedResources) GetResourcesPartial(ctx context.Context, tenantID string, ids []string, f engine.ResourceFields) ([]engine.Resource, error) {
	s.c.inc(fmt.Sprintf("GetResourcesPartial%+v", f))
	return s.ResourceStore.GetResourcesPartial(ctx, tenantID, ids, f)
}

type countedAudits struct {
	engine.AuditStore
	c *counter
}

func (s countedAudits) LatestCompletedAudit(ctx context.Context, tenantID string) (engine.Audit, error) {
	s.c.inc("LatestCompletedAudit")
	return s.AuditStore.LatestCompletedAudit(ctx, tenantID)
}

func (s countedAudits) GetAudit(ctx context.Context, tenantID, id string) (engine.Audit, error) {
	s.c.inc("GetAudit")
	return s.AuditStore.GetAudit(ctx, tenantID, id)
}
