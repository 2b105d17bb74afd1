package reports

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/testserver"
)

// TestReportsLeaveMutedFindingsOut: once a mute rule silences the two
// open aws-s3-004 findings of the current audit, no report counts them as
// open (counts, posture, actions, plan, compliance evidence, the trend's
// last point) and each says how many it left out; before the rule (the
// clean twin: the same data, nothing muted) every report counts them and
// says nothing is muted. The reports counted muted findings as open
// before.
func TestReportsLeaveMutedFindingsOut(t *testing.T) {
	a := newAssembled(t, nil)
	ctx := context.Background()
	docs := func() map[engine.ReportKind]engine.ReportDocument {
		out := map[engine.ReportKind]engine.ReportDocument{}
		for _, kind := range engine.ReportKinds {
			var d engine.ReportDocument
			if err := json.Unmarshal(a.download(t, a.generate(t, kind).ID, "json"), &d); err != nil {
				t.Fatal(err)
			}
			out[kind] = d
		}
		return out
	}
	const muted = "aws-s3-004"
	before := docs()
	for kind, d := range before {
		if d.Header.MutedFindings != 0 {
			t.Errorf("%s before any mute rule: muted_findings %d, want 0", kind, d.Header.MutedFindings)
		}
	}
	if !slices.ContainsFunc(before[engine.ReportRemediationPlan].RemediationPlan.Groups,
		func(g engine.RemediationGroup) bool { return g.RuleID == muted }) {
		t.Fatalf("the plan has no %s group before the mute rule: the data set changed", muted)
	}

	u, err := a.pg.EnsureUser(ctx, a.tenant.ID, "secops@acme.test", engine.RoleAdmin)
	if err != nil {
		t.Fatal(err)
	}
	p := engine.Principal{TenantID: a.tenant.ID, UserID: u.ID, Scopes: engine.AllScopes}
	expr, reason, expires := `finding.rule_id == "`+muted+`"`, "versioning is handled by the backup vault", a.clock.Now().Add(30*24*time.Hour)
	rule, err := a.mutes.CreateMuteRule(ctx, p, engine.MuteRuleInput{Expression: &expr, Reason: &reason, ExpiresAt: &expires})
	if err != nil {
		t.Fatal(err)
	}
	if rule.Applied == nil || rule.Applied.AuditID != a.cur.ID || rule.Applied.Matched != 2 {
		t.Fatalf("rule applied %+v; want 2 matches in audit %s", rule.Applied, a.cur.ID)
	}
	after := docs()
	for kind, d := range after {
		if d.Header.MutedFindings != 2 {
			t.Errorf("%s: muted_findings %d, want 2", kind, d.Header.MutedFindings)
		}
	}

	exB, exA := before[engine.ReportExecutiveSummary].ExecutiveSummary, after[engine.ReportExecutiveSummary].ExecutiveSummary
	if exA.OpenFindings != exB.OpenFindings-2 {
		t.Errorf("executive open findings %d, want %d - 2", exA.OpenFindings, exB.OpenFindings)
	}
	var matrix int64
	for _, r := range exA.Matrix {
		matrix += r.Total
	}
	if matrix != exA.OpenFindings || exA.Trend[len(exA.Trend)-1].OpenFindings != exA.OpenFindings {
		t.Errorf("matrix total %d, trend's last point %d; want the open findings %d", matrix, exA.Trend[len(exA.Trend)-1].OpenFindings, exA.OpenFindings)
	}
	if exA.Posture.WeightedOpen >= exB.Posture.WeightedOpen {
		t.Errorf("posture weight %.1f after muting, %.1f before: the muted findings still weigh", exA.Posture.WeightedOpen, exB.Posture.WeightedOpen)
	}
	for _, r := range exA.TopRules {
		if r.RuleID == muted {
			t.Errorf("top rules still rank %s: %+v", muted, r)
		}
	}
	for _, act := range exA.TopActions {
		if act.RuleID == muted {
			t.Errorf("top actions still list %s: %+v", muted, act)
		}
	}
	for _, r := range exA.TopResources {
		if r.Name == "exports" { // its only finding is muted
			t.Errorf("top resources still rank exports: %+v", r)
		}
	}

	plB, plA := before[engine.ReportRemediationPlan].RemediationPlan, after[engine.ReportRemediationPlan].RemediationPlan
	if plA.Summary.Findings != plB.Summary.Findings-2 {
		t.Errorf("plan findings %d, want %d - 2", plA.Summary.Findings, plB.Summary.Findings)
	}
	for _, g := range plA.Groups {
		if g.RuleID == muted {
			t.Errorf("the plan still has a group of %s: %+v", muted, g)
		}
	}
	for _, pb := range plA.Playbooks {
		if pb.RuleID == muted {
			t.Errorf("the plan still has a playbook of %s", muted)
		}
	}

	for _, fw := range after[engine.ReportComplianceEvidence].ComplianceEvidence.Frameworks {
		for _, c := range fw.Controls {
			if slices.Equal(c.Rules, []string{muted}) && c.Status == engine.ControlFail {
				t.Errorf("%s %s fails on muted findings only: %+v", fw.ID, c.ID, c.FailingResources)
			}
		}
	}

	pdf := squash(pdfToText(t, a.download(t, a.generate(t, engine.ReportExecutiveSummary).ID, "pdf"), t.TempDir()))
	if !strings.Contains(pdf, "2 muted findings (mute rules) are not counted as open") {
		t.Errorf("the executive PDF does not say what it left out; its text:\n%s", pdf)
	}

	// A later audit: the muted audit becomes a past point of the trend, and
	// it still leaves out the matches the rule had there (the GraphQL
	// findingTrend counts them so too), while the new snapshot, to which the
	// rule was not applied, counts them as open.
	next := completedAudit(t, a.pg, a.tenant.ID, fixedID(engine.PrefixAudit, goldenNow.Add(-30*time.Minute), 4), goldenNow.Add(-30*time.Minute))
	if _, err := a.ch.WriteSnapshot(ctx, a.tenant.ID, next.ID, testserver.SeqOf(goldenFindings(a.tenant.ID, next, goldenResources(a.tenant.ID), false))); err != nil {
		t.Fatalf("WriteSnapshot: %v", err)
	}
	var later engine.ReportDocument
	if err := json.Unmarshal(a.download(t, a.generate(t, engine.ReportExecutiveSummary).ID, "json"), &later); err != nil {
		t.Fatal(err)
	}
	points := later.ExecutiveSummary.Trend
	i := slices.IndexFunc(points, func(p engine.ReportTrendPoint) bool { return p.AuditID == a.cur.ID })
	if i < 0 || points[len(points)-1].AuditID != next.ID {
		t.Fatalf("trend %+v: want the muted audit %s as a past point and %s last", points, a.cur.ID, next.ID)
	}
	if points[i].OpenFindings != exB.OpenFindings-2 {
		t.Errorf("past point of the muted audit: %d open findings, want %d - 2", points[i].OpenFindings, exB.OpenFindings)
	}
	if last := points[len(points)-1]; last.OpenFindings != exB.OpenFindings {
		t.Errorf("the new audit's point: %d open findings, want %d (the rule was not applied to it)", last.OpenFindings, exB.OpenFindings)
	}
}

