package gate

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

func TestBearer(t *testing.T) {
	tests := []struct {
		name   string
		header []string
		want   string
		ok     bool
	}{
		{"plain", []string{"Bearer fdp_abc"}, "fdp_abc", true},
		{"lower-case scheme", []string{"bearer fdp_abc"}, "fdp_abc", true},
		{"extra spaces", []string{"Bearer   fdp_abc"}, "fdp_abc", true},
		{"missing", nil, "", false},
		{"basic", []string{"Basic YTpi"}, "", false},
		{"scheme only", []string{"Bearer"}, "", false},
		{"empty token", []string{"Bearer "}, "", false},
		{"two tokens", []string{"Bearer a b"}, "", false},
		{"tab inside", []string{"Bearer \tfdp_abc"}, "", false},
		{"two headers", []string{"Bearer a", "Bearer a"}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.Header["Authorization"] = tt.header
			got, ok := Bearer(r)
			if got != tt.want || ok != tt.ok {
				t.Errorf("Bearer = %q, %v; want %q, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

// tokens knows one token; "down" answers unavailable.
type tokens struct{ deadline bool }

func (a *tokens) Authenticate(ctx context.Context, token string) (engine.Principal, error) {
	_, a.deadline = ctx.Deadline()
	switch token {
	case "good":
		return engine.Principal{TenantID: "ten_1", UserID: "usr_1", TokenID: "tok_1",
			Scopes: []engine.Scope{engine.ScopeFindingsRead}}, nil
	case "down":
		return engine.Principal{}, engine.Errorf(engine.CodeUnavailable, "postgres is not answering")
	}
	return engine.Principal{}, engine.Errorf(engine.CodeUnauthorized, "unknown token")
}

// budget lets limit requests through per principal ("" is the address).
type budget struct {
	limit int
	used  map[string]int
}

func (b *budget) Allow(_ *http.Request, p engine.Principal, h http.Header) error {
	b.used[p.TokenID]++
	h.Set("X-RateLimit-Limit", "2")
	if b.used[p.TokenID] > b.limit {
		return engine.Errorf(engine.CodeRateLimited, "slow down")
	}
	return nil
}

func TestAdmit(t *testing.T) {
	ids := &tokens{}
	lim := &budget{limit: 2, used: map[string]int{}}
	var observed []string
	g := &Gate{Identity: ids, Limiter: lim, Timeout: time.Second,
		Observe: func(_ time.Duration, err error) { observed = append(observed, engine.ErrorCode(err)) }}
	req := func(ctx context.Context, auth string) *http.Request {
		r := httptest.NewRequest("GET", "/", nil).WithContext(ctx)
		if auth != "" {
			r.Header.Set("Authorization", auth)
		}
		return r
	}
	admit := func(r *http.Request) (context.Context, engine.Principal, string, http.Header) {
		h := http.Header{}
		ctx, p, err := g.Admit(r, h)
		return ctx, p, engine.ErrorCode(err), h
	}

	ctx, p, code, h := admit(req(context.Background(), "Bearer good"))
	if code != "" || p.TokenID != "tok_1" || engine.PrincipalFromContext(ctx).TokenID != "tok_1" || h.Get("X-RateLimit-Limit") != "2" {
		t.Errorf("good token: %v %q %v, context %v", p, code, h, engine.PrincipalFromContext(ctx))
	}
	if !ids.deadline {
		t.Error("the token check had no deadline with Timeout set")
	}
	// A caller an outer layer admitted is not authenticated again, and
	// still counts against its budget.
	outer := engine.ContextWithPrincipal(context.Background(), p)
	if _, got, code, _ := admit(req(outer, "")); code != "" || got.TokenID != "tok_1" {
		t.Errorf("outer principal: %v %q", got, code)
	}
	if _, _, code, _ := admit(req(outer, "")); code != engine.CodeRateLimited {
		t.Errorf("third request of tok_1: %q, want rate_limited", code)
	}
	// Missing and unknown tokens count against the address, then are
	// rate_limited; an unavailable check is answered as it is, uncounted.
	for i, c := range []struct{ auth, want string }{
		{"", engine.CodeUnauthorized}, {"Bearer nope", engine.CodeUnauthorized},
		{"Bearer down", engine.CodeUnavailable}, {"Basic YTpi", engine.CodeRateLimited},
	} {
		ctx, p, code, h := admit(req(context.Background(), c.auth))
		if code != c.want || p.Authenticated() || engine.PrincipalFromContext(ctx).Authenticated() {
			t.Errorf("%d %q: %q %v, want %q and no caller", i, c.auth, code, p, c.want)
		}
		if c.want != engine.CodeUnavailable && h.Get("X-RateLimit-Limit") == "" {
			t.Errorf("%q: no rate-limit headers", c.auth)
		}
	}
	if lim.used[""] != 3 {
		t.Errorf("address counted %d times, want 3", lim.used[""])
	}
	if want := []string{"", engine.CodeUnauthorized, engine.CodeUnavailable}; len(observed) != 3 || observed[0] != want[0] || observed[1] != want[1] || observed[2] != want[2] {
		t.Errorf("observed %v, want %v", observed, want)
	}
	// Without an Identity only an outer layer's caller gets in.
	g = &Gate{}
	if _, _, code, _ := admit(req(context.Background(), "Bearer good")); code != engine.CodeUnauthorized {
		t.Errorf("no Identity: %q", code)
	}
	if _, _, code, _ := admit(req(outer, "")); code != "" {
		t.Errorf("no Identity, outer caller: %q", code)
	}
}

func TestWithRequestID(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	w := httptest.NewRecorder()
	ctx := WithRequestID(w, httptest.NewRequest("GET", "/", nil), now)
	id := engine.RequestIDFromContext(ctx)
	if !engine.ValidID(engine.PrefixRequest, id) || w.Header().Get("X-Request-Id") != id {
		t.Errorf("new id %q, header %q", id, w.Header().Get("X-Request-Id"))
	}
	// An id given by an outer layer is kept.
	w2 := httptest.NewRecorder()
	r := httptest.NewRequest("GET", "/", nil).WithContext(ctx)
	if got := engine.RequestIDFromContext(WithRequestID(w2, r, now)); got != id || w2.Header().Get("X-Request-Id") != id {
		t.Errorf("outer id: %q, header %q; want %q", got, w2.Header().Get("X-Request-Id"), id)
	}
}
