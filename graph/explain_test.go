package graph_test

import (
	"encoding/json"
	"testing"
)

// TestResourceExplain asks Resource.explain for a seeded bucket of tenant A:
// the S3 checks are there with outcomes and what they read, and the answer
// equals REST's GET /v1/resources/{id}/explain check for check. Tenant B
// asking for A's resource gets not_found, and the field is priced so that
// a page of resources cannot explain them all.
func TestResourceExplain(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	var bucket string
	for _, r := range e.a.Resources {
		if r.Type == "aws_s3_bucket" {
			bucket = r.ID
			break
		}
	}
	const q = `query($id: ID!) { resource(id: $id) { explain { passed failed notEvaluated
		checks { ruleId outcome scope severity defaultSeverity evidence missing } } } }`
	type check struct {
		RuleID   string          `json:"ruleId"`
		Outcome  string          `json:"outcome"`
		Scope    string          `json:"scope"`
		Severity *string         `json:"severity"`
		Evidence json.RawMessage `json:"evidence"`
		Missing  []string        `json:"missing"`
	}
	got := data[struct {
		Resource struct {
			Explain struct {
				Passed, Failed, NotEvaluated int
				Checks                       []check
			}
		}
	}](t, e.gql(t, e.tokAResources, q, map[string]any{"id": bucket}))
	x := got.Resource.Explain
	if len(x.Checks) < 5 || x.Passed+x.Failed+x.NotEvaluated != len(x.Checks) {
		t.Fatalf("explanation: %+v", x)
	}
	for _, c := range x.Checks {
		if (c.Outcome == "failed") != (c.Severity != nil) {
			t.Errorf("%s: outcome %s with severity %v", c.RuleID, c.Outcome, c.Severity)
		}
		if c.Outcome == "passed" && string(c.Evidence) == "{}" {
			t.Errorf("%s passed without saying what it read", c.RuleID)
		}
	}
	var rest struct {
		Checks []struct {
			RuleID  string `json:"rule_id"`
			Outcome string `json:"outcome"`
		} `json:"checks"`
	}
	if status := e.rest(t, "/v1/resources/"+bucket+"/explain", e.tokA, &rest); status != 200 || len(rest.Checks) != len(x.Checks) {
		t.Fatalf("REST: %d, %d checks; GraphQL %d", status, len(rest.Checks), len(x.Checks))
	}
	for i, c := range rest.Checks {
		if c.RuleID != x.Checks[i].RuleID || c.Outcome != x.Checks[i].Outcome {
			t.Errorf("check %d: REST %+v, GraphQL %+v", i, c, x.Checks[i])
		}
	}

	if r := e.gql(t, e.tokB, q, map[string]any{"id": bucket}); r.code() != "not_found" {
		t.Errorf("tenant B explained A's resource: %s %s", r.Data, r.code())
	}
	page := `{ resources(first: 200) { nodes { explain { passed } } } }`
	if r := e.gql(t, e.tokA, page, nil); r.code() != "query_too_complex" {
		t.Errorf("a page of 200 explanations was admitted: %.200s", r.Data)
	}
}
