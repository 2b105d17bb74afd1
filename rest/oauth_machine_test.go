package rest

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/identity"
)

// metadata reads /.well-known/oauth-authorization-server as a client that
// configures itself would.
func (e *idEnv) metadata(t *testing.T) authServerMetadata {
	t.Helper()
	r := do(t, e.client, http.MethodGet, e.url+"/.well-known/oauth-authorization-server", "", nil, nil)
	var m authServerMetadata
	if r.status != http.StatusOK || json.Unmarshal(r.body, &m) != nil {
		t.Fatalf("metadata: %d %s", r.status, r.body)
	}
	return m
}

// machineClient registers a client credentials client in a tenant.
func (e *idEnv) machineClient(t *testing.T, slug string, scopes ...engine.Scope) identity.IssuedOAuthClient {
	t.Helper()
	c, err := e.ops.RegisterOAuthClient(context.Background(), slug, identity.CreateOAuthClientInput{Name: "CI exporter", Scopes: scopes})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestOAuthMetadata checks RFC 8414's document: the issuer is the server's
// URL and the endpoints, grants and methods are the ones served.
func TestOAuthMetadata(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, idOptions{})
	m := e.metadata(t)
	if m.Issuer != e.url || m.TokenEndpoint != e.url+"/oauth/token" || m.AuthorizationEndpoint != e.url+"/oauth/authorize" ||
		m.RevocationEndpoint != e.url+"/oauth/revoke" || m.IntrospectionEndpoint != e.url+"/oauth/introspect" {
		t.Errorf("endpoints: %+v", m)
	}
	for _, g := range []string{"authorization_code", "refresh_token", "client_credentials"} {
		if !slices.Contains(m.GrantTypesSupported, g) {
			t.Errorf("grant_types_supported lacks %s", g)
		}
	}
	if !slices.Equal(m.CodeChallengeMethodsSupported, []string{"S256"}) || len(m.ScopesSupported) != len(engine.AllScopes) ||
		!slices.Contains(m.TokenEndpointAuthMethods, "client_secret_basic") {
		t.Errorf("metadata: %+v", m)
	}
	if r := e.get(t, "/.well-known/oauth-authorization-server?x=1", ""); r.status != http.StatusBadRequest {
		t.Errorf("unknown parameter: %d", r.status)
	}
}

