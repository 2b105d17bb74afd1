package rest

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/testserver"
)

// TestExplainResource explains a bucket through GET
// /v1/resources/{id}/explain: every S3 check is there, the public-access
// check passes on the account's block (a join) and says what it read, and
// the versioning check fails with the finding's severity. Bad ids, another
// tenant's resource, a token without resources:read and no token answer in
// the error envelope.
func TestExplainResource(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{findingsA: 4, findingsB: 4})
	now := time.Now().UTC().Truncate(time.Millisecond)
	const acct = "123456789012"
	mk := func(typ, native, attrs string) engine.Resource {
		return engine.Resource{ID: engine.ResourceID(e.a.ID, "aws", native), TenantID: e.a.ID, Provider: "aws", Account: acct,
			Region: "eu-west-1", Type: typ, NativeID: native, Name: native, Tags: engine.TagsFromMap(map[string]string{"owner": "data"}),
			Attributes: json.RawMessage(attrs), FirstSeenAt: now, LastSeenAt: now}
	}
	bucket := mk("aws_s3_bucket", "arn:aws:s3:::acme-data",
		`{"bucket":"acme-data","public_access_block":null,"policy":null,"sse_algorithm":"aws:kms","versioning":"","logging_target_bucket":"logs"}`)
	block := mk("aws_s3_account_public_access_block", acct,
		`{"block_public_acls":true,"ignore_public_acls":true,"block_public_policy":true,"restrict_public_buckets":true}`)
	if _, err := e.ch.WriteResources(context.Background(), e.a.ID, testserver.SeqOf([]engine.Resource{bucket, block})); err != nil {
		t.Fatal(err)
	}

	x := getJSON[engine.ResourceExplanation](t, e, "/v1/resources/"+bucket.ID+"/explain", e.tokAResourcesOnly)
	if x.Resource.ID != bucket.ID || x.Passed+x.Failed+x.NotEvaluated != len(x.Checks) || len(x.Checks) < 5 {
		t.Fatalf("explanation: %+v", x)
	}
	byRule := map[string]engine.CheckExplanation{}
	for _, c := range x.Checks {
		byRule[c.RuleID] = c
	}
	pab := byRule["aws-s3-001"]
	var ev map[string]any
	if err := json.Unmarshal(pab.Evidence, &ev); err != nil {
		t.Fatal(err)
	}
	if pab.Outcome != engine.CheckPassed || pab.Scope != "join" || pab.Severity != nil || ev["account_public_access_block"] == nil {
		t.Errorf("aws-s3-001 should pass on the account's block and show it: %+v %s", pab, pab.Evidence)
	}
	var failed bool
	for _, c := range x.Checks {
		if c.Outcome == engine.CheckFailed {
			failed = true
			if c.Severity == nil || len(c.Evidence) < 3 {
				t.Errorf("%s failed without severity or evidence: %+v", c.RuleID, c)
			}
		}
		if c.Outcome == engine.CheckPassed && string(c.Evidence) == "{}" {
			t.Errorf("%s passed without saying what it read", c.RuleID)
		}
	}
	if !failed {
		t.Errorf("a bucket without versioning fails some check: %+v", x.Checks)
	}

	for _, c := range []struct {
		name, path, token string
		status            int
		code              string
	}{
		{"not an id", "/v1/resources/not-an-id/explain", e.tokA, http.StatusNotFound, "not_found"},
		{"unknown id", "/v1/resources/" + engine.ResourceID(e.a.ID, "aws", "arn:aws:s3:::nope") + "/explain", e.tokA, http.StatusNotFound, "not_found"},
		{"another tenant's", "/v1/resources/" + e.b.Resources[0].ID + "/explain", e.tokA, http.StatusNotFound, "not_found"},
		{"findings scope only", "/v1/resources/" + bucket.ID + "/explain", e.tokAFindingsOnly, http.StatusForbidden, "insufficient_scope"},
		{"no token", "/v1/resources/" + bucket.ID + "/explain", "", http.StatusUnauthorized, "unauthorized"},
		{"unknown query", "/v1/resources/" + bucket.ID + "/explain?verbose=1", e.tokA, http.StatusBadRequest, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := e.get(t, c.path, c.token)
			var env struct {
				Error struct{ Code, Message, RequestID string } `json:"error"`
			}
			if err := json.Unmarshal(r.body, &env); err != nil || r.status != c.status || env.Error.Message == "" ||
				(c.code != "" && env.Error.Code != c.code) {
				t.Errorf("status %d, body %s; want %d %s", r.status, r.body, c.status, c.code)
			}
		})
	}
}
