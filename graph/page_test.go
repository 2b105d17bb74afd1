package graph_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/rest"
)

// Issue 28: GraphiQL's page and assets count against the caller's address
// like other anonymous requests, and every error is in the envelope.
func TestGraphiQLPageLimitedAndEnveloped(t *testing.T) {
	l, err := rest.NewRateLimiter(rest.RateLimitConfig{AnonymousRate: 4})
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, envOptions{findingsA: 1, limiter: l})
	get := func(method, path string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest(method, e.url+path, nil)
		req.Header.Set("Accept", "text/html")
		resp, err := e.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	envelope := func(name string, resp *http.Response, body []byte, status int, code string) {
		t.Helper()
		var env struct {
			Error struct {
				Code, Message string
				RequestID     string `json:"request_id"`
			} `json:"error"`
		}
		if resp.StatusCode != status || json.Unmarshal(body, &env) != nil || env.Error.Code != code || env.Error.Message == "" ||
			env.Error.RequestID == "" || env.Error.RequestID != resp.Header.Get("X-Request-Id") ||
			!strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
			t.Errorf("%s: %d %s %q; want %d and the envelope with code %s", name, resp.StatusCode, resp.Header.Get("Content-Type"), body, status, code)
		}
	}
	resp, body := get("GET", "/graphql")
	if resp.StatusCode != 200 || !strings.Contains(string(body), "GraphiQL") || resp.Header.Get("X-RateLimit-Limit") != "4" {
		t.Fatalf("page: %d, X-RateLimit-Limit %q", resp.StatusCode, resp.Header.Get("X-RateLimit-Limit"))
	}
	resp, body = get("GET", "/graphql/assets/missing.js")
	envelope("missing asset", resp, body, 404, "not_found")
	resp, body = get("GET", "/graphql/assets/nested/graphiql.min.js")
	envelope("nested asset path", resp, body, 404, "not_found")
	resp, body = get("POST", "/graphql/assets/graphiql.min.js")
	envelope("POST to an asset", resp, body, 405, "method_not_allowed")
	if resp.Header.Get("Allow") != "GET, HEAD" {
		t.Errorf("Allow = %q", resp.Header.Get("Allow"))
	}
	resp, body = get("GET", "/graphql/assets/graphiql.min.css")
	envelope("fifth request from the address", resp, body, 429, "rate_limited")
}
