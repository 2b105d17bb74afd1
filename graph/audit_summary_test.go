package graph_test

import (
	"context"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/google/go-cmp/cmp"
)

// TestAuditSummaryNotEvaluated runs an audit over a trail whose logging
// status the source did not record and reads the audit's summary through
// REST and GraphQL: both count aws-cloudtrail-001 as not evaluated for it.
func TestAuditSummaryNotEvaluated(t *testing.T) {
	e := newEnv(t, envOptions{findingsA: 1, findingsB: 1})
	ctx := context.Background()
	u, err := e.pg.EnsureUser(ctx, e.a.ID, "auditor@a.test", engine.RoleAdmin)
	if err != nil {
		t.Fatal(err)
	}
	p := engine.Principal{TenantID: e.a.ID, UserID: u.ID, Scopes: engine.AllScopes}
	trail := engine.Resource{Provider: "aws", Account: "111122223333", Region: "eu-west-1", Type: "aws_cloudtrail",
		NativeID: "arn:aws:cloudtrail:eu-west-1:111122223333:trail/from-config", Name: "from-config",
		Attributes: []byte(`{"name":"from-config","home_region":"eu-west-1","s3_bucket_name":"ct"}`)}
	if _, err := e.ingest.IngestResources(ctx, p, func(yield func(engine.IngestItem) bool) { yield(engine.IngestItem{Resource: trail}) }); err != nil {
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
	if done := e.audits.RunAudit(ctx, claimed); done.Status != engine.AuditCompleted {
		t.Fatalf("audit: %s %s", done.Status, done.Error)
	}

	var rest engine.Audit
	if st := e.rest(t, "/v1/audits/"+queued.ID, e.tokA, &rest); st != 200 || rest.Summary == nil {
		t.Fatalf("GET /v1/audits/%s: %d %+v", queued.ID, st, rest)
	}
	if n := rest.Summary.NotEvaluated["aws-cloudtrail-001"]; n != 1 {
		t.Errorf("REST not_evaluated[aws-cloudtrail-001] = %d, want 1 (%v)", n, rest.Summary.NotEvaluated)
	}
	type count struct {
		RuleID string `json:"ruleId"`
		Count  int64  `json:"count"`
	}
	got := data[struct {
		Audit struct {
			Summary struct {
				NotEvaluated []count `json:"notEvaluated"`
			} `json:"summary"`
		} `json:"audit"`
	}](t, e.gql(t, e.tokA, `query($id: ID!) { audit(id: $id) { summary { notEvaluated { ruleId count } } } }`, map[string]any{"id": queued.ID}))
	asMap := map[string]int64{}
	for _, c := range got.Audit.Summary.NotEvaluated {
		asMap[c.RuleID] = c.Count
	}
	if diff := cmp.Diff(rest.Summary.NotEvaluated, asMap); diff != "" {
		t.Errorf("GraphQL and REST differ (-rest +graphql)\n%s", diff)
	}
}
