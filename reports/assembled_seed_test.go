package reports

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/audit"
	"github.com/fourd-dev/fourd/engine/findings"
	inv "github.com/fourd-dev/fourd/engine/inventory"
	"github.com/fourd-dev/fourd/engine/mutes"
	"github.com/fourd-dev/fourd/engine/posture"
	"github.com/fourd-dev/fourd/engine/reporting"
	"github.com/fourd-dev/fourd/internal/testserver"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/postgres"
	"github.com/fourd-dev/fourd/store/postgres/pgtest"
)

// This file seeds the fixed data set of the assembled-report tests
// (assembled_test.go): a tenant with a fixed id, two completed audits with
// fixed ids and times, and their snapshots, in real ClickHouse and
// PostgreSQL, so the documents the worker builds are the same every run.

// goldenNow is the Service's and the stores' clock at the start.
var goldenNow = time.Date(2026, 11, 3, 15, 0, 0, 0, time.UTC)

// assembled is the seeded world: the stores, a Service with report workers
// over them, and the tenant.
type assembled struct {
	svc          *findings.Service
	reports      *reporting.Service
	reportRunner *reporting.Operator // generates queued reports
	posture      *posture.Service
	mutes        *mutes.Service
	pg           *postgres.Store
	ch           *clickhouse.Store
	clock        *testserver.Clock
	tenant       engine.Tenant
	prev, cur    engine.Audit
	writer       engine.Principal
	otherTenant  engine.Principal
	otherAuditID string
}

// fixedID is an id of prefix whose time part is at and whose random part
// is fixed, so ids sort by time as real ones do.
func fixedID(prefix string, at time.Time, n int) string {
	id := engine.NewID(prefix, at)
	return id[:len(prefix)+11] + fmt.Sprintf("%016d", n)
}

// newAssembled seeds the data set; renderer replaces the real one when
// not nil.
func newAssembled(t *testing.T, renderer engine.ReportRenderer) *assembled {
	t.Helper()
	ctx := context.Background()
	if renderer == nil {
		renderer = Renderer{}
	}
	st := testserver.New(t, testserver.Options{Clock: testserver.FixedClock(goldenNow), ClockedPostgres: true,
		Renderer: renderer, ReportLease: time.Minute})
	svc, pg, ch, clock, url := st.Engine, st.PG, st.CH, st.Clock, pgtest.URL(t, st.PG)
	a := &assembled{svc: svc, reports: st.Reporting, reportRunner: st.ReportRunner, posture: st.Posture, mutes: st.Mutes, pg: pg, ch: ch, clock: clock,
		tenant: engine.Tenant{ID: fixedID(engine.PrefixTenant, goldenNow.Add(-30*24*time.Hour), 1), Slug: "acme", Name: "Acme Électronique GmbH"}}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	other := fixedID(engine.PrefixTenant, goldenNow.Add(-30*24*time.Hour), 2)
	for _, tn := range []engine.Tenant{a.tenant, {ID: other, Slug: "globex", Name: "Globex"}} {
		if _, err := conn.Exec(ctx, `INSERT INTO tenants (id, slug, name, created_at) VALUES ($1, $2, $3, $4)`,
			tn.ID, tn.Slug, tn.Name, goldenNow.Add(-30*24*time.Hour)); err != nil {
			t.Fatalf("inserting tenant %s: %v", tn.Slug, err)
		}
	}
	scopes := []engine.Scope{engine.ScopeReportsRead, engine.ScopeReportsWrite, engine.ScopeAuditsRead}
	a.writer = engine.Principal{TenantID: a.tenant.ID, Scopes: scopes}
	a.otherTenant = engine.Principal{TenantID: other, Scopes: scopes}

	res := goldenResources(a.tenant.ID)
	if _, err := ch.WriteResources(ctx, a.tenant.ID, testserver.SeqOf(res)); err != nil {
		t.Fatalf("WriteResources: %v", err)
	}
	a.prev = completedAudit(t, pg, a.tenant.ID, fixedID(engine.PrefixAudit, goldenNow.Add(-7*24*time.Hour), 1), goldenNow.Add(-7*24*time.Hour))
	a.cur = completedAudit(t, pg, a.tenant.ID, fixedID(engine.PrefixAudit, goldenNow.Add(-time.Hour), 2), goldenNow.Add(-time.Hour))
	a.otherAuditID = completedAudit(t, pg, other, fixedID(engine.PrefixAudit, goldenNow.Add(-time.Hour), 3), goldenNow.Add(-time.Hour)).ID
	for _, snap := range []struct {
		audit engine.Audit
		prev  bool
	}{{a.prev, true}, {a.cur, false}} {
		fs := goldenFindings(a.tenant.ID, snap.audit, res, snap.prev)
		if _, err := ch.WriteSnapshot(ctx, a.tenant.ID, snap.audit.ID, testserver.SeqOf(fs)); err != nil {
			t.Fatalf("WriteSnapshot: %v", err)
		}
	}
	return a
}