// "Changes since last audit" leaves out a new finding that a mute rule
// matches in the report's snapshot, as every other count of the report
// does: sg-bastion's open port is new in the current audit; muting the
// rule takes it out of the new count and the examples.
func TestReportChangesLeaveMutedFindingsOut(t *testing.T) {
	a := newAssembled(t, nil)
	ctx := context.Background()
	changes := func() engine.AuditChanges {
		t.Helper()
		var d engine.ReportDocument
		if err := json.Unmarshal(a.download(t, a.generate(t, engine.ReportExecutiveSummary).ID, "json"), &d); err != nil {
			t.Fatal(err)
		}
		return d.ExecutiveSummary.Changes
	}
	const muted = "aws-ec2-004"
	before := changes()
	if before.New != 1 || len(before.Examples) != 1 || before.Examples[0].RuleID != muted || before.Examples[0].ResourceName != "sg-bastion" {
		t.Fatalf("changes before the mute rule %+v: want sg-bastion's %s new (the data set changed)", before, muted)
	}
	u, err := a.pg.EnsureUser(ctx, a.tenant.ID, "secops@acme.test", engine.RoleAdmin)
	if err != nil {
		t.Fatal(err)
	}
	p := engine.Principal{TenantID: a.tenant.ID, UserID: u.ID, Scopes: engine.AllScopes}
	expr, reason, expires := `finding.rule_id == "`+muted+`"`, "bastions are reached through the VPN only", a.clock.Now().Add(30*24*time.Hour)
	if _, err := a.mutes.CreateMuteRule(ctx, p, engine.MuteRuleInput{Expression: &expr, Reason: &reason, ExpiresAt: &expires}); err != nil {
		t.Fatal(err)
	}
	after := changes()
	if after.New != 0 || after.Resolved != before.Resolved || after.SeverityChanged != before.SeverityChanged || len(after.Examples) != 0 {
		t.Errorf("changes after muting %s: %+v; want no new finding and no example (before: %+v)", muted, after, before)
	}
}
