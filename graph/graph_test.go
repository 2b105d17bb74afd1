package graph_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/graph"
	"github.com/fourd-dev/fourd/internal/testserver"
)

// TestNoNPlusOne asserts that a page of 200 findings with their resources
// costs a bounded number of store queries: one batch for the resources.
func TestNoNPlusOne(t *testing.T) {
	e := newEnv(t, envOptions{findingsA: 400})
	e.calls.reset()
	got := data[struct {
		Findings struct {
			Edges []struct {
				Node struct {
					ResourceID string
					Resource   *struct{ ID, Name string }
				}
			}
		}
	}](t, e.gql(t, e.tokA, `{ findings(first: 200) { totalCount edges { node { id resourceId resource { id name } } } } }`, nil))
	calls := e.calls.reset()
	if n := len(got.Findings.Edges); n != 200 {
		t.Fatalf("got %d edges, want 200", n)
	}
	for _, ed := range got.Findings.Edges {
		if ed.Node.Resource == nil || ed.Node.Resource.ID != ed.Node.ResourceID {
			t.Fatalf("finding on %s has resource %+v", ed.Node.ResourceID, ed.Node.Resource)
		}
	}
	// The count reads the snapshot the page was read from (GetAudit checks it).
	// The resources come in one read without tags and attributes, which the
	// selection does not show.
	want := map[string]int{"LatestCompletedAudit": 1, "ListFindings": 1, "GetResourcesPartial{Tags:false Attributes:false LastSeen:false CapturedAt:false}": 1,
		"GetAudit": 1, "CountFindings": 1}
	if diff := cmp.Diff(want, calls); diff != "" {
		t.Errorf("store calls (-want +got):\n%s", diff)
	}
}

// TestBadInput sends invalid operations: each is answered with a coded
// GraphQL error, never a 500.
func TestBadInput(t *testing.T) {
	e := newEnv(t, envOptions{findingsA: 20, graph: func(c *graph.Config) { c.MaxDepth = 8 }})
	deep := "{ resources(first: 1) { edges { node { findings(first: 1) { edges { node { resource { findings(first: 1) { edges { node { id } } } } } } } } } } }"
	for _, tc := range []struct {
		name, query string
		vars        map[string]any
		get         bool
		want        string
	}{
		{name: "syntax", query: `{ findings { `, want: "invalid_request"},
		{name: "unknown field", query: `{ findings { bogus } }`, want: "invalid_request"},
		{name: "unknown enum value", query: `{ findings(filter: {severity: SEVERE}) { totalCount } }`, want: "invalid_request"},
		{name: "too deep", query: deep, want: "query_too_deep"},
		{name: "too costly", query: `{ resources(first: 200) { edges { node { findings(first: 200) { edges { node { id title } } } } } } }`, want: "query_too_complex"},
		{name: "bad cursor", query: `{ findings(after: "eyJ4IjoxfQ.AAAA") { totalCount } }`, want: "invalid_cursor"},
		{name: "cursor of another list", query: `query($c: String) { resources(after: $c) { totalCount } }`, vars: map[string]any{"c": "x"}, want: "invalid_cursor"},
		{name: "wrong variable type", query: `query($n: Int) { findings(first: $n) { totalCount } }`, vars: map[string]any{"n": "ten"}, want: "invalid_request"},
		{name: "missing variable", query: `query($id: ID!) { finding(id: $id) { id } }`, want: "invalid_request"},
		{name: "bad time", query: `{ findingTrend(from: "yesterday", to: "2030-01-01T00:00:00Z") { total } }`, want: "validation_failed"},
		{name: "backward paging", query: `{ findings(last: 5) { totalCount } }`, want: "invalid_request"},
		{name: "mutation over GET", query: `mutation { startAudit { id } }`, get: true, want: "method_not_allowed"},
		{name: "bad group by repeated", query: `{ findingStats(groupBy: [SEVERITY, SEVERITY]) { total } }`, want: "validation_failed"},
		{name: "too many nodes", query: fmt.Sprintf(`{ nodes(ids: [%s]) { id } }`, strings.Repeat(`"x",`, 201)), want: "invalid_limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r gqlResponse
			if tc.get {
				r = e.gqlGet(t, e.tokA, tc.query)
			} else {
				r = e.gql(t, e.tokA, tc.query, tc.vars)
			}
			if r.code() != tc.want {
				t.Errorf("code %q, want %q: %+v", r.code(), tc.want, r.Errors)
			}
			if r.status >= 500 {
				t.Errorf("status %d", r.status)
			}
			if len(r.Errors) > 0 && !strings.HasPrefix(fmt.Sprint(r.Errors[0].Extensions["request_id"]), "req_") {
				t.Errorf("no request id: %+v", r.Errors[0].Extensions)
			}
		})
	}
	t.Run("malformed body", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodPost, e.url+"/graphql", strings.NewReader("{not json"))
		req.Header.Set("Content-Type", "application/json")
		if r := e.send(t, req, e.tokA); r.code() != "invalid_request" || r.status != http.StatusBadRequest {
			t.Errorf("status %d code %q", r.status, r.code())
		}
	})
	t.Run("method", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodPut, e.url+"/graphql", strings.NewReader("{}"))
		if r := e.send(t, req, e.tokA); r.code() != "method_not_allowed" || r.status != http.StatusMethodNotAllowed {
			t.Errorf("status %d code %q", r.status, r.code())
		}
	})
	t.Run("query over GET", func(t *testing.T) {
		r := e.gqlGet(t, e.tokA, `{ findings(first: 2) { totalCount } }`)
		if len(r.Errors) > 0 || r.status != 200 {
			t.Errorf("status %d errors %+v", r.status, r.Errors)
		}
	})
}