// goldenResources is the inventory: three accounts, four types, some of
// them tagged production.
func goldenResources(tenantID string) []engine.Resource {
	type spec struct{ typ, account, region, name, env string }
	specs := []spec{
		{inv.TypeS3Bucket, "111111111111", "eu-west-1", "invoices", "prod"},
		{inv.TypeS3Bucket, "111111111111", "eu-west-1", "exports", "prod"},
		{inv.TypeS3Bucket, "222222222222", "us-east-1", "scratch", "dev"},
		{inv.TypeSecurityGroup, "111111111111", "eu-west-1", "sg-web", "prod"},
		{inv.TypeSecurityGroup, "333333333333", "us-east-1", "sg-bastion", "staging"},
		{inv.TypeInstance, "222222222222", "us-east-1", "build-runner", "dev"},
		{inv.TypeInstance, "111111111111", "eu-west-1", "api-1", "prod"},
		{inv.TypeEBSVolume, "333333333333", "us-east-1", "vol-orphan-1", "staging"},
		{inv.TypeEBSVolume, "333333333333", "us-east-1", "vol-orphan-2", "staging"},
	}
	at := goldenNow.Add(-10 * 24 * time.Hour)
	out := make([]engine.Resource, 0, len(specs))
	for _, s := range specs {
		native := fmt.Sprintf("arn:aws:%s:%s:%s:%s", s.typ, s.region, s.account, s.name)
		out = append(out, engine.Resource{ID: engine.ResourceID(tenantID, "aws", native), TenantID: tenantID,
			Provider: "aws", Account: s.account, Region: s.region, Type: s.typ, NativeID: native, Name: s.name,
			Tags: engine.TagsFromMap(map[string]string{"env": s.env}), Attributes: json.RawMessage(`{}`), FirstSeenAt: at, LastSeenAt: at})
	}
	return out
}

// goldenFindings is a snapshot over the resources (by name). The previous
// audit lacks the bastion's open SSH and still has the api's idle instance.
func goldenFindings(tenantID string, a engine.Audit, res []engine.Resource, prev bool) []engine.Finding {
	byName := map[string]engine.Resource{}
	for _, r := range res {
		byName[r.Name] = r
	}
	cat := audit.NewCatalog()
	type spec struct {
		rule, resource, evidence string
		resolved                 bool
	}
	specs := []spec{
		{"aws-s3-001", "invoices", `{"public":true}`, false},
		{"aws-s3-001", "scratch", `{"public":true}`, false},
		{"aws-s3-004", "invoices", `{}`, false},
		{"aws-s3-004", "exports", `{}`, false},
		{"aws-s3-004", "scratch", `{}`, true},
		{"aws-ec2-004", "sg-web", `{"port":22}`, false},
		{"aws-ec2-010", "build-runner", `{"instance_type":"m4.16xlarge","estimate":"not_estimated","estimate_reason":"no price"}`, false},
		{"aws-ebs-004", "vol-orphan-1", `{"estimated_monthly_usd":10}`, false},
		{"aws-ebs-004", "vol-orphan-2", `{"estimated_monthly_usd":12.25}`, false},
	}
	if prev {
		specs = append(specs, spec{"aws-ec2-010", "api-1", `{"estimated_monthly_usd":300}`, false})
	} else {
		specs = append(specs, spec{"aws-ec2-004", "sg-bastion", `{"port":22}`, false})
	}
	out := make([]engine.Finding, 0, len(specs))
	for _, s := range specs {
		r, rule := byName[s.resource], mustRule(cat, s.rule)
		f := engine.Finding{ID: engine.FindingID(tenantID, s.rule, r.ID), TenantID: tenantID, AuditID: a.ID,
			ResourceID: r.ID, RuleID: s.rule, Dimension: rule.Dimension, Severity: rule.Severity, Status: engine.StatusOpen,
			Title: rule.Title, Description: rule.Title + ".", Remediation: rule.Remediation, Evidence: json.RawMessage(s.evidence),
			Compliance: rule.Compliance, ResourceType: r.Type, Provider: r.Provider, Account: r.Account, Region: r.Region,
			FirstSeenAt: *a.CompletedAt, LastSeenAt: *a.CompletedAt}
		if s.resolved {
			f.Status, f.Resolution, f.ResolvedAt = engine.StatusResolved, engine.ResolutionFixed, a.CompletedAt
		}
		out = append(out, f)
	}
	return out
}

func mustRule(cat *audit.Catalog, id string) engine.RuleInfo {
	r, ok := cat.Rule(id)
	if !ok {
		panic("no rule " + id + " in the catalog")
	}
	return r
}

// completedAudit stores a completed audit with a fixed id and times.
func completedAudit(t *testing.T, pg *postgres.Store, tenantID, id string, at time.Time) engine.Audit {
	t.Helper()
	// One instance's metadata options were not recorded: CIS 5.6
	// (aws-ec2-007), with no finding, has insufficient data.
	return testserver.CompleteAuditID(t, pg, tenantID, id, at, &engine.AuditSummary{ResourcesScanned: 9,
		BySeverity: map[engine.Severity]int64{}, ByDimension: map[engine.Dimension]int64{}, NotEvaluated: map[string]int64{"aws-ec2-007": 1}})
}
