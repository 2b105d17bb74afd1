package reports

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// The fixture data set: one tenant, three accounts, resource names in
// several scripts.
var (
	fxCompleted = time.Date(2026, 11, 3, 14, 30, 0, 0, time.UTC)
	fxGenerated = time.Date(2026, 11, 3, 15, 0, 0, 0, time.UTC)
	fxAccounts  = []string{"111111111111", "222222222222", "333333333333"}
	fxResources = []engine.AffectedResource{
		{ResourceID: "res_01zurich", NativeID: "arn:aws:s3:::zurich-backup", Name: "Zürich-backup", Type: "aws_s3_bucket", Account: fxAccounts[0], Region: "eu-central-2", Severity: engine.SeverityHigh, Prod: true, Environment: "production"},
		{ResourceID: "res_02donnees", NativeID: "arn:aws:s3:::donnees-clients", Name: "données-clients", Type: "aws_s3_bucket", Account: fxAccounts[1], Region: "eu-west-3", Severity: engine.SeverityCritical, Prod: true, Environment: "prod"},
		{ResourceID: "res_03tokyo", NativeID: "arn:aws:logs:ap-northeast-1:333333333333:log-group:tokyo-logs", Name: "東京-logs", Type: "aws_cloudwatch_log_group", Account: fxAccounts[2], Region: "ap-northeast-1", Severity: engine.SeverityMedium},
		{ResourceID: "res_04long", NativeID: "i-0123456789abcdef0", Name: "a-very-long-resource-name-that-keeps-going-and-going-for-the-table-to-wrap-it", Type: "aws_instance", Account: fxAccounts[0], Region: "us-east-1", Severity: engine.SeverityLow, Environment: "staging"},
	}
)

func fxHeader(kind engine.ReportKind, id string) engine.ReportHeader {
	return engine.ReportHeader{
		ReportID: id, Kind: kind, TenantID: "ten_01acme", TenantName: "Acme Électronique GmbH",
		AuditID: "aud_01JC9Y3K8ZQ4", AuditCompletedAt: fxCompleted, PreviousAuditID: "aud_01JB7W2H5XN1",
		GeneratedAt: fxGenerated,
		Filters:     engine.ReportFilters{Dimensions: []engine.Dimension{}, Severities: []engine.Severity{}, Accounts: []string{}, Frameworks: []string{}},
	}
}

