package rest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/audit"
	"github.com/fourd-dev/fourd/engine/identity"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
	"github.com/fourd-dev/fourd/store/postgres"
	"github.com/fourd-dev/fourd/store/postgres/pgtest"
	"github.com/fourd-dev/fourd/store/storemetrics"
	"github.com/prometheus/client_golang/prometheus"
)

// env is a fourd REST server on a loopback listener over real ClickHouse and
// PostgreSQL stores (a database of each per test), seeded with two tenants.
type env struct {
	url    string
	client *http.Client
	svc    *engine.Service
	audits *audit.Service     // the audit service the handler uses
	ids    *identity.Service  // the identity service the handler uses
	ops    *identity.Operator // its operator surface, as cmd/fourd holds it
	ch     *clickhouse.Store
	pg     *postgres.Store
	reg    *prometheus.Registry
	// clock is the Service's clock; tests move it forward.
	clock *testClock
	a, b  tenantSeed
	// Tokens of tenant A: admin (every scope), resources-only, revoked.
	tokA, tokAResourcesOnly, tokAFindingsOnly, tokARevoked string
	tokB                                                   string
}

// envsStarted counts servers started by newEnv (see TestMain).
var envsStarted atomic.Int64

// tenantSeed is what was written for one tenant.
type tenantSeed struct {
	id        string
	audit     engine.Audit
	findings  []engine.Finding
	resources []engine.Resource
	policies  []engine.Policy
	reports   []engine.Report
}

// envOptions changes how newEnv builds the handler.
type envOptions struct {
	findingsA, findingsB int
	config               func(*Config)
	// engine changes the Service's configuration (its stores); the test
	// stores time their calls into the server's registry either way.
	engine func(*engine.Config)
	// server changes the test server's settings (timeouts) before it starts.
	server func(*http.Server)
}

