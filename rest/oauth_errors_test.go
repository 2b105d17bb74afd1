package rest

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/identity"
)

// TestOAuthTokenEndpointErrors sends every kind of bad request to
// /oauth/token and checks the documented status and RFC 6749 §5.2 body
// (error, error_description, request_id equal to X-Request-Id), with
// Cache-Control: no-store.
func TestOAuthTokenEndpointErrors(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, idOptions{})
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, e.client)
	cfg := e.oauthConfig(e.client1, oauth2.AuthStyleInParams, "findings:read")
	verifier := oauth2.GenerateVerifier()
	pkceCode := func() string {
		return e.approve(t, cfg.AuthCodeURL("s", oauth2.S256ChallengeOption(verifier)), "ada@acme.test")
	}
	plainCode := func() string { return e.approve(t, cfg.AuthCodeURL("s"), "ada@acme.test") }
	creds := url.Values{"client_id": {e.client1.Client.ID}, "client_secret": {e.client1.Secret}}
	exchange := func(code string, extra ...string) url.Values {
		f := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {e.redirect}}
		for k, v := range creds {
			f[k] = v
		}
		for i := 0; i+1 < len(extra); i += 2 {
			if extra[i+1] == "" {
				f.Del(extra[i])
			} else {
				f.Set(extra[i], extra[i+1])
			}
		}
		return f
	}
	tok, err := cfg.Exchange(ctx, plainCode())
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		form   func() url.Values
		raw    func() (string, string) // content type and body instead of form
		basic  *[2]string
		status int
		code   string
	}{
		{name: "unknown grant_type", form: func() url.Values { return exchange("x", "grant_type", "password") },
			status: 400, code: engine.CodeUnsupportedGrantType},
		{name: "missing grant_type", form: func() url.Values { return exchange("x", "grant_type", "") }, status: 400, code: engine.CodeInvalidRequest},
		{name: "JSON instead of a form", raw: func() (string, string) {
			return "application/json", `{"grant_type":"authorization_code","code":"x"}`
		}, status: 400, code: engine.CodeInvalidRequest},
		{name: "missing code", form: func() url.Values { return exchange("", "code", "") }, status: 400, code: engine.CodeInvalidRequest},
		{name: "missing redirect_uri", form: func() url.Values { return exchange(plainCode(), "redirect_uri", "") }, status: 400, code: engine.CodeInvalidRequest},
		{name: "repeated parameter", raw: func() (string, string) {
			return "application/x-www-form-urlencoded", exchange("x").Encode() + "&code=y"
		}, status: 400, code: engine.CodeInvalidRequest},
		{name: "wrong client secret", form: func() url.Values { return exchange(plainCode(), "client_secret", "fds_wrong") },
			status: 401, code: engine.CodeInvalidClient},
		{name: "unknown client", form: func() url.Values {
			return exchange(plainCode(), "client_id", engine.NewID(engine.PrefixOAuthClient, time.Now()))
		}, status: 401, code: engine.CodeInvalidClient},
		{name: "no client credentials", form: func() url.Values { return exchange(plainCode(), "client_id", "", "client_secret", "") },
			status: 401, code: engine.CodeInvalidClient},
		{name: "wrong secret in HTTP Basic", form: func() url.Values { return exchange(plainCode(), "client_id", "", "client_secret", "") },
			basic: &[2]string{e.client1.Client.ID, "fds_wrong"}, status: 401, code: engine.CodeInvalidClient},
		{name: "HTTP Basic and client_secret both", form: func() url.Values { return exchange(plainCode()) },
			basic: &[2]string{e.client1.Client.ID, e.client1.Secret}, status: 400, code: engine.CodeInvalidRequest},
		{name: "mismatched redirect_uri", form: func() url.Values { return exchange(plainCode(), "redirect_uri", "http://127.0.0.1:1/other") },
			status: 400, code: engine.CodeInvalidGrant},
		{name: "missing code_verifier", form: func() url.Values { return exchange(pkceCode()) }, status: 400, code: engine.CodeInvalidGrant},
		{name: "wrong code_verifier", form: func() url.Values { return exchange(pkceCode(), "code_verifier", oauth2.GenerateVerifier()) },
			status: 400, code: engine.CodeInvalidGrant},
		{name: "code_verifier for a code without challenge", form: func() url.Values { return exchange(plainCode(), "code_verifier", verifier) },
			status: 400, code: engine.CodeInvalidGrant},
		{name: "another client's code", form: func() url.Values {
			f := exchange(plainCode())
			f.Set("client_id", e.clientB.Client.ID)
			f.Set("client_secret", e.clientB.Secret)
			return f
		}, status: 400, code: engine.CodeInvalidGrant},
		{name: "malformed code", form: func() url.Values { return exchange("not-a-code") }, status: 400, code: engine.CodeInvalidGrant},
		{name: "unknown code", form: func() url.Values { return exchange(identity.OAuthCodePrefix + "0123456789abcdefghjkmnpqrstvwxyz") },
			status: 400, code: engine.CodeInvalidGrant},
		{name: "missing refresh_token", form: func() url.Values {
			return exchange("", "grant_type", "refresh_token", "code", "", "redirect_uri", "")
		}, status: 400, code: engine.CodeInvalidRequest},
		{name: "unknown refresh_token", form: func() url.Values {
			return exchange("", "grant_type", "refresh_token", "refresh_token", identity.OAuthRefreshPrefix+"0123456789abcdefghjkmnpqrstvwxyz")
		}, status: 400, code: engine.CodeInvalidGrant},
		{name: "access token as refresh_token", form: func() url.Values {
			return exchange("", "grant_type", "refresh_token", "refresh_token", tok.AccessToken)
		}, status: 400, code: engine.CodeInvalidGrant},
		{name: "refresh with a scope beyond the grant", form: func() url.Values {
			return exchange("", "grant_type", "refresh_token", "refresh_token", tok.RefreshToken, "scope", "findings:write")
		}, status: 400, code: engine.CodeInvalidScope},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var r response
			if c.raw != nil {
				ct, body := c.raw()
				r = do(t, e.client, http.MethodPost, e.url+"/oauth/token", "", []byte(body), http.Header{"Content-Type": {ct}})
			} else {
				_, _, r = e.postForm(t, "/oauth/token", c.form(), c.basic)
			}
			var eb oauthErrorBody
			if err := json.Unmarshal(r.body, &eb); err != nil || r.status != c.status || eb.Error != c.code {
				t.Fatalf("got %d %s, want %d %s: %s", r.status, eb.Error, c.status, c.code, r.body)
			}
			if eb.ErrorDescription == "" || eb.RequestID == "" || eb.RequestID != r.header.Get("X-Request-Id") {
				t.Errorf("error_description %q, request_id %q, X-Request-Id %q", eb.ErrorDescription, eb.RequestID, r.header.Get("X-Request-Id"))
			}
			if cc := r.header.Get("Cache-Control"); cc != "no-store" {
				t.Errorf("Cache-Control = %q, want no-store", cc)
			}
			if c.status == 401 && !strings.HasPrefix(r.header.Get("WWW-Authenticate"), "Basic") {
				t.Errorf("WWW-Authenticate = %q", r.header.Get("WWW-Authenticate"))
			}
		})
	}

	t.Run("reused code is refused and revokes what it issued", func(t *testing.T) {
		code := plainCode()
		first, err := cfg.Exchange(ctx, code)
		if err != nil {
			t.Fatal(err)
		}
		status, got, _ := e.postForm(t, "/oauth/token", exchange(code), nil)
		if status != 400 || got != engine.CodeInvalidGrant {
			t.Fatalf("replayed code: %d %s", status, got)
		}
		if r := getWith(t, cfg.Client(ctx, first), e.url+"/v1/findings"); r.status != http.StatusUnauthorized {
			t.Errorf("token issued for a replayed code: %d, want 401", r.status)
		}
		if status, got, _ := e.postForm(t, "/oauth/token", url.Values{"grant_type": {"refresh_token"},
			"refresh_token": {first.RefreshToken}, "client_id": creds["client_id"], "client_secret": creds["client_secret"]}, nil); got != engine.CodeInvalidGrant {
			t.Errorf("refresh token issued for a replayed code: %d %s", status, got)
		}
	})
	t.Run("x/oauth2 reads the error code", func(t *testing.T) {
		_, err := cfg.Exchange(ctx, identity.OAuthCodePrefix+"0123456789abcdefghjkmnpqrstvwxyz")
		var re *oauth2.RetrieveError
		if !errors.As(err, &re) || re.ErrorCode != engine.CodeInvalidGrant || re.ErrorDescription == "" {
			t.Fatalf("Exchange of an unknown code: %v", err)
		}
	})
	t.Run("other /oauth errors are RFC 6749 bodies", func(t *testing.T) {
		for _, c := range []struct {
			method, path string
			status       int
		}{
			{http.MethodGet, "/oauth/token", http.StatusMethodNotAllowed},
			{http.MethodPut, "/oauth/revoke", http.StatusMethodNotAllowed},
			{http.MethodGet, "/oauth/nothing", http.StatusNotFound},
			{http.MethodPost, "/oauth/revoke", http.StatusBadRequest}, // not a form
		} {
			r := do(t, e.client, c.method, e.url+c.path, "", nil, nil)
			var eb oauthErrorBody
			if err := json.Unmarshal(r.body, &eb); err != nil || r.status != c.status || eb.Error != engine.CodeInvalidRequest ||
				eb.RequestID != r.header.Get("X-Request-Id") || eb.ErrorDescription == "" {
				t.Errorf("%s %s: %d %s", c.method, c.path, r.status, r.body)
			}
		}
	})
	t.Run("expired code", func(t *testing.T) {
		code := plainCode()
		e.clock.Advance(identity.OAuthCodeTTL + time.Second)
		defer e.clock.Advance(-identity.OAuthCodeTTL - time.Second)
		if status, got, _ := e.postForm(t, "/oauth/token", exchange(code), nil); status != 400 || got != engine.CodeInvalidGrant {
			t.Errorf("expired code: %d %s", status, got)
		}
	})
}