// TestOAuthClientCredentials runs grant_type=client_credentials with
// golang.org/x/oauth2/clientcredentials, configured from the metadata: the
// token acts for the client's tenant with its registered scopes, without
// a refresh token; scopes beyond them, clients without scopes and wrong
// secrets are refused with the RFC 6749 codes.
func TestOAuthClientCredentials(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, idOptions{})
	m := e.metadata(t)
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, e.client)
	mc := e.machineClient(t, "acme", engine.ScopeFindingsRead, engine.ScopeResourcesRead)
	cfg := func(c identity.IssuedOAuthClient, style oauth2.AuthStyle, scopes ...string) *clientcredentials.Config {
		return &clientcredentials.Config{ClientID: c.Client.ID, ClientSecret: c.Secret, TokenURL: m.TokenEndpoint,
			AuthStyle: style, Scopes: scopes}
	}
	for _, style := range []oauth2.AuthStyle{oauth2.AuthStyleInHeader, oauth2.AuthStyleInParams} {
		tok, err := cfg(mc, style).Token(ctx)
		if err != nil {
			t.Fatalf("client credentials (style %d): %v", style, err)
		}
		if !strings.HasPrefix(tok.AccessToken, identity.OAuthAccessPrefix) || tok.RefreshToken != "" ||
			tok.Extra("scope") != "findings:read resources:read" || tok.Expiry.Before(time.Now().Add(59*time.Minute)) {
			t.Errorf("token: %+v scope %v", tok, tok.Extra("scope"))
		}
	}
	api := cfg(mc, oauth2.AuthStyleInHeader).Client(ctx)
	list := getWith(t, api, e.url+"/v1/findings?limit=200")
	if list.status != http.StatusOK || !strings.Contains(string(list.body), e.a.Findings[0].ID) {
		t.Fatalf("GET /v1/findings: %d %.200s", list.status, list.body)
	}
	if r := getWith(t, api, e.url+"/v1/policies"); r.status != http.StatusForbidden || errCode(r.body) != engine.CodeInsufficientScope {
		t.Errorf("GET /v1/policies without policies:read: %d %s", r.status, r.body)
	}
	if r := getWith(t, api, e.url+"/v1/tokens"); r.status != http.StatusForbidden {
		t.Errorf("GET /v1/tokens: %d", r.status)
	}
	sub, err := cfg(mc, oauth2.AuthStyleInHeader, "findings:read").Token(ctx)
	if err != nil || sub.Extra("scope") != "findings:read" {
		t.Errorf("subset of the scopes: %v %v", err, sub)
	}
	refused := []struct {
		name string
		cfg  *clientcredentials.Config
		code string
	}{
		{"scope beyond the client's", cfg(mc, oauth2.AuthStyleInHeader, "policies:read"), engine.CodeInvalidScope},
		{"unknown scope", cfg(mc, oauth2.AuthStyleInHeader, "everything"), engine.CodeInvalidScope},
		{"client registered without scopes", cfg(e.client1, oauth2.AuthStyleInHeader), engine.CodeUnauthorizedClient},
		{"wrong secret", &clientcredentials.Config{ClientID: mc.Client.ID, ClientSecret: "fds_wrong", TokenURL: m.TokenEndpoint,
			AuthStyle: oauth2.AuthStyleInHeader}, engine.CodeInvalidClient},
	}
	for _, c := range refused {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.cfg.Token(ctx)
			var re *oauth2.RetrieveError
			if !errors.As(err, &re) || re.ErrorCode != c.code {
				t.Fatalf("got %v, want %s", err, c.code)
			}
			if c.code == engine.CodeInvalidClient && (re.Response.StatusCode != http.StatusUnauthorized ||
				!strings.HasPrefix(re.Response.Header.Get("WWW-Authenticate"), "Basic")) {
				t.Errorf("invalid_client: %d, WWW-Authenticate %q", re.Response.StatusCode, re.Response.Header.Get("WWW-Authenticate"))
			}
		})
	}
	t.Run("registration", func(t *testing.T) {
		r := e.call(t, http.MethodPost, "/v1/oauth_clients", e.tokA, `{"name":"exporter","scopes":["findings:read"]}`)
		if r.status != http.StatusCreated || !strings.Contains(string(r.body), `"scopes":["findings:read"]`) {
			t.Errorf("POST /v1/oauth_clients with scopes: %d %s", r.status, r.body)
		}
		for _, body := range []string{`{"name":"x","scopes":["tokens:write"]}`, `{"name":"x","scopes":["nope"]}`, `{"name":"x"}`} {
			if r := e.call(t, http.MethodPost, "/v1/oauth_clients", e.tokA, body); r.status != http.StatusUnprocessableEntity {
				t.Errorf("%s: %d %s", body, r.status, r.body)
			}
		}
	})
	t.Run("revoking the client stops its tokens", func(t *testing.T) {
		rc := e.machineClient(t, "acme", engine.ScopeFindingsRead)
		c := cfg(rc, oauth2.AuthStyleInHeader).Client(ctx)
		if r := getWith(t, c, e.url+"/v1/findings"); r.status != http.StatusOK {
			t.Fatalf("before: %d", r.status)
		}
		if r := e.call(t, http.MethodDelete, "/v1/oauth_clients/"+rc.Client.ID, e.tokA, ""); r.status != http.StatusNoContent {
			t.Fatalf("revoke client: %d %s", r.status, r.body)
		}
		if r := getWith(t, c, e.url+"/v1/findings"); r.status != http.StatusUnauthorized {
			t.Errorf("token of a revoked client: %d", r.status)
		}
	})
}