// TestMutations resolves and reopens a finding and runs the policy and
// audit mutations, checking that reads see the writes as REST does.
func TestMutations(t *testing.T) {
	e := newEnv(t, envOptions{findingsA: 30})
	var open string
	for _, f := range e.a.Findings {
		if f.Status == "open" {
			open = f.ID
			break
		}
	}
	exp := time.Now().Add(48 * time.Hour).UTC().Format(time.RFC3339)
	r := data[struct {
		ResolveFinding struct{ Status, Resolution string }
	}](t, e.gql(t, e.tokA,
		`mutation($in: ResolveFindingInput!) { resolveFinding(input: $in) { status resolution } }`,
		map[string]any{"in": map[string]any{"id": open, "note": "known", "expiresAt": exp}}))
	if r.ResolveFinding.Status != "RESOLVED" || r.ResolveFinding.Resolution != "ACCEPTED_RISK" {
		t.Errorf("resolve: %+v", r)
	}
	var rf struct{ Status string }
	e.rest(t, "/v1/findings/"+open, e.tokA, &rf)
	if rf.Status != "resolved" {
		t.Errorf("REST sees status %q after resolveFinding", rf.Status)
	}
	ro := data[struct{ ReopenFinding struct{ Status string } }](t, e.gql(t, e.tokA,
		`mutation($id: ID!) { reopenFinding(id: $id) { status } }`, map[string]any{"id": open}))
	if ro.ReopenFinding.Status != "OPEN" {
		t.Errorf("reopen: %+v", ro)
	}
	for _, tc := range []struct {
		name, query string
		vars        map[string]any
		token       string
		want        string
	}{
		{"resolve needs findings:write", `mutation { reopenFinding(id: "` + open + `") { id } }`, nil, e.tokAResources, "insufficient_scope"},
		{"note too long", `mutation($in: ResolveFindingInput!) { resolveFinding(input: $in) { id } }`,
			map[string]any{"in": map[string]any{"id": open, "note": strings.Repeat("n", 2001)}}, e.tokA, "validation_failed"},
		{"expiry in the past", `mutation($in: ResolveFindingInput!) { resolveFinding(input: $in) { id } }`,
			map[string]any{"in": map[string]any{"id": open, "expiresAt": "2001-01-01T00:00:00Z"}}, e.tokA, "validation_failed"},
		{"bad policy expression", `mutation { createPolicy(input: {name: "p", expression: "resource.nope(", effect: RAISE, dimension: SECURITY, severity: HIGH, title: "t"}) { id } }`, nil, e.tokA, "validation_failed"},
		{"reanalyze unknown audit", `mutation { reanalyzeAudit(id: "aud_01HZZZZZZZZZZZZZZZZZZZZZZZ") { id } }`, nil, e.tokA, "not_found"},
		{"cancel completed audit", `mutation { cancelAudit(id: "` + e.a.Audit.ID + `") { id } }`, nil, e.tokA, "conflict"},
		{"dry run limit", `mutation { testPolicy(id: "pol_x", limit: 0) { matched } }`, nil, e.tokA, "invalid_limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := e.gql(t, tc.token, tc.query, tc.vars); got.code() != tc.want {
				t.Errorf("code %q, want %q: %+v", got.code(), tc.want, got.Errors)
			}
		})
	}
	t.Run("policy lifecycle", func(t *testing.T) {
		c := data[struct{ CreatePolicy struct{ ID, Name string } }](t, e.gql(t, e.tokA,
			`mutation { createPolicy(input: {name: "public buckets", expression: "resource.type == 'aws_s3_bucket'", effect: RAISE,
			  dimension: SECURITY, severity: HIGH, title: "Bucket", resourceTypes: ["aws_s3_bucket"]}) { id name } }`, nil))
		u := data[struct{ UpdatePolicy struct{ Version int } }](t, e.gql(t, e.tokA,
			`mutation($id: ID!) { updatePolicy(id: $id, input: {enabled: false}) { version } }`, map[string]any{"id": c.CreatePolicy.ID}))
		if u.UpdatePolicy.Version != 2 {
			t.Errorf("version after update %d, want 2", u.UpdatePolicy.Version)
		}
		d := data[struct{ DeletePolicy struct{ Deleted bool } }](t, e.gql(t, e.tokA,
			`mutation($id: ID!) { deletePolicy(id: $id) { deleted } }`, map[string]any{"id": c.CreatePolicy.ID}))
		var re restError
		e.rest(t, "/v1/policies/"+c.CreatePolicy.ID, e.tokA, &re)
		if !d.DeletePolicy.Deleted || re.Error.Code != "not_found" {
			t.Errorf("delete: %+v, REST then answers %q", d, re.Error.Code)
		}
	})
	t.Run("audit lifecycle", func(t *testing.T) {
		s := data[struct{ StartAudit struct{ ID, Status string } }](t, e.gql(t, e.tokA, `mutation { startAudit { id status } }`, nil))
		c := data[struct{ CancelAudit struct{ Status string } }](t, e.gql(t, e.tokA,
			`mutation($id: ID!) { cancelAudit(id: $id) { status } }`, map[string]any{"id": s.StartAudit.ID}))
		if s.StartAudit.Status != "QUEUED" || c.CancelAudit.Status != "CANCELED" {
			t.Errorf("start %+v, cancel %+v", s, c)
		}
	})
}