func fxExecutive() engine.ReportDocument {
	// The posture follows engine's formula from the matrix below (W = 771
	// over 552 resources), so the cover, the formula paragraph and the
	// table agree.
	score, weighted := engine.ComputePostureScore(map[engine.Severity]int64{
		engine.SeverityCritical: 12, engine.SeverityHigh: 51, engine.SeverityMedium: 128, engine.SeverityLow: 140, engine.SeverityInfo: 52}, 552)
	prev := 38.2
	delta := math.Round((score-prev)*10) / 10
	return engine.ReportDocument{
		SchemaVersion: engine.ReportSchemaVersion,
		Header:        fxHeader(engine.ReportExecutiveSummary, "rpt_01exec"),
		ExecutiveSummary: &engine.ExecutiveSummaryReport{
			Posture:      engine.PostureScore{Score: score, PreviousScore: &prev, Delta: &delta, WeightedOpen: weighted, ResourcesScanned: 552},
			OpenFindings: 383,
			Matrix: []engine.SeverityRow{
				{Severity: engine.SeverityCritical, Security: 9, Compliance: 3, Total: 12},
				{Severity: engine.SeverityHigh, Security: 31, Cost: 0, Architecture: 8, Compliance: 12, Total: 51},
				{Severity: engine.SeverityMedium, Security: 57, Cost: 22, Architecture: 31, Compliance: 18, Total: 128},
				{Severity: engine.SeverityLow, Security: 40, Cost: 61, Architecture: 25, Compliance: 14, Total: 140},
				{Severity: engine.SeverityInfo, Security: 10, Cost: 30, Architecture: 7, Compliance: 5, Total: 52},
			},
			Trend: []engine.ReportTrendPoint{
				{AuditID: "aud_01JA", CompletedAt: fxCompleted.AddDate(0, 0, -21), OpenFindings: 455, Critical: 20, High: 66, Score: 33.1},
				{AuditID: "aud_01m8dsr0srn75mpgzg1zn27gpk", CompletedAt: fxCompleted.AddDate(0, 0, -14), OpenFindings: 430, Critical: 17, High: 61, Score: 35.0},
				{AuditID: "aud_01JB7W2H5XN1", CompletedAt: fxCompleted.AddDate(0, 0, -7), OpenFindings: 401, Critical: 14, High: 57, Score: 38.2},
				{AuditID: "aud_01JC9Y3K8ZQ4", CompletedAt: fxCompleted, OpenFindings: 383, Critical: 12, High: 51, Score: score},
			},
			TopAccounts: []engine.AccountRank{
				{Account: fxAccounts[0], Open: 170, Critical: 6, High: 25},
				{Account: fxAccounts[1], Open: 131, Critical: 5, High: 18},
				{Account: fxAccounts[2], Open: 82, Critical: 1, High: 8},
			},
			TopResources: []engine.ResourceRank{
				{ResourceID: "res_02donnees", Name: "données-clients", Type: "aws_s3_bucket", Account: fxAccounts[1], Region: "eu-west-3", Open: 6, Weighted: 32, WorstSeverity: engine.SeverityCritical},
				{ResourceID: "res_01zurich", Name: "Zürich-backup", Type: "aws_s3_bucket", Account: fxAccounts[0], Region: "eu-central-2", Open: 5, Weighted: 19, WorstSeverity: engine.SeverityHigh},
				{ResourceID: "res_03tokyo", Name: "東京-logs", Type: "aws_cloudwatch_log_group", Account: fxAccounts[2], Region: "ap-northeast-1", Open: 3, Weighted: 5, WorstSeverity: engine.SeverityMedium},
			},
			TopRules: []engine.RuleRank{
				{RuleID: "aws-s3-001", Title: "S3 bucket allows public access", Severity: engine.SeverityCritical, Dimension: engine.DimensionSecurity, Open: 9},
				{RuleID: "aws-ebs-004", Title: "Unattached EBS volume", Severity: engine.SeverityMedium, Dimension: engine.DimensionCost, Open: 22},
				{RuleID: "aws-logs-001", Title: "Log group keeps logs forever", Severity: engine.SeverityLow, Dimension: engine.DimensionCost, Open: 40},
				// The longest rule id of the pack: it must not break.
				{RuleID: "aws-networkfirewall-003", Title: "Network Firewall has no logging", Severity: engine.SeverityLow, Dimension: engine.DimensionSecurity, Open: 3},
			},
			CostWaste: engine.CostWaste{MonthlyUSD: 1334.4, Estimated: 22, NotEstimated: 40, ByRule: []engine.CostWasteRule{
				{RuleID: "aws-ebs-004", Title: "Unattached EBS volume", Findings: 22, MonthlyUSD: 1334.4, Basis: "evidence", Estimated: 22},
				{RuleID: "aws-logs-001", Title: "Log group keeps logs forever", Findings: 40, MonthlyUSD: 0, Basis: "not_estimated"},
				{RuleID: "aws-secretsmanager-003", Title: "Secret not accessed for 90 days", Findings: 2, MonthlyUSD: 0, Basis: "not_estimated"},
			}},
			KeyMessages: []engine.KeyMessage{
				{Kind: "biggest_risk", Text: `The biggest risk is "S3 bucket allows public access" (aws-s3-001): 9 open critical findings, 31% of the weighted risk.`},
				{Kind: "biggest_change", Text: "Since the previous audit, 14 findings are new and 32 resolved; the posture score moved from 38.2 to 41.0."},
				{Kind: "biggest_saving", Text: `The biggest saving is "Unattached EBS volume" (aws-ebs-004): about $1334.40 a month at list prices over 22 findings.`},
			},
			TopActions: []engine.TopAction{
				{RuleID: "aws-s3-001", Title: "S3 bucket allows public access", Severity: engine.SeverityCritical, Dimension: engine.DimensionSecurity,
					Open: 9, RiskRemoved: 90, EffortHours: 10, RiskPerHour: 9},
				{RuleID: "aws-ebs-004", Title: "Unattached EBS volume", Severity: engine.SeverityMedium, Dimension: engine.DimensionCost,
					Open: 22, RiskRemoved: 44, EffortHours: 12, RiskPerHour: 3.7},
				{RuleID: "aws-networkfirewall-003", Title: "Network Firewall has no logging", Severity: engine.SeverityLow, Dimension: engine.DimensionSecurity,
					Open: 3, RiskRemoved: 3, EffortHours: 1.8, RiskPerHour: 1.7},
			},
			Exposure: engine.ResourceExposure{ResourcesScanned: 552, WithCriticalOrHigh: 41, ClearPercent: 92.6},
			Compliance: []engine.FrameworkPosture{
				{Framework: "CIS-AWS-3.0", Title: "CIS AWS Foundations Benchmark 3.0", Controls: 62, Checked: 32, Failing: 7, PassingPercent: 78.1},
				{Framework: "NIST-800-53", Title: "NIST SP 800-53 Rev. 5", Controls: 4, Checked: 0},
			},
			Changes: engine.AuditChanges{New: 14, Resolved: 32, SeverityChanged: 2, Examples: []engine.ChangeExample{
				{Change: "new", FindingID: "fnd_01a", RuleID: "aws-s3-001", Title: "S3 bucket allows public access", ResourceID: "res_02donnees", Severity: engine.SeverityCritical},
				{Change: "severity_changed", FindingID: "fnd_01b", RuleID: "aws-s3-002", Title: "S3 bucket is not encrypted", ResourceID: "res_01zurich", Severity: engine.SeverityHigh, PreviousSeverity: engine.SeverityMedium},
				{Change: "resolved", FindingID: "fnd_01c", RuleID: "aws-logs-002", Title: "Log group is not encrypted", ResourceID: "res_03tokyo", Severity: engine.SeverityLow},
			}},
		},
	}
}

