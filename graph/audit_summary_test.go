package graph_test

import (
	"context"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/testserver"
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
	if done := e.runner.RunAudit(ctx, claimed); done.Status != engine.AuditCompleted {
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
	assertEvaluated(t, e, queued.ID, rest.Summary.Evaluated)
}

// assertEvaluated reads audit id's summary.evaluated through GraphQL and
// compares it with want, REST's evaluated: the same counts, most first
// then by rule id, null exactly when REST's is null.
func assertEvaluated(t *testing.T, e *env, id string, want map[string]int64) {
	t.Helper()
	type count struct {
		RuleID string `json:"ruleId"`
		Count  int64  `json:"count"`
	}
	got := data[struct {
		Audit struct {
			Summary struct {
				Evaluated *[]count `json:"evaluated"`
			} `json:"summary"`
		} `json:"audit"`
	}](t, e.gql(t, e.tokA, `query($id: ID!) { audit(id: $id) { summary { evaluated { ruleId count } } } }`, map[string]any{"id": id}))
	ev := got.Audit.Summary.Evaluated
	if (ev == nil) != (want == nil) {
		t.Fatalf("GraphQL evaluated %v, REST %v: null on one side only", ev, want)
	}
	if ev == nil {
		return
	}
	asMap := map[string]int64{}
	for i, c := range *ev {
		asMap[c.RuleID] = c.Count
		if i > 0 {
			p := (*ev)[i-1]
			if p.Count < c.Count || p.Count == c.Count && p.RuleID >= c.RuleID {
				t.Errorf("evaluated not most first then by rule id: %v before %v", p, c)
			}
		}
	}
	if diff := cmp.Diff(want, asMap); diff != "" {
		t.Errorf("GraphQL and REST evaluated differ (-rest +graphql)\n%s", diff)
	}
}

// TestAuditSummaryEvaluated: GraphQL's summary.evaluated counts the
// resources each rule judged, as REST's evaluated does: a trail recorded
// with its logging status is judged by aws-cloudtrail-001; an audit that
// ran no check has an empty list, and one completed before fourd counted
// them has null.
func TestAuditSummaryEvaluated(t *testing.T) {
	e := newEnv(t, envOptions{findingsA: 1, findingsB: 1})
	ctx := context.Background()
	u, err := e.pg.EnsureUser(ctx, e.a.ID, "auditor@a.test", engine.RoleAdmin)
	if err != nil {
		t.Fatal(err)
	}
	p := engine.Principal{TenantID: e.a.ID, UserID: u.ID, Scopes: engine.AllScopes}
	trail := engine.Resource{Provider: "aws", Account: "111122223333", Region: "eu-west-1", Type: "aws_cloudtrail",
		NativeID: "arn:aws:cloudtrail:eu-west-1:111122223333:trail/logging", Name: "logging",
		Attributes: []byte(`{"name":"logging","home_region":"eu-west-1","s3_bucket_name":"ct","is_logging":true,"is_multi_region_trail":true}`)}
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
	if done := e.runner.RunAudit(ctx, claimed); done.Status != engine.AuditCompleted {
		t.Fatalf("audit: %s %s", done.Status, done.Error)
	}
	var rest engine.Audit
	if st := e.rest(t, "/v1/audits/"+queued.ID, e.tokA, &rest); st != 200 || rest.Summary == nil {
		t.Fatalf("GET /v1/audits/%s: %d %+v", queued.ID, st, rest)
	}
	if rest.Summary.Evaluated["aws-cloudtrail-001"] != 1 {
		t.Errorf("REST evaluated[aws-cloudtrail-001] = %d, want 1 (%v)", rest.Summary.Evaluated["aws-cloudtrail-001"], rest.Summary.Evaluated)
	}
	assertEvaluated(t, e, queued.ID, rest.Summary.Evaluated)

	at := time.Now().UTC().Add(-time.Hour)
	none := testserver.CompleteAuditID(t, e.pg, e.a.ID, engine.NewID(engine.PrefixAudit, at), at,
		&engine.AuditSummary{BySeverity: map[engine.Severity]int64{}, ByDimension: map[engine.Dimension]int64{}, Evaluated: map[string]int64{}})
	assertEvaluated(t, e, none.ID, map[string]int64{})
	old := testserver.CompleteAuditID(t, e.pg, e.a.ID, engine.NewID(engine.PrefixAudit, at.Add(-time.Hour)), at.Add(-time.Hour),
		&engine.AuditSummary{BySeverity: map[engine.Severity]int64{}, ByDimension: map[engine.Dimension]int64{}})
	assertEvaluated(t, e, old.ID, nil)
}
