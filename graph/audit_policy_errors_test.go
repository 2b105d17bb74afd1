package graph_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// Issue 28: an audit whose stored policy doubles a string past the size
// limit completes, and both APIs name the policy that failed.
func TestAuditSummaryPolicyErrors(t *testing.T) {
	e := newEnv(t, envOptions{findingsA: 1})
	ctx := context.Background()
	u, err := e.pg.EnsureUser(ctx, e.a.ID, "auditor@a.test", engine.RoleAdmin)
	if err != nil {
		t.Fatal(err)
	}
	p := engine.Principal{TenantID: e.a.ID, UserID: u.ID, Scopes: engine.AllScopes}
	expr := "resource.name"
	for range 24 {
		expr = "[" + expr + "].map(a, a + a)[0]"
	}
	now := time.Now().UTC()
	pol := engine.Policy{ID: engine.NewID(engine.PrefixPolicy, now), TenantID: e.a.ID, Name: "stored before the check",
		Expression: "size(" + expr + ") > 0", Effect: engine.PolicyRaise, Dimension: engine.DimensionCost,
		Severity: engine.SeverityLow, Enabled: true, CreatedAt: now, UpdatedAt: now}
	if err := e.pg.CreatePolicy(ctx, pol); err != nil {
		t.Fatal(err)
	}
	queued, err := e.audits.StartAudit(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	claimed, err := e.pg.ClaimAudit(ctx, "test", time.Minute)
	if err != nil || claimed.ID != queued.ID {
		t.Fatalf("claim: %v %v", claimed.ID, err)
	}
	if done := e.runner.RunAudit(ctx, claimed); done.Status != engine.AuditCompleted {
		t.Fatalf("audit: %s %s", done.Status, done.Error)
	}
	var rest engine.Audit
	if st := e.rest(t, "/v1/audits/"+queued.ID, e.tokA, &rest); st != 200 || rest.Summary == nil || len(rest.Summary.PolicyErrors) != 1 {
		t.Fatalf("GET /v1/audits/%s: %d %+v", queued.ID, st, rest.Summary)
	}
	want := rest.Summary.PolicyErrors[0]
	if want.PolicyID != pol.ID || want.Reason != "size_limit_exceeded" || want.Errors < 1 {
		t.Errorf("REST policy_errors = %+v", rest.Summary.PolicyErrors)
	}
	got := data[struct {
		Audit struct {
			Summary struct {
				PolicyErrors []struct {
					PolicyID, PolicyName, Reason, Message, ResourceID string
					Errors                                            int64
				} `json:"policyErrors"`
			} `json:"summary"`
		} `json:"audit"`
	}](t, e.gql(t, e.tokA, `query($id: ID!) { audit(id: $id) { summary { policyErrors { policyId policyName errors reason message resourceId } } } }`,
		map[string]any{"id": queued.ID}))
	pe := got.Audit.Summary.PolicyErrors
	if len(pe) != 1 || pe[0].PolicyID != want.PolicyID || pe[0].PolicyName != want.PolicyName || pe[0].Errors != want.Errors ||
		pe[0].Reason != want.Reason || pe[0].Message != want.Message || pe[0].ResourceID != want.ResourceID ||
		!strings.Contains(pe[0].Message, "1048576") {
		t.Errorf("GraphQL policyErrors %+v; REST %+v", pe, want)
	}
	// The seeded audit, completed before any policy failed, lists none.
	empty := e.gql(t, e.tokA, `query($id: ID!) { audit(id: $id) { summary { policyErrors { policyId } } } }`, map[string]any{"id": e.a.Audit.ID})
	if len(empty.Errors) != 0 || !strings.Contains(string(empty.Data), `"policyErrors":[]`) {
		t.Errorf("an audit without policy errors: %s %+v", empty.Data, empty.Errors)
	}
}