// fxGroup builds the remediation group of priority i, owned by owner, with
// n resources.
func fxGroup(i int, owner string, sev engine.Severity, n int) engine.RemediationGroup {
	g := engine.RemediationGroup{
		Priority: i, Owner: owner, RuleID: fmt.Sprintf("aws-s3-%03d", i), Title: fmt.Sprintf("S3 bucket check %d fails", i),
		Severity: sev, Dimension: engine.DimensionSecurity,
		ResourcesTotal: int64(n), EffortHours: engine.RemediationEffortHours(sev, int64(n)),
		Resources: []engine.AffectedResource{}, ResourcesQuery: fmt.Sprintf("/v1/findings?audit_id=aud_01JC9Y3K8ZQ4&rule_id=aws-s3-%03d&status=open", i),
	}
	for j := 0; j < n && j < engine.RemediationResourcesPerGroup; j++ {
		r := fxResources[j%len(fxResources)]
		r.FindingID = fmt.Sprintf("fnd_%03d_%03d", i, j)
		if j >= len(fxResources) {
			r.ResourceID, r.Name, r.NativeID = fmt.Sprintf("%s_%d", r.ResourceID, j), fmt.Sprintf("%s-%d", r.Name, j), fmt.Sprintf("%s-%d", r.NativeID, j)
		}
		if r.Prod {
			g.ProdResources++
		}
		g.Resources = append(g.Resources, r)
	}
	g.ResourcesOmitted = int64(n - len(g.Resources))
	return g
}

func fxRemediation() engine.ReportDocument {
	return fxPlan([]engine.RemediationGroup{fxGroup(1, "team-data", engine.SeverityCritical, 3), fxGroup(2, "team-data", engine.SeverityHigh, 70),
		fxGroup(3, fxAccounts[2], engine.SeverityLow, 1)})
}

// fxPlan builds a remediation plan of groups: its summary, owners and
// playbooks.
func fxPlan(groups []engine.RemediationGroup) engine.ReportDocument {
	sum := engine.RemediationSummary{Groups: int64(len(groups)), BySeverity: []engine.SeverityRow{
		{Severity: engine.SeverityCritical, Security: 3, Total: 3}, {Severity: engine.SeverityHigh, Security: 70, Total: 70},
		{Severity: engine.SeverityMedium}, {Severity: engine.SeverityLow, Security: 1, Total: 1}, {Severity: engine.SeverityInfo},
	}, Checklist: []string{"Confirm who acts for the group's owner", "Apply the rule's playbook steps to every resource of the group"}}
	var playbooks []engine.RemediationPlaybook
	for _, g := range groups {
		sum.Findings += g.ResourcesTotal
		sum.EffortHours += g.EffortHours
		if n := len(sum.Owners); n == 0 || sum.Owners[n-1].Owner != g.Owner {
			src := "tag"
			if g.Owner == fxAccounts[2] {
				src = "account"
			}
			sum.Owners = append(sum.Owners, engine.OwnerWork{Owner: g.Owner, OwnerSource: src})
		}
		o := &sum.Owners[len(sum.Owners)-1]
		o.Groups++
		o.Findings += g.ResourcesTotal
		o.Resources += g.ResourcesTotal
		o.ProdResources += g.ProdResources
		o.EffortHours += g.EffortHours
		playbooks = append(playbooks, engine.RemediationPlaybook{RuleID: g.RuleID, Title: g.Title, Severity: g.Severity, Dimension: g.Dimension,
			Steps:    []string{"Turn on S3 Block Public Access for the bucket.", "Remove bucket policy statements that grant access to \"*\"."},
			Findings: g.ResourcesTotal, Resources: g.ResourcesTotal, Owners: 1})
	}
	return engine.ReportDocument{SchemaVersion: engine.ReportSchemaVersion, Header: fxHeader(engine.ReportRemediationPlan, "rpt_01plan"),
		RemediationPlan: &engine.RemediationPlanReport{Summary: sum, Playbooks: playbooks, Groups: groups}}
}