// newEnv starts a seeded server; findingsA/B findings for tenants A and B.
func newEnv(t testing.TB, o envOptions) *env {
	t.Helper()
	ch := chtest.New(t)
	pg := pgtest.New(t)
	reg := prometheus.NewRegistry()
	clock := &testClock{}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	ecfg := engine.Config{Findings: ch, Resources: ch, Tenants: pg, Audits: pg,
		Policies: pg, Reports: pg, Snapshots: ch, Inventory: ch, Evaluators: audit.New(nil),
		Overrides: pg, MuteRules: pg, MuteMatches: ch, Idempotency: pg, Events: pg, EventLog: ch, Users: pg,
		Secret: []byte("rest test secret, at least thirty-two bytes"), Logger: logger, Now: clock.Now}
	if o.engine != nil {
		o.engine(&ecfg)
	}
	metrics := storemetrics.New(reg)
	ch.SetMetrics(metrics)
	pg.SetMetrics(metrics)
	ids, ops := wireIdentity(t, &ecfg, pg, 0)
	svc, err := engine.NewService(ecfg)
	if err != nil {
		t.Fatal(err)
	}
	audits := wireAudits(t, ecfg, svc, pg)
	e := &env{client: &http.Client{Timeout: 30 * time.Second}, svc: svc, audits: audits, ids: ids, ops: ops, ch: ch, pg: pg, reg: reg, clock: clock}
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
	e.tokAResourcesOnly = issue("acme", "ci@acme.test", engine.RoleMember, engine.ScopeResourcesRead).Secret
	e.tokAFindingsOnly = issue("acme", "bot@acme.test", engine.RoleMember, engine.ScopeFindingsRead).Secret
	revoked := issue("acme", "gone@acme.test", engine.RoleMember)
	if err := pg.RevokeToken(ctx, revoked.Tenant.ID, revoked.Token.ID, time.Now()); err != nil {
		t.Fatal(err)
	}
	e.tokARevoked = revoked.Secret
	itB := issue("globex", "admin@globex.test", engine.RoleAdmin)
	e.tokB = itB.Secret
	e.a = seedTenant(t, ch, pg, itA.Tenant.ID, o.findingsA, 0)
	e.b = seedTenant(t, ch, pg, itB.Tenant.ID, o.findingsB, 1)

	cfg := Config{Service: svc, Audits: audits, Identity: ids, Ingest: wireIngest(t, ecfg), Secret: ecfg.Secret, Logger: logger, Registry: reg, MetricsOnAPI: true}
	if o.config != nil {
		o.config(&cfg)
	}
	h, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(h)
	if o.server != nil {
		o.server(srv.Config)
	}
	srv.Start()
	t.Cleanup(srv.Close)
	envsStarted.Add(1)
	e.url = srv.URL
	return e
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

var (
	seedTypes   = []string{"aws_s3_bucket", "aws_instance", "aws_iam_role", "gcp_bucket"}
	seedRegions = []string{"us-east-1", "eu-west-1", "eu-central-1"}
)

// seedTenant writes resources, a completed audit with a snapshot of n
// findings, policies and reports for a tenant. salt varies the data.
func seedTenant(t testing.TB, ch *clickhouse.Store, pg *postgres.Store, tenantID string, n, salt int) tenantSeed {
	t.Helper()
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Millisecond)
	s := tenantSeed{id: tenantID}
	nres := n/4 + 3
	for i := range nres {
		typ := seedTypes[(i+salt)%len(seedTypes)]
		provider := "aws"
		if typ == "gcp_bucket" {
			provider = "gcp"
		}
		native := fmt.Sprintf("arn:%s:%d:%d", typ, salt, i)
		s.resources = append(s.resources, engine.Resource{
			ID: engine.ResourceID(tenantID, provider, native), TenantID: tenantID, Provider: provider,
			Account: fmt.Sprintf("acct-%d", i%3), Region: seedRegions[i%len(seedRegions)], Type: typ, NativeID: native,
			Name: fmt.Sprintf("resource %d", i), Tags: engine.TagsFromMap(map[string]string{"env": "prod"}),
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
	for i := range 3 {
		p := engine.Policy{ID: engine.NewID(engine.PrefixPolicy, now.Add(time.Duration(i)*time.Second)), TenantID: tenantID,
			Name: fmt.Sprintf("policy %d", i), Expression: "resource.attributes.public == true", Effect: engine.PolicyRaise,
			Dimension: engine.DimensionSecurity, Severity: engine.SeverityHigh, ResourceTypes: []string{"aws_s3_bucket"},
			Title: "Public bucket", Remediation: "Make it private.", Enabled: true, Version: 1, CreatedAt: now, UpdatedAt: now}
		if err := pg.CreatePolicy(ctx, p); err != nil {
			t.Fatalf("CreatePolicy: %v", err)
		}
		s.policies = append(s.policies, p)
		r := engine.Report{ID: engine.NewID(engine.PrefixReport, now.Add(time.Duration(i)*time.Second)), TenantID: tenantID,
			Kind: engine.ReportKinds[i], Status: engine.ReportPending, AuditID: s.audit.ID,
			Filters: json.RawMessage(`{"severity":"high"}`), CreatedAt: now}
		if err := pg.CreateReport(ctx, r); err != nil {
			t.Fatalf("CreateReport: %v", err)
		}
		s.reports = append(s.reports, r)
	}
	return s
}

// completeAudit creates an audit and takes it through running to completed.
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
	a.Summary = &engine.AuditSummary{BySeverity: map[engine.Severity]int64{}, ByDimension: map[engine.Dimension]int64{}}
	if err := pg.UpdateAudit(ctx, a); err != nil {
		t.Fatalf("UpdateAudit: %v", err)
	}
	got, err := pg.GetAudit(ctx, tenantID, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// makeFindings returns n findings over the resources, with every severity,
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

// testClock is time.Now moved by an offset that tests can advance.
type testClock struct{ offset atomic.Int64 }

// Now returns the current time plus the offset.
func (c *testClock) Now() time.Time { return time.Now().Add(time.Duration(c.offset.Load())) }

// Advance moves the clock forward by d.
func (c *testClock) Advance(d time.Duration) { c.offset.Add(int64(d)) }