// TestBearerTokenErrors checks that expired, revoked and malformed tokens
// of both kinds are 401 unauthorized on the API.
func TestBearerTokenErrors(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, idOptions{})
	ctx := context.Background()
	soon := e.clock.Now().Add(time.Minute)
	expiring, err := e.ops.IssueToken(ctx, identity.IssueTokenInput{TenantSlug: "acme", Email: "ada@acme.test", Name: "x", ExpiresAt: &soon})
	if err != nil {
		t.Fatal(err)
	}
	revoked, err := e.ops.IssueToken(ctx, identity.IssueTokenInput{TenantSlug: "acme", Email: "ada@acme.test", Name: "y"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range []string{expiring.Secret, revoked.Secret} {
		if r := e.get(t, "/v1/findings", tk); r.status != http.StatusOK {
			t.Fatalf("fresh token: %d", r.status)
		}
	}
	if r := e.call(t, http.MethodDelete, "/v1/tokens/"+revoked.Token.ID, e.tokA, ""); r.status != http.StatusNoContent {
		t.Fatalf("revoke: %d %s", r.status, r.body)
	}
	ocfg := e.oauthConfig(e.client1, oauth2.AuthStyleInParams, "findings:read")
	otok, err := ocfg.Exchange(context.WithValue(ctx, oauth2.HTTPClient, e.client), e.approve(t, ocfg.AuthCodeURL("s"), "ada@acme.test"))
	if err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(2 * time.Minute)
	cases := []struct{ name, token string }{
		{"expired personal access token", expiring.Secret},
		{"revoked personal access token", revoked.Secret},
		{"malformed: no prefix", "0123456789abcdefghjkmnpqrstvwxyz0123456789"},
		{"malformed: short", "fdp_abc"},
		{"unknown personal access token", identity.TokenPrefix + engine.RandomToken(30)},
		{"unknown OAuth token", identity.OAuthAccessPrefix + engine.RandomToken(30)},
		{"refresh token as bearer", otok.RefreshToken},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.get(t, "/v1/findings", c.token)
			if r.status != http.StatusUnauthorized || errCode(r.body) != engine.CodeUnauthorized {
				t.Errorf("got %d %s", r.status, r.body)
			}
		})
	}
	t.Run("expired OAuth access token", func(t *testing.T) {
		if r := e.get(t, "/v1/findings", otok.AccessToken); r.status != http.StatusOK {
			t.Fatalf("before expiry: %d", r.status)
		}
		e.clock.Advance(identity.OAuthAccessTTL)
		if r := e.get(t, "/v1/findings", otok.AccessToken); r.status != http.StatusUnauthorized {
			t.Errorf("after expiry: %d", r.status)
		}
	})
}

// get sends GET path with a bearer token, validating the answer.
func (e *idEnv) get(t *testing.T, path, token string) response {
	t.Helper()
	return do(t, e.client, http.MethodGet, e.url+path, token, nil, nil)
}

// call sends a request with a JSON body ("" for none), validating the
// answer.
func (e *idEnv) call(t *testing.T, method, path, token, body string) response {
	t.Helper()
	var b []byte
	h := http.Header{}
	if body != "" {
		b = []byte(body)
		h.Set("Content-Type", "application/json")
	}
	return do(t, e.client, method, e.url+path, token, b, h)
}