func ptrFloat(f float64) *float64 { return &f }

func fxCompliance() engine.ReportDocument {
	failing := []engine.AffectedResource{fxResources[0], fxResources[1]}
	ctl := func(id, title string, status engine.ControlStatus, rules []string, checked, failingN int64, rs []engine.AffectedResource) engine.ComplianceControl {
		if rs == nil {
			rs = []engine.AffectedResource{}
		}
		c := engine.ComplianceControl{ID: id, Title: title, Status: status, Rules: rules, ResourcesChecked: checked,
			ResourcesFailing: failingN, FailingResources: rs, PassingResources: []engine.PassingResource{},
			AuditID: "aud_01JC9Y3K8ZQ4", EvaluatedAt: fxCompleted}
		if status == engine.ControlPass || status == engine.ControlFail {
			c.ResourcesPassing = checked - failingN
			c.PassingResources = []engine.PassingResource{{RuleID: rules[0], ResourceID: "res_01pass", Name: "audit-logs",
				NativeID: "arn:aws:s3:::audit-logs", Type: "aws_s3_bucket", Account: fxAccounts[0], Region: "eu-central-1",
				Evidence: json.RawMessage(`{"observed":true}`), EvaluatedAt: fxCompleted}}
			c.PassingOmitted = c.ResourcesPassing - 1
		}
		return c
	}
	return engine.ReportDocument{SchemaVersion: engine.ReportSchemaVersion, Header: fxHeader(engine.ReportComplianceEvidence, "rpt_01cis"),
		ComplianceEvidence: &engine.ComplianceEvidenceReport{Frameworks: []engine.ComplianceFramework{{
			ID: "CIS-AWS-4.0.1", Title: "CIS Amazon Web Services Foundations Benchmark v4.0.1", Passed: 2, Failed: 1, NotApplicable: 1,
			Manual: 1, NotAssessed: 1, ScorePercent: ptrFloat(66.7),
			Controls: []engine.ComplianceControl{
				ctl("1.8", "IAM password policy requires a minimum length of 14", engine.ControlPass, []string{"aws-iam-008"}, 3, 0, nil),
				ctl("2.1.2", "S3 bucket enforces MFA delete", engine.ControlFail, []string{"aws-s3-010"}, 42, 2, failing),
				ctl("2.3.2", "RDS instances have auto minor version upgrade", engine.ControlNotApplicable, []string{"aws-rds-007"}, 0, 0, nil),
				ctl("3.1", "CloudTrail is enabled in all regions", engine.ControlPass, []string{"aws-cloudtrail-001"}, 3, 0, nil),
				ctl("4.2", "Ensure management console sign-in without MFA is monitored", engine.ControlManual, []string{}, 0, 0, nil),
				ctl("4.16", "Ensure AWS Security Hub is enabled", engine.ControlNotAssessed, []string{}, 0, 0, nil),
			},
		}}, Checks: []engine.ComplianceCheck{{RuleID: "aws-s3-010", Title: "S3 bucket versioning has no MFA delete",
			Severity: engine.SeverityCritical, Dimension: engine.DimensionCompliance, Findings: 2, Resources: 2,
			Controls:         []engine.ControlRef{{Framework: "CIS-AWS-4.0.1", Control: "2.1.2"}},
			FailingResources: evidenced(failing), ResourcesQuery: "/v1/findings?audit_id=aud_01JC9Y3K8ZQ4&rule_id=aws-s3-010&status=open"}}},
	}
}

// evidenced gives each resource the evidence a check read and the time it
// was imported.
func evidenced(rs []engine.AffectedResource) []engine.AffectedResource {
	out := make([]engine.AffectedResource, len(rs))
	at := fxCompleted.Add(-2 * time.Hour)
	for i, r := range rs {
		r.Evidence = json.RawMessage(`{"bucket":"` + strings.TrimPrefix(r.NativeID, "arn:aws:s3:::") + `","mfa_delete":"Disabled","versioning":"Enabled"}`)
		r.ObservedAt = &at
		out[i] = r
	}
	return out
}