// TestFindingTrend counts findings per completed audit in one query.
func TestFindingTrend(t *testing.T) {
	e := newEnv(t, envOptions{findingsA: 40})
	later := testserver.CompleteAudit(t, e.pg, e.a.ID, time.Now().UTC().Add(-10*time.Minute))
	if _, err := e.ch.WriteSnapshot(t.Context(), e.a.ID, later.ID, testserver.SeqOf(testserver.MakeFindings(e.a.ID, later.ID, e.a.Resources, 25, 0, time.Now().UTC()))); err != nil {
		t.Fatal(err)
	}
	from := time.Now().UTC().Add(-3 * time.Hour).Format(time.RFC3339)
	to := time.Now().UTC().Format(time.RFC3339)
	got := data[struct {
		FindingTrend []struct {
			AuditID string
			Total   int
			Groups  []struct {
				Severity string
				Count    int
			}
		}
	}](t, e.gql(t, e.tokA, `query($from: Time!, $to: Time!) { findingTrend(from: $from, to: $to, groupBy: [SEVERITY]) { auditId total groups { severity count } } }`,
		map[string]any{"from": from, "to": to}))
	var ids []string
	var totals []int
	for _, p := range got.FindingTrend {
		ids, totals = append(ids, p.AuditID), append(totals, p.Total)
		sum := 0
		for _, g := range p.Groups {
			sum += g.Count
		}
		if sum != p.Total {
			t.Errorf("%s: groups sum to %d, total %d", p.AuditID, sum, p.Total)
		}
	}
	if diff := cmp.Diff([]string{e.a.Audit.ID, later.ID}, ids); diff != "" {
		t.Errorf("points (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{40, 25}, totals); diff != "" {
		t.Errorf("totals (-want +got):\n%s", diff)
	}
}