// TestOAuthIntrospection checks RFC 7662 answers for every kind of token,
// as seen by a resource server's client of the same tenant.
func TestOAuthIntrospection(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, idOptions{})
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, e.client)
	rs := e.machineClient(t, "acme", engine.ScopeFindingsRead)
	cfgA := e.oauthConfig(e.client1, oauth2.AuthStyleInParams, "findings:read", "audits:read")
	user, err := cfgA.Exchange(ctx, e.approve(t, cfgA.AuthCodeURL("s"), "ada@acme.test"))
	if err != nil {
		t.Fatal(err)
	}
	machine, err := (&clientcredentials.Config{ClientID: rs.Client.ID, ClientSecret: rs.Secret, TokenURL: e.url + "/oauth/token"}).Token(ctx)
	if err != nil {
		t.Fatal(err)
	}
	revoked := e.machineClient(t, "acme", engine.ScopeFindingsRead)
	revokedTok, err := (&clientcredentials.Config{ClientID: revoked.Client.ID, ClientSecret: revoked.Secret, TokenURL: e.url + "/oauth/token"}).Token(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if r := e.call(t, http.MethodDelete, "/v1/oauth_clients/"+revoked.Client.ID, e.tokA, ""); r.status != http.StatusNoContent {
		t.Fatal(r.status)
	}
	introspect := func(t *testing.T, by identity.IssuedOAuthClient, token string) (int, identity.Introspection, response) {
		t.Helper()
		status, _, r := e.postForm(t, "/oauth/introspect", url.Values{"token": {token}}, &[2]string{by.Client.ID, by.Secret})
		var in identity.Introspection
		_ = json.Unmarshal(r.body, &in)
		return status, in, r
	}
	active := []struct {
		name, token string
		by          identity.IssuedOAuthClient
		want        identity.Introspection
	}{
		{"user's access token", user.AccessToken, rs, identity.Introspection{Active: true, Scope: "findings:read audits:read",
			ClientID: e.client1.Client.ID, TokenType: "Bearer", Sub: e.userA.ID}},
		{"client credentials token", machine.AccessToken, rs, identity.Introspection{Active: true, Scope: "findings:read",
			ClientID: rs.Client.ID, TokenType: "Bearer"}},
		{"personal access token", e.tokA, rs, identity.Introspection{Active: true, Scope: identity.ScopeString(engine.AllScopes),
			TokenType: "Bearer", Sub: e.userA.ID}},
		{"refresh token, to its own client", user.RefreshToken, e.client1, identity.Introspection{Active: true,
			Scope: "findings:read audits:read", ClientID: e.client1.Client.ID, TokenType: "refresh_token", Sub: e.userA.ID}},
	}
	for _, c := range active {
		t.Run(c.name, func(t *testing.T) {
			status, got, r := introspect(t, c.by, c.token)
			exp, iat := got.Exp, got.Iat
			got.Exp, got.Iat = 0, 0
			if status != http.StatusOK || got != c.want {
				t.Fatalf("got %d %+v, want %+v", status, got, c.want)
			}
			if c.want.ClientID != "" && (exp <= time.Now().Unix() || iat > time.Now().Unix()+5 || iat == 0) {
				t.Errorf("exp %d iat %d: %s", exp, iat, r.body)
			}
		})
	}
	inactive := []struct{ name, token string }{
		{"another tenant's personal access token", e.tokB},
		{"refresh token, to another client", user.RefreshToken},
		{"a revoked client's token", revokedTok.AccessToken},
		{"unknown access token", identity.OAuthAccessPrefix + engine.RandomToken(30)},
		{"garbage", "not a token"},
		{"an authorization code", identity.OAuthCodePrefix + engine.RandomToken(30)},
	}
	for _, c := range inactive {
		t.Run("inactive: "+c.name, func(t *testing.T) {
			status, _, r := introspect(t, rs, c.token)
			if status != http.StatusOK || string(r.body) != `{"active":false}`+"\n" && string(r.body) != `{"active":false}` {
				t.Errorf("got %d %s", status, r.body)
			}
		})
	}
	t.Run("another tenant's client sees A's tokens inactive", func(t *testing.T) {
		for _, tok := range []string{user.AccessToken, machine.AccessToken, e.tokA} {
			if status, got, r := introspect(t, e.clientB, tok); status != http.StatusOK || got.Active {
				t.Errorf("got %d %s", status, r.body)
			}
		}
	})
	t.Run("expired", func(t *testing.T) {
		e.clock.Advance(identity.OAuthAccessTTL + time.Minute)
		defer e.clock.Advance(-identity.OAuthAccessTTL - time.Minute)
		if _, got, r := introspect(t, rs, machine.AccessToken); got.Active {
			t.Errorf("expired token: %s", r.body)
		}
	})
	t.Run("errors", func(t *testing.T) {
		if status, code, _ := e.postForm(t, "/oauth/introspect", url.Values{}, &[2]string{rs.Client.ID, rs.Secret}); status != 400 || code != engine.CodeInvalidRequest {
			t.Errorf("missing token: %d %s", status, code)
		}
		if status, code, r := e.postForm(t, "/oauth/introspect", url.Values{"token": {e.tokA}}, nil); status != 401 || code != engine.CodeInvalidClient ||
			strings.Contains(string(r.body), "active") {
			t.Errorf("no client authentication: %d %s", status, code)
		}
	})
}
