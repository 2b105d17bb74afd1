package rest

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"strconv"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// wantLimit checks a response's rate limit headers.
func wantLimit(t *testing.T, what string, r response, policy string, limit, remaining int) {
	t.Helper()
	h := r.header
	if got := h.Get("X-RateLimit-Limit"); got != strconv.Itoa(limit) {
		t.Errorf("%s: X-RateLimit-Limit = %q, want %d", what, got, limit)
	}
	if got := h.Get("X-RateLimit-Remaining"); got != strconv.Itoa(remaining) {
		t.Errorf("%s: X-RateLimit-Remaining = %q, want %d", what, got, remaining)
	}
	if reset, err := strconv.ParseInt(h.Get("X-RateLimit-Reset"), 10, 64); err != nil || reset < 1_700_000_000 {
		t.Errorf("%s: X-RateLimit-Reset = %q, want Unix seconds", what, h.Get("X-RateLimit-Reset"))
	}
	if got, want := h.Get("RateLimit-Policy"), `"`+policy+`";q=`+strconv.Itoa(limit)+`;w=60`; got != want {
		t.Errorf("%s: RateLimit-Policy = %q, want %q", what, got, want)
	}
	if got, want := h.Get("RateLimit"), `"`+policy+`";r=`+strconv.Itoa(remaining)+`;t=`; len(got) <= len(want) || got[:len(want)] != want {
		t.Errorf("%s: RateLimit = %q, want %s…", what, got, want)
	}
}

func newTestLimiter(t *testing.T, cfg RateLimitConfig) *RateLimiter {
	t.Helper()
	l, err := NewRateLimiter(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestRateLimits checks the per-token, heavy, per-token-custom and
// per-address budgets with the in-memory store, and the headers on
// successes and errors alike.
func TestRateLimits(t *testing.T) {
	t.Parallel()
	// GET /v1/audits stands in for the heavy endpoints, which this test
	// reaches through the same mechanism (the route's pattern).
	l := newTestLimiter(t, RateLimitConfig{TokenRate: 5, HeavyRate: 2, AnonymousRate: 3, HeavyRoutes: []string{"GET /v1/audits"}})
	e := newIdentityEnv(t, idOptions{limiter: l})
	t.Run("per token", func(t *testing.T) {
		for i := range 5 {
			r := e.get(t, "/v1/findings", e.tokA)
			if r.status != http.StatusOK {
				t.Fatalf("request %d: %d", i+1, r.status)
			}
			wantLimit(t, "request "+strconv.Itoa(i+1), r, "token", 5, 4-i)
		}
		r := e.get(t, "/v1/findings", e.tokA)
		if r.status != http.StatusTooManyRequests || errCode(r.body) != engine.CodeRateLimited {
			t.Fatalf("over the limit: %d %s", r.status, r.body)
		}
		wantLimit(t, "429", r, "token", 5, 0)
		if ra, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || ra < 1 || ra > 60 {
			t.Errorf("Retry-After = %q", r.header.Get("Retry-After"))
		}
	})
	t.Run("errors carry the headers", func(t *testing.T) {
		r := e.get(t, "/v1/findings/fnd_0000000000000000000000000a", e.tokB)
		if r.status != http.StatusNotFound {
			t.Fatalf("status %d", r.status)
		}
		wantLimit(t, "404", r, "token", 5, 4)
	})
	t.Run("heavy endpoints have their own budget", func(t *testing.T) {
		for i := range 2 {
			r := e.get(t, "/v1/audits", e.tokB)
			wantLimit(t, "heavy "+strconv.Itoa(i+1), r, "heavy", 2, 1-i)
		}
		if r := e.get(t, "/v1/audits", e.tokB); r.status != http.StatusTooManyRequests {
			t.Errorf("third heavy request: %d", r.status)
		}
		r := e.get(t, "/v1/resources", e.tokB) // the general budget is untouched
		wantLimit(t, "general after heavy", r, "token", 5, 3)
	})
	t.Run("a token's own rate", func(t *testing.T) {
		r := e.call(t, http.MethodPost, "/v1/tokens", e.tokB, `{"name":"slow","rate_limit":2}`)
		var tok createdToken
		if err := json.Unmarshal(r.body, &tok); err != nil || r.status != http.StatusCreated {
			t.Fatalf("create: %d %s", r.status, r.body)
		}
		wantLimit(t, "own rate", e.get(t, "/v1/findings", tok.Secret), "token", 2, 1)
	})
	t.Run("per address without a valid token", func(t *testing.T) {
		for i, token := range []string{"", "fdp_not_a_valid_token_at_all_0000", ""} {
			r := e.get(t, "/v1/findings", token)
			if r.status != http.StatusUnauthorized {
				t.Fatalf("request %d: %d", i+1, r.status)
			}
			wantLimit(t, "401", r, "address", 3, 2-i)
		}
		r := e.get(t, "/v1/findings", "")
		if r.status != http.StatusTooManyRequests {
			t.Errorf("over the address budget: %d", r.status)
		}
		// The token endpoint draws on the same budget.
		if status, code, r := e.postForm(t, "/oauth/token", map[string][]string{"grant_type": {"authorization_code"}}, nil); status != http.StatusTooManyRequests {
			t.Errorf("/oauth/token over the address budget: %d %s", status, code)
		} else {
			wantLimit(t, "/oauth/token 429", r, "address", 3, 0)
		}
	})
}

// redisURL returns the test Redis, skipping (or failing under CI=true) when
// it does not answer.
func redisURL(t *testing.T) string {
	t.Helper()
	u := os.Getenv("FOURD_TEST_REDIS_URL")
	if u == "" {
		u = "redis://127.0.0.1:56379/0"
	}
	return u
}

func redisStoreOrSkip(t *testing.T) RateLimitConfig {
	t.Helper()
	u := redisURL(t)
	store, closeFn, err := NewRedisLimitStore(context.Background(), u)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("Redis at %s: %v", u, err)
		}
		t.Skipf("Redis at %s is not answering (run make services): %v", u, err)
	}
	t.Cleanup(func() { _ = closeFn() })
	return RateLimitConfig{Store: store}
}

