package rest

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/identity"
)

// TestFindingRankings reads GET /v1/findings/rankings (each answer checked
// against the OpenAPI document by the harness): every ranked resource is
// the tenant's own, the account ranking agrees with
// /v1/findings/summary?group_by=account,severity&status=open, limit bounds
// each ranking, and bad parameters and a token without findings:read are
// coded errors. Tenant isolation is in the isolation matrix.
func TestFindingRankings(t *testing.T) {
	e := newIdentityEnv(t, idOptions{})
	r := e.get(t, "/v1/findings/rankings?limit=3", e.tokA)
	if r.status != http.StatusOK {
		t.Fatalf("rankings: %d %s", r.status, r.body)
	}
	var got FindingRankings
	if err := json.Unmarshal(r.body, &got); err != nil {
		t.Fatal(err)
	}
	own := map[string]bool{}
	for _, res := range e.a.Resources {
		own[res.ID] = true
	}
	if len(got.TopRules) == 0 || len(got.TopRules) > 3 || len(got.TopResources) == 0 || len(got.TopResources) > 3 ||
		len(got.TopAccounts) == 0 || len(got.TopAccounts) > 3 {
		t.Errorf("rankings with limit=3: %d rules, %d resources, %d accounts", len(got.TopRules), len(got.TopResources), len(got.TopAccounts))
	}
	for _, res := range got.TopResources {
		if !own[res.ResourceID] {
			t.Errorf("top resource %s is not the tenant's", res.ResourceID)
		}
	}

	var sum engine.FindingSummary
	if r := e.get(t, "/v1/findings/summary?group_by=account,severity&status=open", e.tokA); r.status != 200 || json.Unmarshal(r.body, &sum) != nil {
		t.Fatalf("summary: %d %s", r.status, r.body)
	}
	want := map[string]engine.AccountRank{}
	for _, g := range sum.Groups {
		a := want[g.Key[engine.GroupByAccount]]
		a.Account, a.Open = g.Key[engine.GroupByAccount], a.Open+g.Count
		switch engine.Severity(g.Key[engine.GroupBySeverity]) {
		case engine.SeverityCritical:
			a.Critical += g.Count
		case engine.SeverityHigh:
			a.High += g.Count
		}
		want[a.Account] = a
	}
	for _, a := range got.TopAccounts {
		if diff := cmp.Diff(want[a.Account], a); diff != "" {
			t.Errorf("account %s: summary vs rankings (-summary +rankings):\n%s", a.Account, diff)
		}
	}

	narrow, err := e.ops.IssueToken(context.Background(), identity.IssueTokenInput{TenantSlug: "acme", Email: "ada@acme.test",
		Name: "resources only", Scopes: []engine.Scope{engine.ScopeResourcesRead}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, token string
		status      int
		code        string
	}{
		{"/v1/findings/rankings?limit=0", e.tokA, 422, engine.CodeInvalidLimit},
		{"/v1/findings/rankings?limit=101", e.tokA, 422, engine.CodeInvalidLimit},
		{"/v1/findings/rankings?limit=ten", e.tokA, 422, engine.CodeInvalidLimit},
		{"/v1/findings/rankings?dimension=speed", e.tokA, 422, engine.CodeValidationFailed},
		{"/v1/findings/rankings?severity=high", e.tokA, 400, engine.CodeInvalidRequest},
		{"/v1/findings/rankings?audit_id=aud_nope", e.tokA, 422, engine.CodeValidationFailed},
		{"/v1/findings/rankings", narrow.Secret, 403, engine.CodeInsufficientScope},
		{"/v1/findings/rankings", "", 401, engine.CodeUnauthorized},
	} {
		wantError(t, e.get(t, tc.path, tc.token), tc.status, tc.code)
	}
}
