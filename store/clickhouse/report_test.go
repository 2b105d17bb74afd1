package clickhouse_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// reportFixture writes two resources (one tagged production and owned by
// team-data, the other its account's) and an audit
// snapshot of five findings over two rules and two accounts.
func reportFixture(t *testing.T) (engine.ReportScope, []engine.Finding) {
	t.Helper()
	s := chtest.New(t)
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Second)
	tenant := "ten_rep"
	prod := engine.Resource{ID: engine.ResourceID(tenant, "aws", "arn:prod"), Provider: "aws", Account: "111", Region: "eu-west-1",
		Type: "aws_ebs_volume", NativeID: "arn:prod", Name: "prod-vol", Tags: engine.TagsFromMap(map[string]string{"Environment": "Production", "OWNER": "team-data"}),
		Attributes: json.RawMessage(`{}`), FirstSeenAt: now, LastSeenAt: now}
	dev := prod
	dev.ID, dev.NativeID, dev.Name, dev.Account, dev.Tags = engine.ResourceID(tenant, "aws", "arn:dev"), "arn:dev", "dev-vol", "222", engine.TagsFromMap(map[string]string{"env": "dev"})
	if _, err := s.WriteResources(ctx, tenant, func(yield func(engine.Resource, error) bool) {
		_ = yield(prod, nil) && yield(dev, nil)
	}); err != nil {
		t.Fatal(err)
	}
	auditID := engine.NewID(engine.PrefixAudit, now)
	mk := func(rule string, r engine.Resource, dim engine.Dimension, sev engine.Severity, status engine.FindingStatus, evidence string) engine.Finding {
		return engine.Finding{ID: engine.FindingID(tenant, rule, r.ID), TenantID: tenant, AuditID: auditID, ResourceID: r.ID,
			RuleID: rule, Dimension: dim, Severity: sev, Status: status, Title: "title " + rule, Remediation: "Fix it. Then check.",
			Evidence: json.RawMessage(evidence), ResourceType: r.Type, Provider: "aws", Account: r.Account, Region: r.Region,
			FirstSeenAt: now, LastSeenAt: now}
	}
	fs := []engine.Finding{
		mk("aws-ebs-001", prod, engine.DimensionCost, engine.SeverityLow, engine.StatusOpen, `{"estimated_monthly_usd":12.5}`),
		mk("aws-ebs-001", dev, engine.DimensionCost, engine.SeverityLow, engine.StatusOpen, `{"size": 3}`),
		mk("aws-sec-001", prod, engine.DimensionSecurity, engine.SeverityCritical, engine.StatusOpen, `{}`),
		mk("aws-sec-001", dev, engine.DimensionSecurity, engine.SeverityHigh, engine.StatusOpen, `{}`),
		mk("aws-old-001", dev, engine.DimensionSecurity, engine.SeverityHigh, engine.StatusResolved, `{}`),
	}
	if _, err := s.WriteSnapshot(ctx, tenant, auditID, func(yield func(engine.Finding, error) bool) {
		for _, f := range fs {
			if !yield(f, nil) {
				return
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	reportStore = s
	return engine.ReportScope{TenantID: tenant, AuditID: auditID}, fs
}

var reportStore *clickhouse.Store

func TestReportAnalytics(t *testing.T) {
	scope, fs := reportFixture(t)
	s := reportStore
	ctx := context.Background()
	prodID, devID := fs[0].ResourceID, fs[1].ResourceID

	t.Run("open counts", func(t *testing.T) {
		got, err := s.OpenCounts(ctx, scope)
		if err != nil {
			t.Fatal(err)
		}
		want := []engine.ReportCount{
			{Severity: engine.SeverityCritical, Dimension: engine.DimensionSecurity, Account: "111", RuleID: "aws-sec-001", Count: 1},
			{Severity: engine.SeverityHigh, Dimension: engine.DimensionSecurity, Account: "222", RuleID: "aws-sec-001", Count: 1},
			{Severity: engine.SeverityLow, Dimension: engine.DimensionCost, Account: "111", RuleID: "aws-ebs-001", Count: 1},
			{Severity: engine.SeverityLow, Dimension: engine.DimensionCost, Account: "222", RuleID: "aws-ebs-001", Count: 1},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
		f := scope
		f.Filters = engine.ReportFilters{Accounts: []string{"222"}, Severities: []engine.Severity{engine.SeverityHigh}}
		got, err = s.OpenCounts(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want[1:2], got); diff != "" {
			t.Errorf("filtered (-want +got):\n%s", diff)
		}
	})
	t.Run("top resources", func(t *testing.T) {
		got, err := s.TopResources(ctx, scope, 10)
		if err != nil {
			t.Fatal(err)
		}
		want := []engine.ResourceRank{
			{ResourceID: prodID, NativeID: "arn:prod", Name: "prod-vol", Type: "aws_ebs_volume", Account: "111", Region: "eu-west-1", Open: 2, Weighted: 11, WorstSeverity: engine.SeverityCritical},
			{ResourceID: devID, NativeID: "arn:dev", Name: "dev-vol", Type: "aws_ebs_volume", Account: "222", Region: "eu-west-1", Open: 2, Weighted: 6, WorstSeverity: engine.SeverityHigh},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("cost by rule", func(t *testing.T) {
		got, err := s.CostByRule(ctx, scope)
		if err != nil {
			t.Fatal(err)
		}
		want := []engine.RuleCost{{RuleID: "aws-ebs-001", Title: "title aws-ebs-001", Findings: 2, Priced: 1, PricedUSD: 12.5}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("severe resources, decisions applied", func(t *testing.T) {
		got, err := s.SevereResources(ctx, scope)
		if err != nil || got != 2 { // prod (critical) and dev (high)
			t.Errorf("SevereResources = %d, %v; want 2", got, err)
		}
		sc := scope
		sc.ForceResolved = []string{fs[3].ID} // dev's high finding accepted as a risk
		if got, err = s.SevereResources(ctx, sc); err != nil || got != 1 {
			t.Errorf("with dev's high finding resolved: %d, %v; want 1", got, err)
		}
		sc.ForceOpen = []string{fs[4].ID} // dev's resolved high finding reopened
		if got, err = s.SevereResources(ctx, sc); err != nil || got != 2 {
			t.Errorf("with dev's old high finding reopened: %d, %v; want 2", got, err)
		}
	})
	t.Run("rule totals, decisions applied", func(t *testing.T) {
		sc := scope
		sc.ForceResolved = []string{fs[3].ID} // the high security finding accepted as a risk
		sc.ForceOpen = []string{fs[4].ID}     // the resolved one reopened
		got, err := s.RuleTotals(ctx, sc)
		if err != nil {
			t.Fatal(err)
		}
		want := []engine.RuleTotals{
			{RuleID: "aws-sec-001", Title: "title aws-sec-001", Remediation: "Fix it. Then check.", Severity: engine.SeverityCritical, Dimension: engine.DimensionSecurity, Findings: 1, Resources: 1, Prod: 1},
			{RuleID: "aws-old-001", Title: "title aws-old-001", Remediation: "Fix it. Then check.", Severity: engine.SeverityHigh, Dimension: engine.DimensionSecurity, Findings: 1, Resources: 1, Prod: 0},
			{RuleID: "aws-ebs-001", Title: "title aws-ebs-001", Remediation: "Fix it. Then check.", Severity: engine.SeverityLow, Dimension: engine.DimensionCost, Findings: 2, Resources: 2, Prod: 1},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("affected resources", func(t *testing.T) {
		got, err := s.AffectedResources(ctx, scope, []string{"aws-sec-001", "aws-ebs-001", "nope"}, 1)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string][]engine.AffectedResource{
			"aws-sec-001": {{ResourceID: prodID, FindingID: fs[2].ID, NativeID: "arn:prod", Name: "prod-vol", Type: "aws_ebs_volume", Account: "111",
				Region: "eu-west-1", Severity: engine.SeverityCritical, Prod: true, Environment: "Production"}},
			"aws-ebs-001": {{ResourceID: min(prodID, devID), FindingID: map[bool]string{true: fs[0].ID, false: fs[1].ID}[prodID < devID],
				NativeID: map[bool]string{true: "arn:prod", false: "arn:dev"}[prodID < devID],
				Name:     map[bool]string{true: "prod-vol", false: "dev-vol"}[prodID < devID], Type: "aws_ebs_volume",
				Account: map[bool]string{true: "111", false: "222"}[prodID < devID], Region: "eu-west-1", Severity: engine.SeverityLow, Prod: prodID < devID,
				Environment: map[bool]string{true: "Production", false: "dev"}[prodID < devID]}},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
		if _, err := s.AffectedResources(ctx, scope, make([]string, engine.MaxAffectedRules+1), 1); engine.ErrorCode(err) != engine.CodeValidationFailed {
			t.Errorf("too many rules: got %v, want validation_failed", err)
		}
	})
	t.Run("owner rule totals, decisions applied", func(t *testing.T) {
		sc := scope
		sc.ForceResolved = []string{fs[3].ID} // dev's high security finding accepted as a risk
		got, err := s.OwnerRuleTotals(ctx, sc)
		if err != nil {
			t.Fatal(err)
		}
		rt := func(rule string, sev engine.Severity, dim engine.Dimension, prod int64) engine.RuleTotals {
			return engine.RuleTotals{RuleID: rule, Title: "title " + rule, Remediation: "Fix it. Then check.", Severity: sev, Dimension: dim,
				Findings: 1, Resources: 1, Prod: prod}
		}
		// By owner (the account 222 for dev, which has no owner tag; the
		// OWNER tag's value for prod), then in rule priority order.
		want := []engine.OwnerRuleTotals{
			{Owner: "222", RuleTotals: rt("aws-ebs-001", engine.SeverityLow, engine.DimensionCost, 0)},
			{Owner: "team-data", ByTag: true, RuleTotals: rt("aws-sec-001", engine.SeverityCritical, engine.DimensionSecurity, 1)},
			{Owner: "team-data", ByTag: true, RuleTotals: rt("aws-ebs-001", engine.SeverityLow, engine.DimensionCost, 1)},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("owner affected resources", func(t *testing.T) {
		// team-data × aws-ebs-001 is not asked for: the answer holds only
		// the pairs asked for, although owners × rules covers it.
		pairs := []engine.OwnerRule{{Owner: "team-data", RuleID: "aws-sec-001"}, {Owner: "222", RuleID: "aws-ebs-001"}, {Owner: "nobody", RuleID: "aws-sec-001"}}
		got, err := s.OwnerAffectedResources(ctx, scope, pairs, 5)
		if err != nil {
			t.Fatal(err)
		}
		want := map[engine.OwnerRule][]engine.AffectedResource{
			pairs[0]: {{ResourceID: prodID, FindingID: fs[2].ID, NativeID: "arn:prod", Name: "prod-vol", Type: "aws_ebs_volume", Account: "111",
				Region: "eu-west-1", Severity: engine.SeverityCritical, Prod: true, Environment: "Production"}},
			pairs[1]: {{ResourceID: devID, FindingID: fs[1].ID, NativeID: "arn:dev", Name: "dev-vol", Type: "aws_ebs_volume", Account: "222",
				Region: "eu-west-1", Severity: engine.SeverityLow, Environment: "dev"}},
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
		if _, err := s.OwnerAffectedResources(ctx, scope, make([]engine.OwnerRule, engine.MaxAffectedRules+1), 1); engine.ErrorCode(err) != engine.CodeValidationFailed {
			t.Errorf("too many groups: got %v, want validation_failed", err)
		}
		if _, err := s.OwnerAffectedResources(ctx, scope, pairs, 0); engine.ErrorCode(err) != engine.CodeInvalidLimit {
			t.Errorf("per_group 0: got %v, want invalid_limit", err)
		}
	})
	t.Run("resource counts by type", func(t *testing.T) {
		got, err := s.ResourceCountsByType(ctx, scope.TenantID)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(map[string]int64{"aws_ebs_volume": 2}, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
}

// TestTopResourcesGoneFromInventory: the ranked resources' type, account
// and region come from the inventory; a resource the inventory no longer
// holds still shows where its findings say it was (and no name).
func TestTopResourcesGoneFromInventory(t *testing.T) {
	s := chtest.New(t)
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Second)
	tenant := "ten_gone"
	kept := engine.Resource{ID: engine.ResourceID(tenant, "aws", "arn:kept"), Provider: "aws", Account: "111", Region: "eu-west-1",
		Type: "aws_s3_bucket", NativeID: "arn:kept", Name: "kept-bucket", Attributes: json.RawMessage(`{}`), FirstSeenAt: now, LastSeenAt: now}
	if _, err := s.WriteResources(ctx, tenant, func(yield func(engine.Resource, error) bool) { yield(kept, nil) }); err != nil {
		t.Fatal(err)
	}
	goneID := engine.ResourceID(tenant, "aws", "arn:gone")
	auditID := engine.NewID(engine.PrefixAudit, now)
	fs := []engine.Finding{
		{ID: engine.FindingID(tenant, "aws-s3-001", kept.ID), ResourceID: kept.ID, ResourceType: kept.Type, Account: "111", Region: "eu-west-1",
			Severity: engine.SeverityHigh},
		{ID: engine.FindingID(tenant, "aws-s3-001", goneID), ResourceID: goneID, ResourceType: "aws_instance", Account: "333", Region: "us-east-2",
			Severity: engine.SeverityCritical},
	}
	for i := range fs {
		fs[i].TenantID, fs[i].AuditID, fs[i].RuleID, fs[i].Dimension, fs[i].Status = tenant, auditID, "aws-s3-001", engine.DimensionSecurity, engine.StatusOpen
		fs[i].Title, fs[i].Provider, fs[i].Evidence, fs[i].FirstSeenAt, fs[i].LastSeenAt = "t", "aws", json.RawMessage(`{}`), now, now
	}
	if _, err := s.WriteSnapshot(ctx, tenant, auditID, func(yield func(engine.Finding, error) bool) {
		_ = yield(fs[0], nil) && yield(fs[1], nil)
	}); err != nil {
		t.Fatal(err)
	}
	got, err := s.TopResources(ctx, engine.ReportScope{TenantID: tenant, AuditID: auditID}, 10)
	if err != nil {
		t.Fatal(err)
	}
	want := []engine.ResourceRank{
		{ResourceID: goneID, Type: "aws_instance", Account: "333", Region: "us-east-2", Open: 1, Weighted: 10, WorstSeverity: engine.SeverityCritical},
		{ResourceID: kept.ID, NativeID: "arn:kept", Name: "kept-bucket", Type: "aws_s3_bucket", Account: "111", Region: "eu-west-1", Open: 1, Weighted: 5, WorstSeverity: engine.SeverityHigh},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
