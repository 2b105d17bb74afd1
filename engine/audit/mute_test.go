package audit_test

import (
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// TestAuditAppliesMuteRules: a later audit applies the active mute rules to
// its new snapshot before it completes: a new finding a rule matches is
// muted at once and no finding.created is sent for it, while a new finding
// the rule does not match (the clean twin) is announced and open.
func TestAuditAppliesMuteRules(t *testing.T) {
	h := newHarness(t)
	const public = "aws-s3-001"
	staging := bucket("staging-logs", map[string]string{"env": "staging"}, false)
	h.ingest(staging)
	h.runAudit()
	h.rec.take()

	rule, err := h.mutes.CreateMuteRule(h.ctx, h.p, engine.MuteRuleInput{
		Expression: ptr(`resource.tags[?"env"].orValue("") == "sandbox"`), Reason: ptr("sandboxes are throwaway"),
		ExpiresAt: ptr(h.now.Add(30 * 24 * time.Hour))})
	if err != nil {
		t.Fatal(err)
	}
	if rule.Applied == nil || rule.Applied.Matched != 0 {
		t.Fatalf("applied to audit 1: %+v (nothing is tagged sandbox yet)", rule.Applied)
	}

	sandbox := bucket("sandbox-scratch", map[string]string{"env": "sandbox"}, false)
	twin := bucket("prod-assets", map[string]string{"env": "prod"}, false)
	h.ingest(sandbox, twin)
	h.rec.take()
	a2 := h.runAudit()
	evs := h.rec.take()

	muted, announced := h.finding(public, sandbox), h.finding(public, twin)
	if muted.Status != engine.StatusMuted || muted.MuteRuleID != rule.ID {
		t.Errorf("sandbox finding after audit 2: %s %q, want muted by %s", muted.Status, muted.MuteRuleID, rule.ID)
	}
	if announced.Status != engine.StatusOpen || announced.MuteRuleID != "" {
		t.Errorf("clean twin after audit 2: %s %q, want open", announced.Status, announced.MuteRuleID)
	}
	if n := len(eventsFor(evs, engine.EventFindingCreated, muted.ID)); n != 0 {
		t.Errorf("finding.created sent %d times for a finding muted at creation", n)
	}
	if n := len(eventsFor(evs, engine.EventFindingCreated, announced.ID)); n != 1 {
		t.Errorf("finding.created sent %d times for the clean twin, want 1", n)
	}
	if f := h.finding(public, staging); f.Status != engine.StatusOpen {
		t.Errorf("staging finding: %s", f.Status)
	}
	got, err := h.mutes.GetMuteRule(h.ctx, h.p, rule.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Applied == nil || got.Applied.AuditID != a2.ID || got.Applied.Matched == 0 {
		t.Errorf("rule applied = %+v, want audit 2 %s with matches", got.Applied, a2.ID)
	}
	sum, err := h.svc.SummarizeFindings(h.ctx, h.p, engine.FindingFilter{Status: engine.StatusMuted}, nil)
	if err != nil || sum.Total != got.Applied.Matched || sum.AuditID != a2.ID {
		t.Errorf("muted count %+v (%v), want %d", sum, err, got.Applied.Matched)
	}
}
