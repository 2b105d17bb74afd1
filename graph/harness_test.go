package graph_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/audit"
	"github.com/fourd-dev/fourd/engine/identity"
	"github.com/fourd-dev/fourd/engine/ingest"
	"github.com/fourd-dev/fourd/graph"
	"github.com/fourd-dev/fourd/rest"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
	"github.com/fourd-dev/fourd/store/postgres"
	"github.com/fourd-dev/fourd/store/postgres/pgtest"
)

// env is fourd's REST API (/v1) and GraphQL API (/graphql) on one loopback
// server over real ClickHouse and PostgreSQL stores (a database of each per
// test), with two seeded tenants. The stores are wrapped in counters so
// tests can assert how many store queries an operation makes.
type env struct {
	url    string
	client *http.Client
	svc    *engine.Service
	audits *audit.Service     // the audit service both APIs use
	ingest *ingest.Service    // the inventory intake (POST /v1/resources)
	ids    *identity.Service  // the identity service both APIs use
	ops    *identity.Operator // its operator surface, as cmd/fourd holds it
	ch     *clickhouse.Store
	pg     *postgres.Store
	calls  *counter
	a, b   tenantSeed
	// Tokens of tenant A: admin (every scope) and resources-only; of B: admin.
	tokA, tokAResources, tokB string
}

type tenantSeed struct {
	id        string
	audit     engine.Audit
	findings  []engine.Finding
	resources []engine.Resource
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
	engine func(*engine.Config)
}

