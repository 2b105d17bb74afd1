package graph_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/rest"
)

// Issue 28: documents are measured before gqlgen validates them, whose
// time grows quadratically with repeated fields; a comment that makes a
// document new to the query cache changes nothing.
func TestDocumentLimitsBeforeValidation(t *testing.T) {
	e := newEnv(t, envOptions{findingsA: 2})
	ids := func(n int) string { return strings.TrimSpace(strings.Repeat("id ", n)) }
	tests := []struct {
		name, query, msg string
	}{
		{"20,000 repeated fields (60 KB)", `{ findings(first: 1) { edges { node { ` + ids(20000) + ` } } } }`,
			"the query is %d bytes, over the limit of 32768"},
		{"5,000 repeated fields", `{ findings(first: 1) { edges { node { ` + ids(5000) + ` } } } }`,
			"the query selects 5003 fields, over the limit of 1000 (aliases and repeated fields count)"},
		{"fields in a fragment", `query { findings(first: 1) { edges { node { ...F } } } } fragment F on Finding { ` + ids(1200) + ` }`,
			"the query selects 1203 fields, over the limit of 1000 (aliases and repeated fields count)"},
		{"aliases", `{ ` + aliases(1001, "__typename") + ` }`,
			"the query selects 1001 fields, over the limit of 1000 (aliases and repeated fields count)"},
		{"11 mutations", `mutation { ` + aliases(11, `cancelAudit(id: "aud_x") { id }`) + ` }`,
			"the request runs 11 mutations, over the limit of 10 a request"},
		{"mutations through fragments", `mutation { ...M ... on Mutation { ` + aliases(6, `cancelAudit(id: "aud_x") { id }`) + ` } } fragment M on Mutation { ` + aliases(5, `cancelAudit(id: "aud_y") { id }`) + ` }`,
			"the request runs 11 mutations, over the limit of 10 a request"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i := range 3 {
				// A different trailing comment each time: new to the cache.
				q := tt.query + fmt.Sprintf("\n# %d", i)
				start := time.Now()
				r := e.gql(t, e.tokA, q, nil)
				took := time.Since(start)
				msg := tt.msg
				if strings.Contains(msg, "%d") {
					msg = fmt.Sprintf(msg, len(q))
				}
				if r.code() != "query_too_complex" || len(r.Errors) != 1 || r.Errors[0].Message != msg || r.Data != nil {
					t.Fatalf("%d %+v %s; want query_too_complex: %s, no data", r.status, r.Errors, r.Data, msg)
				}
				t.Logf("refused in %s", took)
			}
		})
	}
	// Clean twins: the limits leave room for ordinary documents.
	q := `{ findings(first: 2) { edges { node { ` + ids(900) + ` } } } }`
	if r := e.gql(t, e.tokA, q, nil); len(r.Errors) != 0 {
		t.Errorf("900 fields: %+v", r.Errors)
	}
	if r := e.gql(t, e.tokA, `mutation { `+aliases(10, `cancelAudit(id: "aud_x") { id }`)+` }`, nil); len(r.Errors) != 10 || r.code() != "not_found" {
		t.Errorf("10 mutations: want each to run and answer not_found; got %+v", r.Errors)
	}
}

// aliases repeats field under n aliases.
func aliases(n int, field string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "a%d: %s ", i, field)
	}
	return b.String()
}

// Issue 28: five aliased startAudit mutations each get their own answer:
// one audit, four conflicts on their own fields, and data is not null.
func TestAliasedStartAuditsAnswerEachField(t *testing.T) {
	e := newEnv(t, envOptions{findingsA: 1})
	r := e.gql(t, e.tokA, `mutation { `+aliases(5, `startAudit { id status }`)+` }`, nil)
	var got map[string]*struct{ ID, Status string }
	if err := json.Unmarshal(r.Data, &got); err != nil || len(got) != 5 {
		t.Fatalf("data = %s (%v); want five fields", r.Data, err)
	}
	started := 0
	for i := range 5 {
		if a := got[fmt.Sprintf("a%d", i)]; a != nil && a.Status == "QUEUED" {
			started++
		}
	}
	conflicts := map[string]bool{}
	for _, er := range r.Errors {
		if er.Extensions["code"] == "conflict" && len(er.Path) == 1 {
			conflicts[fmt.Sprint(er.Path[0])] = true
		}
	}
	if started != 1 || len(conflicts) != 4 || len(r.Errors) != 4 {
		t.Errorf("%d audits started, conflicts on %v, errors %+v; want 1 and 4 conflicts", started, conflicts, r.Errors)
	}
}

// Issue 28: heavy mutations draw on the heavy budget REST's heavy
// endpoints use, each alias once.
func TestHeavyMutationsShareRESTBudget(t *testing.T) {
	l, err := rest.NewRateLimiter(rest.RateLimitConfig{HeavyRate: 3})
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, envOptions{findingsA: 1, limiter: l})
	mutation := fmt.Sprintf(`mutation { %s }`, aliases(5, fmt.Sprintf(`reanalyzeAudit(id: %q) { id }`, e.a.Audit.ID)))
	r := e.gql(t, e.tokA, mutation, nil)
	codes := map[string]string{}
	for _, er := range r.Errors {
		codes[fmt.Sprint(er.Path...)], _ = er.Extensions["code"].(string)
	}
	want := map[string]string{"a1": "conflict", "a2": "conflict", "a3": "rate_limited", "a4": "rate_limited"}
	if fmt.Sprint(codes) != fmt.Sprint(want) || !strings.Contains(string(r.Data), `"a0":{"id":"aud_`) {
		t.Fatalf("codes by field %v, data %s; want %v and a0 queued", codes, r.Data, want)
	}
	// The budget is spent for REST too.
	req, _ := http.NewRequest(http.MethodPost, e.url+"/v1/audits", nil)
	req.Header.Set("Authorization", "Bearer "+e.tokA)
	resp, err := e.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Errorf("POST /v1/audits after three GraphQL heavy operations: %d, want 429", resp.StatusCode)
	}
	// Another token of the tenant has its own budget (it gets conflict,
	// not rate_limited: an audit is queued).
	if r := e.gql(t, e.tokB, `mutation { startAudit { id } }`, nil); len(r.Errors) != 0 {
		t.Errorf("tenant B's token: %+v", r.Errors)
	}
}
