package audit_test

import (
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// Issue 28: a policy stored before the write-time size check, whose
// expression doubles a string 24 times, fails on every resource; the audit
// completes, the other policy still raises its findings, and the summary
// names the policy that failed and why.
func TestAuditCompletesAndNamesFailedPolicies(t *testing.T) {
	h := newHarness(t)
	h.ingest(bucket("logs", map[string]string{"env": "prod"}, true), bucket("data", nil, true))
	expr := "resource.name"
	for range 24 {
		expr = "[" + expr + "].map(a, a + a)[0]"
	}
	expr = "size(" + expr + ") > 0"
	if _, err := h.policies.CreatePolicy(h.ctx, h.p, engine.PolicyInput{Name: ptr("doubling"), Expression: ptr(expr),
		Dimension: ptr(engine.DimensionCost), Severity: ptr(engine.SeverityLow)}); engine.ErrorCode(err) != engine.CodeValidationFailed {
		t.Fatalf("writing the doubling policy: %v, want validation_failed", err)
	}
	bad := engine.Policy{ID: engine.NewID(engine.PrefixPolicy, h.now), TenantID: h.p.TenantID, Name: "doubling (stored before the check)",
		Expression: expr, Effect: engine.PolicyRaise, Dimension: engine.DimensionCost, Severity: engine.SeverityLow,
		Enabled: true, CreatedAt: h.now, UpdatedAt: h.now}
	if err := h.pg.CreatePolicy(h.ctx, bad); err != nil {
		t.Fatal(err)
	}
	good, err := h.policies.CreatePolicy(h.ctx, h.p, engine.PolicyInput{Name: ptr("every bucket"), Expression: ptr(`resource.type == "aws_s3_bucket"`),
		Dimension: ptr(engine.DimensionCost), Severity: ptr(engine.SeverityLow)})
	if err != nil {
		t.Fatal(err)
	}
	a := h.runAudit()
	got := a.Summary.PolicyErrors
	if len(got) != 1 || got[0].PolicyID != bad.ID || got[0].PolicyName != bad.Name || got[0].Errors != 2 ||
		got[0].Reason != "size_limit_exceeded" || !strings.Contains(got[0].Message, "exceeds 1048576 bytes") || got[0].ResourceID == "" {
		t.Fatalf("policy_errors = %+v; want the doubling policy, 2 size_limit_exceeded", got)
	}
	stored, err := h.svc.GetAudit(h.ctx, h.p, a.ID)
	if err != nil || stored.Summary == nil || len(stored.Summary.PolicyErrors) != 1 {
		t.Fatalf("the stored audit's summary: %+v, %v", stored.Summary, err)
	}
	fs, err := h.svc.ListFindings(h.ctx, h.p, engine.FindingFilter{RuleID: good.ID}, engine.PageRequest{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(fs.Items) != 2 {
		t.Errorf("the good policy raised %d findings, want 2", len(fs.Items))
	}

	// Clean twin: without the failing policy, the next audit lists none.
	if err := h.policies.DeletePolicy(h.ctx, h.p, bad.ID); err != nil {
		t.Fatal(err)
	}
	if a := h.runAudit(); a.Summary.PolicyErrors != nil {
		t.Errorf("policy_errors after deleting the policy = %+v, want null", a.Summary.PolicyErrors)
	}
}
