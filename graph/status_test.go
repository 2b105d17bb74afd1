package graph_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/graph"
	"github.com/fourd-dev/fourd/rest"
)

// TestStatusCodesByMediaType checks the status of every kind of answer
// against the GraphQL-over-HTTP specification, for both response media
// types: a request that is not well-formed is 400 in both; a well-formed
// one that fails before execution is 200 under application/json and 400
// (no data entry) under application/graphql-response+json; an executed one
// is 200 in both, field errors or not; the Content-Type is the negotiated
// type. (Before issue 32, validation errors were 422 and cost and depth
// errors 200 whatever the Accept header.)
func TestStatusCodesByMediaType(t *testing.T) {
	e := newEnv(t, envOptions{findingsA: 3})
	deep := `{ findings(first: 1) { edges { node { resource { findings(first: 1) { edges { node { resource {
		findings(first: 1) { edges { node { resource { id } } } } } } } } } } } } }`
	const (
		jsonMT = "application/json"
		gqlMT  = "application/graphql-response+json"
	)
	request := statusWant{json: 200, gql: 400}
	malformed := statusWant{json: 400, gql: 400, code: "invalid_request"}
	for _, tc := range []struct {
		name, body string
		get        bool
		want       statusWant
	}{
		{"query", `{"query":"{ __typename }"}`, false, statusWant{json: 200, gql: 200, data: true}},
		{"null parameters", `{"query":"{ __typename }","variables":null,"operationName":null,"extensions":null}`, false, statusWant{json: 200, gql: 200, data: true}},
		{"field error", `{"query":"{ finding(id: \"fnd_00000000000000000000000000\") { id } }"}`, false, statusWant{json: 200, gql: 200, code: "not_found", data: true}},
		{"syntax error", `{"query":"{"}`, false, with(request, "invalid_request")},
		{"unknown field", `{"query":"{ bogus }"}`, false, with(request, "invalid_request")},
		{"unknown operation name", `{"query":"query A { __typename }","operationName":"B"}`, false, with(request, "invalid_request")},
		{"variable coercion", `{"query":"query($n: Int!) { findings(first: $n) { totalCount } }","variables":{"n":"ten"}}`, false, with(request, "invalid_request")},
		{"too complex", `{"query":"{ resources(first: 200) { edges { node { findings(first: 200) { edges { node { id title } } } } } } }"}`, false, with(request, "query_too_complex")},
		{"too deep", `{"query":` + quote(deep) + `}`, false, with(request, "query_too_deep")},
		{"unknown persisted query", `{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"` + strings.Repeat("ab", 32) + `"}}}`, false, with(request, "PERSISTED_QUERY_NOT_FOUND")},
		{"persisted query hash mismatch", `{"query":"{ __typename }","extensions":{"persistedQuery":{"version":1,"sha256Hash":"` + strings.Repeat("ab", 32) + `"}}}`, false, with(request, "PERSISTED_QUERY_HASH_MISMATCH")},
		{"persisted query version", `{"extensions":{"persistedQuery":{"version":2,"sha256Hash":"` + strings.Repeat("ab", 32) + `"}}}`, false, with(request, "invalid_request")},
		{"JSON parse failure", `{"query":`, false, malformed},
		{"no query", `{"qeury":"{ __typename }"}`, false, malformed},
		{"query not a string", `{"query":7}`, false, malformed},
		{"operationName not a string", `{"query":"{ __typename }","operationName":false}`, false, malformed},
		{"variables not an object", `{"query":"{ __typename }","variables":[7]}`, false, malformed},
		{"extensions not an object", `{"query":"{ __typename }","extensions":"x"}`, false, malformed},
		{"GET query", `{ __typename }`, true, statusWant{json: 200, gql: 200, data: true}},
		{"GET syntax error", `{`, true, with(request, "invalid_request")},
		{"GET mutation", `mutation { startAudit { id } }`, true, statusWant{json: 405, gql: 405, code: "method_not_allowed"}},
	} {
		for _, mt := range []string{jsonMT, gqlMT} {
			t.Run(tc.name+"/"+mt, func(t *testing.T) {
				var req *http.Request
				if tc.get {
					req, _ = http.NewRequest(http.MethodGet, e.url+"/graphql?query="+url.QueryEscape(tc.body), nil)
				} else {
					req, _ = http.NewRequest(http.MethodPost, e.url+"/graphql", strings.NewReader(tc.body))
					req.Header.Set("Content-Type", "application/json")
				}
				req.Header.Set("Accept", mt)
				r := e.send(t, req, e.tokA)
				status := tc.want.json
				if mt == gqlMT {
					status = tc.want.gql
				}
				if r.status != status || r.code() != tc.want.code || (r.Data != nil) != tc.want.data {
					t.Errorf("status %d code %q data %s; want %d %q data=%v", r.status, r.code(), r.Data, status, tc.want.code, tc.want.data)
				}
				if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, mt+";") && ct != mt {
					t.Errorf("Content-Type %q, want %s", ct, mt)
				}
			})
		}
	}
	t.Run("requests refused before GraphQL", func(t *testing.T) {
		big := `{"query":"{ __typename }","variables":{"pad":"` + strings.Repeat("x", 1<<20) + `"}}`
		long := `{"query":"{ __typename ` + strings.Repeat("# padding\\n", 4000) + `}"}`
		for _, tc := range []struct {
			name, method, contentType, body string
			json, gql                       int
			code                            string
		}{
			{"wrong Content-Type", http.MethodPost, "text/plain", `{"query":"{ __typename }"}`, 400, 400, "invalid_request"},
			{"method PUT", http.MethodPut, "application/json", `{"query":"{ __typename }"}`, 405, 405, "method_not_allowed"},
			{"body over 1 MiB", http.MethodPost, "application/json", big, 413, 413, "payload_too_large"},
			{"document over the size limit", http.MethodPost, "application/json", long, 200, 400, "query_too_complex"},
		} {
			for _, mt := range []string{jsonMT, gqlMT} {
				req, _ := http.NewRequest(tc.method, e.url+"/graphql", strings.NewReader(tc.body))
				req.Header.Set("Content-Type", tc.contentType)
				req.Header.Set("Accept", mt)
				r := e.send(t, req, e.tokA)
				status := tc.json
				if mt == gqlMT {
					status = tc.gql
				}
				if r.status != status || r.code() != tc.code || r.Data != nil {
					t.Errorf("%s under %s: status %d code %q data %s; want %d %s", tc.name, mt, r.status, r.code(), r.Data, status, tc.code)
				}
			}
		}
	})
	t.Run("no token", func(t *testing.T) {
		for _, mt := range []string{jsonMT, gqlMT} {
			req, _ := http.NewRequest(http.MethodPost, e.url+"/graphql", strings.NewReader(`{"query":"{ __typename }"}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", mt)
			if r := e.send(t, req, ""); r.status != 401 || r.code() != "unauthorized" || r.Data != nil {
				t.Errorf("%s: status %d code %q", mt, r.status, r.code())
			}
		}
	})
	for _, tc := range []struct{ accept, media string }{
		{"", gqlMT}, // the specification's default since 2025
		{"*/*", jsonMT},
		{"application/graphql-response+json, application/json;q=0.9", gqlMT},
		{"application/json, application/graphql-response+json;q=0.5", jsonMT},
		{"text/html, */*;q=0.8", jsonMT},
	} {
		t.Run(fmt.Sprintf("Accept %q", tc.accept), func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodPost, e.url+"/graphql", strings.NewReader(`{"query":"{ bogus }"}`))
			req.Header.Set("Content-Type", "application/json")
			if tc.accept != "" {
				req.Header.Set("Accept", tc.accept)
			}
			r := e.send(t, req, e.tokA)
			status := map[string]int{jsonMT: 200, gqlMT: 400}[tc.media]
			if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, tc.media) || r.status != status {
				t.Errorf("Content-Type %q status %d, want %s and %d", ct, r.status, tc.media, status)
			}
		})
	}
	t.Run("not acceptable", func(t *testing.T) {
		req, _ := http.NewRequest(http.MethodPost, e.url+"/graphql", strings.NewReader(`{"query":"{ __typename }"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "text/plain")
		if r := e.send(t, req, e.tokA); r.status != http.StatusNotAcceptable || r.code() != "not_acceptable" {
			t.Errorf("status %d code %q", r.status, r.code())
		}
	})
}

// TestStatusCostBudgetSpent: an operation the caller's query-cost budget
// no longer covers is refused before execution: 200 with rate_limited under
// application/json, 429 under application/graphql-response+json.
func TestStatusCostBudgetSpent(t *testing.T) {
	e := newEnv(t, envOptions{graph: func(c *graph.Config) { c.CostBudget = graph.NewCostBudget(3) }})
	for _, tc := range []struct {
		accept string
		status int
	}{{"application/json", 200}, {"application/graphql-response+json", 429}} {
		req, _ := http.NewRequest(http.MethodPost, e.url+"/graphql", strings.NewReader(`{"query":"{ findingStats { total } }"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", tc.accept)
		if r := e.send(t, req, e.tokA); r.status != tc.status || r.code() != "rate_limited" || r.Data != nil {
			t.Errorf("%s: status %d code %q data %s; want %d rate_limited", tc.accept, r.status, r.code(), r.Data, tc.status)
		}
	}
}

// statusWant is what a request answers under each media type.
type statusWant struct {
	json, gql int    // status under application/json and graphql-response+json
	code      string // the first error's code; "" for none
	data      bool   // the answer has a data entry
}

// with is w with the error code c.
func with(w statusWant, c string) statusWant {
	w.code = c
	return w
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestStatusRequestRateSpent: a request over the token's request rate is
// 429 with Retry-After under both media types, before GraphQL runs.
func TestStatusRequestRateSpent(t *testing.T) {
	l, err := rest.NewRateLimiter(rest.RateLimitConfig{TokenRate: 1, AnonymousRate: 1})
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, envOptions{graph: func(c *graph.Config) { c.Limiter = l }})
	for i, accept := range []string{"application/json", "application/json", "application/graphql-response+json"} {
		req, _ := http.NewRequest(http.MethodPost, e.url+"/graphql", strings.NewReader(`{"query":"{ __typename }"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", accept)
		r := e.send(t, req, e.tokA)
		want := http.StatusTooManyRequests
		if i == 0 {
			want = http.StatusOK
		}
		if r.status != want || (want == 429 && (r.code() != "rate_limited" || r.header.Get("Retry-After") == "")) {
			t.Errorf("request %d (%s): status %d code %q Retry-After %q; want %d", i+1, accept, r.status, r.code(), r.header.Get("Retry-After"), want)
		}
	}
}
