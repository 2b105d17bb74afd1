package graph_test

import (
	"net/http"
	"testing"

	"github.com/fourd-dev/fourd/graph"
	"github.com/fourd-dev/fourd/rest"
)

// GraphQL answers carry the X-RateLimit-* headers like /v1: a caller's
// token budget, or, without a valid token, its address's.
func TestGraphQLRateLimitHeaders(t *testing.T) {
	l, err := rest.NewRateLimiter(rest.RateLimitConfig{TokenRate: 7, AnonymousRate: 4})
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, envOptions{graph: func(c *graph.Config) { c.Limiter = l }})
	for _, c := range []struct {
		name, token string
		status      int
		limit       string
	}{
		{"token", e.tokA, http.StatusOK, "7"},
		{"no token", "", http.StatusUnauthorized, "4"},
		{"bad token", "fdp_not_a_valid_token_at_all_0000", http.StatusUnauthorized, "4"},
	} {
		r := e.gql(t, c.token, `{ __typename }`, nil)
		if r.status != c.status || r.header.Get("X-RateLimit-Limit") != c.limit || r.header.Get("X-RateLimit-Remaining") == "" {
			t.Errorf("%s: %d, X-RateLimit-Limit %q, Remaining %q; want %d and %s", c.name, r.status,
				r.header.Get("X-RateLimit-Limit"), r.header.Get("X-RateLimit-Remaining"), c.status, c.limit)
		}
	}
}
