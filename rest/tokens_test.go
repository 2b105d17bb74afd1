package rest

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/identity"
)

// TestTokensAPI creates, lists and revokes personal access tokens over
// /v1/tokens, with the scope rules and every bad input.
func TestTokensAPI(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, idOptions{})
	r := e.call(t, http.MethodPost, "/v1/tokens", e.tokA, `{"name":"ci","scopes":["findings:read"],"rate_limit":100}`)
	if r.status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	var created createdToken
	if err := json.Unmarshal(r.body, &created); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(created.Secret, identity.TokenPrefix) || r.header.Get("Cache-Control") != "no-store" {
		t.Errorf("secret %q, Cache-Control %q", created.Secret, r.header.Get("Cache-Control"))
	}
	if diff := cmp.Diff([]engine.Scope{engine.ScopeFindingsRead}, created.Scopes); diff != "" {
		t.Errorf("scopes (-want +got):\n%s", diff)
	}
	if r := e.get(t, "/v1/findings", created.Secret); r.status != http.StatusOK {
		t.Errorf("new token on its scope: %d", r.status)
	}
	if r := e.get(t, "/v1/resources", created.Secret); r.status != http.StatusForbidden {
		t.Errorf("new token off its scope: %d", r.status)
	}
	list := e.get(t, "/v1/tokens", e.tokA)
	if list.status != http.StatusOK || !strings.Contains(string(list.body), created.ID) || strings.Contains(string(list.body), created.Secret) {
		t.Errorf("list: %d %.300s", list.status, list.body)
	}
	if r := e.call(t, http.MethodDelete, "/v1/tokens/"+created.ID, e.tokA, ""); r.status != http.StatusNoContent {
		t.Fatalf("revoke: %d %s", r.status, r.body)
	}
	// Same replica: the next request already fails.
	if r := e.get(t, "/v1/findings", created.Secret); r.status != http.StatusUnauthorized {
		t.Errorf("revoked token on the replica that revoked it: %d", r.status)
	}

	bad := []struct {
		name, method, path, token, body string
		status                          int
		code                            string
	}{
		{"viewer lacks tokens:write", "POST", "/v1/tokens", e.tokViewerA, `{"name":"x"}`, 403, engine.CodeInsufficientScope},
		{"viewer cannot list", "GET", "/v1/tokens", e.tokViewerA, "", 403, engine.CodeInsufficientScope},
		{"no name", "POST", "/v1/tokens", e.tokA, `{"scopes":["findings:read"]}`, 422, engine.CodeValidationFailed},
		{"unknown scope", "POST", "/v1/tokens", e.tokA, `{"name":"x","scopes":["root"]}`, 422, engine.CodeValidationFailed},
		{"past expiry", "POST", "/v1/tokens", e.tokA, `{"name":"x","expires_at":"2001-01-01T00:00:00Z"}`, 422, engine.CodeValidationFailed},
		{"rate above the default", "POST", "/v1/tokens", e.tokA, `{"name":"x","rate_limit":5000}`, 422, engine.CodeValidationFailed},
		{"unknown field", "POST", "/v1/tokens", e.tokA, `{"name":"x","admin":true}`, 422, engine.CodeValidationFailed},
		{"malformed JSON", "POST", "/v1/tokens", e.tokA, `{"name":`, 400, engine.CodeInvalidRequest},
		{"revoke unknown", "DELETE", "/v1/tokens/pat_0000000000000000000000000a", e.tokA, "", 404, engine.CodeNotFound},
		{"revoke malformed id", "DELETE", "/v1/tokens/nope", e.tokA, "", 404, engine.CodeNotFound},
		{"client without redirect", "POST", "/v1/oauth_clients", e.tokA, `{"name":"x","redirect_uris":[]}`, 422, engine.CodeValidationFailed},
		{"client with http redirect", "POST", "/v1/oauth_clients", e.tokA, `{"name":"x","redirect_uris":["http://app.example/cb"]}`, 422, engine.CodeValidationFailed},
		{"client with fragment", "POST", "/v1/oauth_clients", e.tokA, `{"name":"x","redirect_uris":["https://app.example/cb#x"]}`, 422, engine.CodeValidationFailed},
		{"viewer cannot register clients", "POST", "/v1/oauth_clients", e.tokViewerA, `{"name":"x","redirect_uris":["https://a.example/cb"]}`, 403, engine.CodeInsufficientScope},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			r := e.call(t, c.method, c.path, c.token, c.body)
			if r.status != c.status || errCode(r.body) != c.code {
				t.Errorf("got %d %s, want %d %s", r.status, r.body, c.status, c.code)
			}
		})
	}
	t.Run("a narrow token cannot mint a wider one", func(t *testing.T) {
		narrow := e.call(t, http.MethodPost, "/v1/tokens", e.tokA, `{"name":"n","scopes":["tokens:write"]}`)
		var nt createdToken
		_ = json.Unmarshal(narrow.body, &nt)
		r := e.call(t, http.MethodPost, "/v1/tokens", nt.Secret, `{"name":"wide","scopes":["findings:write"]}`)
		if r.status != 422 || errCode(r.body) != engine.CodeValidationFailed {
			t.Errorf("escalation: %d %s", r.status, r.body)
		}
	})
	t.Run("oauth clients", func(t *testing.T) {
		r := e.call(t, http.MethodPost, "/v1/oauth_clients", e.tokA, `{"name":"Partner","redirect_uris":["https://partner.example/cb"]}`)
		var c createdClient
		if err := json.Unmarshal(r.body, &c); err != nil || r.status != http.StatusCreated || !strings.HasPrefix(c.ClientSecret, identity.OAuthSecretPrefix) {
			t.Fatalf("create: %d %s", r.status, r.body)
		}
		if l := e.get(t, "/v1/oauth_clients", e.tokA); !strings.Contains(string(l.body), c.ID) {
			t.Errorf("list lacks the new client: %s", l.body)
		}
		if r := e.call(t, http.MethodDelete, "/v1/oauth_clients/"+c.ID, e.tokA, ""); r.status != http.StatusNoContent {
			t.Errorf("revoke: %d %s", r.status, r.body)
		}
		if l := e.get(t, "/v1/oauth_clients", e.tokA); strings.Contains(string(l.body), c.ID) {
			t.Errorf("list still has the revoked client")
		}
	})
}

