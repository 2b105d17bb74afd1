package rest

import (
	"net/http"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// REST reads the caller where engine and graph do (engine's context key,
// internal/gate): a caller an outer layer authenticated is served without
// a token, as that caller, and still counted against its rate limit; the
// request id REST quotes is the one in engine's context.
func TestGateOuterPrincipal(t *testing.T) {
	var seenID string
	e := newEnv(t, envOptions{findingsA: 3, findingsB: 2, server: func(s *http.Server) {
		inner := s.Handler
		s.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if tenant := r.Header.Get("X-Test-Outer-Tenant"); tenant != "" {
				p := engine.Principal{TenantID: tenant, UserID: "usr_outer", TokenID: "tok_outer",
					Scopes: []engine.Scope{engine.ScopeFindingsRead}}
				r = r.WithContext(engine.ContextWithPrincipal(r.Context(), p))
			}
			inner.ServeHTTP(w, r)
			seenID = w.Header().Get("X-Request-Id")
		})
	}})
	got := func(tenant string) response {
		return do(t, e.client, "GET", e.url+"/v1/findings", "", nil, http.Header{"X-Test-Outer-Tenant": {tenant}})
	}
	r := got(e.b.ID)
	if r.status != 200 {
		t.Fatalf("outer caller of tenant B: %d %s", r.status, r.body)
	}
	for _, f := range e.a.Findings {
		if strings.Contains(string(r.body), f.ID) {
			t.Fatalf("tenant B's outer caller sees A's finding %s", f.ID)
		}
	}
	if !strings.Contains(string(r.body), e.b.Findings[0].ID) {
		t.Errorf("tenant B's outer caller does not see B's findings: %s", r.body)
	}
	if seenID == "" || r.header.Get("X-Request-Id") != seenID {
		t.Errorf("X-Request-Id %q, outer layer saw %q", r.header.Get("X-Request-Id"), seenID)
	}
	// The outer caller holds findings:read only.
	wantError(t, do(t, e.client, "GET", e.url+"/v1/resources", "", nil, http.Header{"X-Test-Outer-Tenant": {e.b.ID}}),
		403, engine.CodeInsufficientScope)
	// Without it, the request needs a token as before.
	wantError(t, e.get(t, "/v1/findings", ""), 401, engine.CodeUnauthorized)
}