func newEnv(t testing.TB, o envOptions) *env {
	t.Helper()
	ch := chtest.New(t)
	pg := pgtest.New(t)
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	calls := &counter{n: map[string]int{}}
	var findings engine.FindingStore = ch
	var resources engine.ResourceStore = ch
	if o.stores != nil {
		findings, resources = o.stores(findings, resources)
	}
	ecfg := engine.Config{
		Findings: countedFindings{findings, calls}, Resources: countedResources{resources, calls},
		Tenants: pg, Audits: countedAudits{pg, calls}, Policies: pg, Reports: pg, Users: pg,
		Snapshots: ch, Inventory: ch, Evaluators: audit.New(nil), Overrides: pg, MuteRules: pg, MuteMatches: ch, Trends: ch, CompliancePostures: pg,
		Secret: []byte("graph test secret, at least thirty-two bytes"), Logger: logger,
	}
	if o.engine != nil {
		o.engine(&ecfg)
	}
	ids, ops, err := identity.New(identity.Config{Tenants: ecfg.Tenants, Store: pg, Secret: ecfg.Secret, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	ecfg.ChangeListeners = append(ecfg.ChangeListeners, ids)
	svc, err := engine.NewService(ecfg)
	if err != nil {
		t.Fatal(err)
	}
	ing, err := ingest.New(ingest.Config{Resources: ecfg.Resources, Events: ecfg.Events, EventLog: ecfg.EventLog, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	audits := newAudits(t, ecfg, svc, pg)
	e := &env{client: &http.Client{Timeout: 30 * time.Second}, svc: svc, audits: audits, ingest: ing, ids: ids, ops: ops, ch: ch, pg: pg, calls: calls}
	ctx := context.Background()
	issue := func(slug, email string, role engine.Role, scopes ...engine.Scope) identity.IssuedToken {
		it, err := ops.IssueToken(ctx, identity.IssueTokenInput{TenantSlug: slug, Email: email, Role: role, Scopes: scopes, Name: "test"})
		if err != nil {
			t.Fatalf("IssueToken(%s, %s): %v", slug, email, err)
		}
		return it
	}
	itA := issue("acme", "admin@acme.test", engine.RoleAdmin)
	e.tokA = itA.Secret
	e.tokAResources = issue("acme", "ci@acme.test", engine.RoleMember, engine.ScopeResourcesRead).Secret
	itB := issue("globex", "admin@globex.test", engine.RoleAdmin)
	e.tokB = itB.Secret
	e.a = seedTenant(t, ch, pg, itA.Tenant.ID, o.findingsA, 0)
	e.b = seedTenant(t, ch, pg, itB.Tenant.ID, o.findingsB, 1)

	rcfg := rest.Config{Service: svc, Audits: audits, Identity: ids, Ingest: ing, Secret: ecfg.Secret, Logger: logger}
	gcfg := graph.Config{Service: svc, Audits: audits, Identity: ids, Logger: logger, Authenticate: true}
	if o.limiter != nil {
		rcfg.Limiter, gcfg.Limiter = o.limiter, o.limiter
	}
	api, err := rest.New(rcfg)
	if err != nil {
		t.Fatal(err)
	}
	if o.graph != nil {
		o.graph(&gcfg)
	}
	gql, err := graph.NewHandler(gcfg)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/graphql", gql)
	mux.Handle("/graphql/", gql)
	mux.Handle("/", api)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	e.url = srv.URL
	return e
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

var (
	seedTypes   = []string{"aws_s3_bucket", "aws_instance", "aws_iam_role", "gcp_bucket"}
	seedRegions = []string{"us-east-1", "eu-west-1", "eu-central-1"}
)

// seedTenant writes resources and a completed audit with a snapshot of n
// findings for a tenant; salt varies the data.
func seedTenant(t testing.TB, ch *clickhouse.Store, pg *postgres.Store, tenantID string, n, salt int) tenantSeed {
	t.Helper()
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Second)
	s := tenantSeed{id: tenantID}
	for i := range n/4 + 3 {
		typ := seedTypes[(i+salt)%len(seedTypes)]
		provider := "aws"
		if typ == "gcp_bucket" {
			provider = "gcp"
		}
		native := fmt.Sprintf("arn:%s:%d:%d", typ, salt, i)
		s.resources = append(s.resources, engine.Resource{
			ID: engine.ResourceID(tenantID, provider, native), TenantID: tenantID, Provider: provider,
			Account: fmt.Sprintf("acct-%d", i%3), Region: seedRegions[i%len(seedRegions)], Type: typ, NativeID: native,
			Name: fmt.Sprintf("resource %d", i), Tags: engine.TagsFromMap(map[string]string{"env": "prod", "team": "core"}),
			Attributes: json.RawMessage(`{"public":true}`), FirstSeenAt: now, LastSeenAt: now,
		})
	}
	if _, err := ch.WriteResources(ctx, tenantID, seqOf(s.resources)); err != nil {
		t.Fatalf("WriteResources: %v", err)
	}
	s.audit = completeAudit(t, pg, tenantID, now.Add(-time.Hour))
	s.findings = makeFindings(tenantID, s.audit.ID, s.resources, n, salt, now)
	if _, err := ch.WriteSnapshot(ctx, tenantID, s.audit.ID, seqOf(s.findings)); err != nil {
		t.Fatalf("WriteSnapshot: %v", err)
	}
	return s
}

// completeAudit creates an audit and takes it to completed.
func completeAudit(t testing.TB, pg *postgres.Store, tenantID string, at time.Time) engine.Audit {
	t.Helper()
	ctx := context.Background()
	a := engine.Audit{ID: engine.NewID(engine.PrefixAudit, at), TenantID: tenantID, Status: engine.AuditQueued,
		RequestedBy: "system", CreatedAt: at}
	if err := pg.CreateAudit(ctx, a); err != nil {
		t.Fatalf("CreateAudit: %v", err)
	}
	started, done := at.Add(time.Second), at.Add(time.Minute)
	a.Status, a.StartedAt, a.CompletedAt = engine.AuditCompleted, &started, &done
	a.Summary = &engine.AuditSummary{BySeverity: map[engine.Severity]int64{engine.SeverityHigh: 2}, ByDimension: map[engine.Dimension]int64{}}
	if err := pg.UpdateAudit(ctx, a); err != nil {
		t.Fatalf("UpdateAudit: %v", err)
	}
	got, err := pg.GetAudit(ctx, tenantID, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// makeFindings returns n findings over the resources with every severity,
// dimension and status represented.
func makeFindings(tenantID, auditID string, res []engine.Resource, n, salt int, now time.Time) []engine.Finding {
	out := make([]engine.Finding, 0, n)
	for i := range n {
		r := res[i%len(res)]
		rule := fmt.Sprintf("rule_%03d", i/len(res)*7+salt)
		f := engine.Finding{
			ID: engine.FindingID(tenantID, rule, r.ID), TenantID: tenantID, AuditID: auditID, ResourceID: r.ID,
			RuleID: rule, Dimension: engine.Dimensions[(i*3+salt)%4], Severity: engine.Severities[(i*7+salt)%5],
			Status: engine.StatusOpen, Title: fmt.Sprintf("finding %d", i), Description: "d", Remediation: "r",
			Evidence: json.RawMessage(`{"i":` + fmt.Sprint(i) + `}`), Compliance: []string{"CIS-AWS-4.0.1:2.1.1"},
			ResourceType: r.Type, Provider: r.Provider, Account: r.Account, Region: r.Region,
			FirstSeenAt: now, LastSeenAt: now,
		}
		if i%9 == 4 {
			f.Status, f.Resolution = engine.StatusResolved, engine.ResolutionFixed
			at := now
			f.ResolvedAt = &at
		}
		out = append(out, f)
	}
	return out
}

func seqOf[T any](xs []T) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		for _, x := range xs {
			if !yield(x, nil) {
				return
			}
		}
	}
}

// newAudits builds the audit service over ecfg's stores and svc's read path,
// as cmd/fourd does, with queue as the audit queue.
func newAudits(t testing.TB, ecfg engine.Config, svc *engine.Service, queue engine.AuditQueue) *audit.Service {
	t.Helper()
	s, err := audit.NewService(audit.Config{Audits: ecfg.Audits, Snapshots: ecfg.Snapshots, Inventory: ecfg.Inventory,
		Queue: queue, Evaluators: ecfg.Evaluators, Findings: ecfg.Findings, Resources: ecfg.Resources,
		Reads: svc.AuditReads(), Events: ecfg.Events, EventLog: ecfg.EventLog, Logger: ecfg.Logger, Now: ecfg.Now})
	if err != nil {
		t.Fatal(err)
	}
	return s
}
