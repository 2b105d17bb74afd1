package testserver

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/postgres"
)

// TenantSeed is what SeedTenant wrote for one tenant.
type TenantSeed struct {
	ID        string
	Audit     engine.Audit
	Findings  []engine.Finding
	Resources []engine.Resource
	Policies  []engine.Policy
	Reports   []engine.Report
}

// SeedTypes and SeedRegions are the resource types and regions seeded
// resources take in turn.
var (
	SeedTypes   = []string{"aws_s3_bucket", "aws_instance", "aws_iam_role", "gcp_bucket"}
	SeedRegions = []string{"us-east-1", "eu-west-1", "eu-central-1"}
)

// SeedTenant writes n/4+3 resources (tagged env=prod, team=core) and a
// completed audit with a snapshot of n findings over them (MakeFindings)
// for a tenant. salt varies the data between tenants.
func SeedTenant(t testing.TB, ch *clickhouse.Store, pg *postgres.Store, tenantID string, n, salt int) TenantSeed {
	t.Helper()
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Second)
	s := TenantSeed{ID: tenantID}
	for i := range n/4 + 3 {
		typ := SeedTypes[(i+salt)%len(SeedTypes)]
		provider := "aws"
		if typ == "gcp_bucket" {
			provider = "gcp"
		}
		native := fmt.Sprintf("arn:%s:%d:%d", typ, salt, i)
		s.Resources = append(s.Resources, engine.Resource{
			ID: engine.ResourceID(tenantID, provider, native), TenantID: tenantID, Provider: provider,
			Account: fmt.Sprintf("acct-%d", i%3), Region: SeedRegions[i%len(SeedRegions)], Type: typ, NativeID: native,
			Name: fmt.Sprintf("resource %d", i), Tags: engine.TagsFromMap(map[string]string{"env": "prod", "team": "core"}),
			Attributes: json.RawMessage(`{"public":true}`), FirstSeenAt: now, LastSeenAt: now,
		})
	}
	if _, err := ch.WriteResources(ctx, tenantID, SeqOf(s.Resources)); err != nil {
		t.Fatalf("WriteResources: %v", err)
	}
	s.Audit = CompleteAudit(t, pg, tenantID, now.Add(-time.Hour))
	s.Findings = MakeFindings(tenantID, s.Audit.ID, s.Resources, n, salt, now)
	if _, err := ch.WriteSnapshot(ctx, tenantID, s.Audit.ID, SeqOf(s.Findings)); err != nil {
		t.Fatalf("WriteSnapshot: %v", err)
	}
	return s
}

// SeedPoliciesAndReports adds three policies and three pending reports
// (one of each kind, on the seed's audit) to a seeded tenant.
func SeedPoliciesAndReports(t testing.TB, pg *postgres.Store, s *TenantSeed) {
	t.Helper()
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Second)
	tenantID := s.ID
	for i := range 3 {
		p := engine.Policy{ID: engine.NewID(engine.PrefixPolicy, now.Add(time.Duration(i)*time.Second)), TenantID: tenantID,
			Name: fmt.Sprintf("policy %d", i), Expression: "resource.attributes.public == true", Effect: engine.PolicyRaise,
			Dimension: engine.DimensionSecurity, Severity: engine.SeverityHigh, ResourceTypes: []string{"aws_s3_bucket"},
			Title: "Public bucket", Remediation: "Make it private.", Enabled: true, Version: 1, CreatedAt: now, UpdatedAt: now}
		if err := pg.CreatePolicy(ctx, p); err != nil {
			t.Fatalf("CreatePolicy: %v", err)
		}
		s.Policies = append(s.Policies, p)
		r := engine.Report{ID: engine.NewID(engine.PrefixReport, now.Add(time.Duration(i)*time.Second)), TenantID: tenantID,
			Kind: engine.ReportKinds[i], Status: engine.ReportPending, AuditID: s.Audit.ID,
			Filters: json.RawMessage(`{"severity":"high"}`), CreatedAt: now}
		if err := pg.CreateReport(ctx, r); err != nil {
			t.Fatalf("CreateReport: %v", err)
		}
		s.Reports = append(s.Reports, r)
	}
}

// CompleteAudit creates an audit at the time and takes it through running
// to completed, with a summary of two high findings.
func CompleteAudit(t testing.TB, pg *postgres.Store, tenantID string, at time.Time) engine.Audit {
	t.Helper()
	return CompleteAuditID(t, pg, tenantID, engine.NewID(engine.PrefixAudit, at), at,
		&engine.AuditSummary{BySeverity: map[engine.Severity]int64{engine.SeverityHigh: 2}, ByDimension: map[engine.Dimension]int64{}})
}

// CompleteAuditID creates the audit id requested at the time, started a
// second and completed a minute later with the summary.
func CompleteAuditID(t testing.TB, pg *postgres.Store, tenantID, id string, at time.Time, sum *engine.AuditSummary) engine.Audit {
	t.Helper()
	ctx := context.Background()
	a := engine.Audit{ID: id, TenantID: tenantID, Status: engine.AuditQueued, RequestedBy: "system", CreatedAt: at}
	if err := pg.CreateAudit(ctx, a); err != nil {
		t.Fatalf("CreateAudit: %v", err)
	}
	started, done := at.Add(time.Second), at.Add(time.Minute)
	a.Status, a.StartedAt, a.CompletedAt, a.Summary = engine.AuditCompleted, &started, &done, sum
	if err := pg.UpdateAudit(ctx, a); err != nil {
		t.Fatalf("UpdateAudit: %v", err)
	}
	got, err := pg.GetAudit(ctx, tenantID, id)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// MakeFindings returns n findings over the resources, with every severity,
// dimension and status represented.
func MakeFindings(tenantID, auditID string, res []engine.Resource, n, salt int, now time.Time) []engine.Finding {
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

// SeqOf yields xs without errors (the stores' write input).
func SeqOf[T any](xs []T) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		for _, x := range xs {
			if !yield(x, nil) {
				return
			}
		}
	}
}
