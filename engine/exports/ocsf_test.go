package exports

import (
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// TestOCSFStatusFollowsTheSchema maps each place a finding can stand in
// onto OCSF 1.3.0's finding status_id (ocsf-schema 1.3.0
// events/findings/finding.json: 1 New "yet to be reviewed", 2 In Progress
// "under review", 3 Suppressed "reviewed, determined to be benign or a
// false positive and is now suppressed", 4 Resolved "reviewed, remediated")
// and, for a Compliance Finding, compliance.status_id (objects/
// compliance.json: 1 Pass, 3 Fail). On the old code an in_progress finding
// was New, a false positive Resolved, a muted finding New, and an
// accepted risk's control passed.
func TestOCSFStatusFollowsTheSchema(t *testing.T) {
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	base := engine.Finding{ID: "fnd_1", RuleID: "aws-s3-001", Dimension: engine.DimensionCompliance, Severity: engine.SeverityHigh,
		Status: engine.StatusOpen, WorkflowStatus: engine.WorkflowOpen, Title: "t", Remediation: "r",
		Compliance: []string{"CIS-AWS-4.0.1:2.1.1"}, ResourceType: "aws_s3_bucket", FirstSeenAt: at, LastSeenAt: at}
	with := func(edit func(f *engine.Finding)) engine.Finding {
		f := base
		edit(&f)
		return f
	}
	for _, c := range []struct {
		name                           string
		f                              engine.Finding
		status, activity, compliance   int
		statusName, muteRule, unmapped string
	}{
		{"open", base, 1, 1, 3, "New", "", ""},
		{"in progress", with(func(f *engine.Finding) { f.WorkflowStatus = engine.WorkflowInProgress }), 2, 1, 3, "In Progress", "", ""},
		{"muted", with(func(f *engine.Finding) { f.Status, f.MuteRuleID = engine.StatusMuted, "mut_1" }), 3, 1, 3, "Suppressed", "mut_1", ""},
		{"accepted risk", with(func(f *engine.Finding) {
			f.Status, f.Resolution, f.WorkflowStatus = engine.StatusResolved, engine.ResolutionAcceptedRisk, engine.WorkflowAcceptedRisk
		}), 3, 3, 3, "Suppressed", "", "accepted_risk"},
		{"false positive", with(func(f *engine.Finding) {
			f.Status, f.Resolution, f.WorkflowStatus = engine.StatusResolved, engine.ResolutionFalsePositive, engine.WorkflowFalsePositive
		}), 3, 3, 1, "Suppressed", "", "false_positive"},
		{"fixed", with(func(f *engine.Finding) {
			f.Status, f.Resolution, f.WorkflowStatus = engine.StatusResolved, engine.ResolutionFixed, engine.WorkflowFixed
		}), 4, 3, 1, "Resolved", "", "fixed"},
	} {
		ev := ocsfFinding(c.f, "arn:aws:s3:::b", "b")
		if ev.StatusID != c.status || ev.Status != c.statusName || ev.ActivityID != c.activity || ev.TypeUID != 200300+int64(c.activity) {
			t.Errorf("%s: status %d %q, activity %d, type_uid %d; want %d %q, %d", c.name, ev.StatusID, ev.Status, ev.ActivityID, ev.TypeUID,
				c.status, c.statusName, c.activity)
		}
		if ev.Compliance == nil || ev.Compliance.StatusID != c.compliance {
			t.Errorf("%s: compliance %+v, want status_id %d", c.name, ev.Compliance, c.compliance)
		}
		if got, _ := ev.Unmapped["mute_rule_id"].(string); got != c.muteRule {
			t.Errorf("%s: unmapped.mute_rule_id %q, want %q", c.name, got, c.muteRule)
		}
		if got, _ := ev.Unmapped["resolution"].(engine.Resolution); string(got) != c.unmapped {
			t.Errorf("%s: unmapped.resolution %q, want %q", c.name, got, c.unmapped)
		}
	}
}