// TestRateLimitsSharedThroughRedis runs two replicas, each with its own
// RateLimiter over the same Redis, and checks that a token's requests
// through both draw on one budget.
func TestRateLimitsSharedThroughRedis(t *testing.T) {
	t.Parallel()
	cfg1, cfg2 := redisStoreOrSkip(t), redisStoreOrSkip(t)
	cfg1.TokenRate, cfg2.TokenRate = 6, 6
	e := newIdentityEnv(t, idOptions{limiter: newTestLimiter(t, cfg1)})
	other := e.replica(t, newTestLimiter(t, cfg2))
	for i := range 6 {
		base := e.url
		if i%2 == 1 {
			base = other
		}
		r := do(t, e.client, http.MethodGet, base+"/v1/findings", e.tokA, nil, nil)
		if r.status != http.StatusOK {
			t.Fatalf("request %d: %d", i+1, r.status)
		}
		wantLimit(t, "request "+strconv.Itoa(i+1), r, "token", 6, 5-i)
	}
	for _, base := range []string{e.url, other} {
		r := do(t, e.client, http.MethodGet, base+"/v1/findings", e.tokA, nil, nil)
		if r.status != http.StatusTooManyRequests {
			t.Errorf("over the shared budget: %d", r.status)
		}
	}
	// Another token still has its whole budget.
	wantLimit(t, "other token", do(t, e.client, http.MethodGet, other+"/v1/findings", e.tokB, nil, nil), "token", 6, 5)
}

// Every response carries the X-RateLimit-* headers (the spec's Limits),
// also the public endpoints and what no route takes: they count against
// the caller's address.
func TestEveryResponseCarriesRateLimitHeaders(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, idOptions{limiter: newTestLimiter(t, RateLimitConfig{AnonymousRate: 50})})
	for i, c := range []struct {
		method, path string
		status       int
	}{
		{http.MethodGet, "/healthz", http.StatusOK},
		{http.MethodGet, "/readyz", http.StatusOK},
		{http.MethodGet, "/v1/openapi.json", http.StatusOK},
		{http.MethodGet, "/v1/nothing-here", http.StatusNotFound},
		{http.MethodGet, "/v1//findings", http.StatusNotFound},
		{http.MethodPut, "/v1/findings", http.StatusMethodNotAllowed},
	} {
		r := e.call(t, c.method, c.path, "", "")
		if r.status != c.status {
			t.Fatalf("%s %s: %d, want %d", c.method, c.path, r.status, c.status)
		}
		wantLimit(t, c.method+" "+c.path, r, "address", 50, 49-i)
	}
}