// TestRevocationBoundAcrossReplicas revokes a token through one replica and
// checks that another replica, which cached it, stops accepting it once its
// cache entry is older than the TTL, and not before (it is a cache).
func TestRevocationBoundAcrossReplicas(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, idOptions{cacheTTL: 5 * time.Second})
	other := e.replica(t, nil)
	r := e.call(t, http.MethodPost, "/v1/tokens", e.tokA, `{"name":"shared"}`)
	var tok createdToken
	_ = json.Unmarshal(r.body, &tok)
	get := func(base string) int {
		return do(t, e.client, http.MethodGet, base+"/v1/audits", tok.Secret, nil, nil).status
	}
	if s := get(other); s != http.StatusOK {
		t.Fatalf("other replica before revocation: %d", s)
	}
	if r := e.call(t, http.MethodDelete, "/v1/tokens/"+tok.ID, e.tokA, ""); r.status != http.StatusNoContent {
		t.Fatal(r.status)
	}
	if s := get(e.url); s != http.StatusUnauthorized {
		t.Errorf("revoking replica: %d, want 401 at once", s)
	}
	if s := get(other); s != http.StatusOK {
		t.Errorf("other replica within the cache TTL: %d (the cache is expected to serve it)", s)
	}
	e.clock.Advance(5 * time.Second)
	if s := get(other); s != http.StatusUnauthorized {
		t.Errorf("other replica after the 5 s bound: %d, want 401", s)
	}
}
