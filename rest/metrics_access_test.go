package rest

import (
	"net/http"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// Issue 28: /metrics on the API address is served only when configured,
// and then only to the metrics token; every refusal is in the envelope.
func TestMetricsOnAPIBehindToken(t *testing.T) {
	const token = "metrics-token-0123456789"
	e := newEnv(t, envOptions{config: func(c *Config) { c.MetricsToken = token }})
	wantError(t, e.get(t, "/metrics", ""), 401, engine.CodeUnauthorized)
	wantError(t, e.get(t, "/metrics", "metrics-token-wrong-00000"), 401, engine.CodeUnauthorized)
	wantError(t, e.get(t, "/metrics", e.tokA), 401, engine.CodeUnauthorized) // an API token is not the metrics token
	r := e.get(t, "/metrics", token)
	if r.status != http.StatusOK || !strings.Contains(string(r.body), "fourd_http_requests_total") {
		t.Errorf("with the token: %d %.200s", r.status, r.body)
	}

	off := newEnv(t, envOptions{config: func(c *Config) { c.MetricsOnAPI = false }})
	wantError(t, off.get(t, "/metrics", ""), 404, engine.CodeNotFound)
}
