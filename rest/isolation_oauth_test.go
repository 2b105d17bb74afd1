package rest

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/fourd-dev/fourd/engine"
)

// TestTenantIsolationOAuth covers the /oauth operations of the isolation
// matrix: B's user cannot sign in through A's client, B's client cannot
// exchange A's code, revoke or introspect A's tokens, and B's client
// credentials token sees nothing of A.
func TestTenantIsolationOAuth(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, idOptions{})
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, e.client)
	cfgA := e.oauthConfig(e.client1, oauth2.AuthStyleInParams, "findings:read")
	t.Run("GET and POST /oauth/authorize: B's user on A's client", func(t *testing.T) {
		c := browser(t)
		status, _, form := consentForm(t, c, cfgA.AuthCodeURL("s"))
		if status != http.StatusOK {
			t.Fatalf("consent page: %d", status)
		}
		form.Set("email", "bob@globex.test")
		form.Set("password", testPassword)
		form.Set("decision", "approve")
		if status, loc, _ := submitConsent(t, c, e.url, form); status != http.StatusOK || loc != nil {
			t.Errorf("B's user approved on A's client: %d %v", status, loc)
		}
	})
	t.Run("POST /oauth/token: B's client with A's code", func(t *testing.T) {
		code := e.approve(t, cfgA.AuthCodeURL("s"), "ada@acme.test")
		f := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {e.redirect},
			"client_id": {e.clientB.Client.ID}, "client_secret": {e.clientB.Secret}}
		if status, code, _ := e.postForm(t, "/oauth/token", f, nil); status != http.StatusBadRequest || code != engine.CodeInvalidGrant {
			t.Errorf("got %d %s", status, code)
		}
	})
	t.Run("POST /oauth/revoke: B's client on A's tokens", func(t *testing.T) {
		tok, err := cfgA.Exchange(ctx, e.approve(t, cfgA.AuthCodeURL("s"), "ada@acme.test"))
		if err != nil {
			t.Fatal(err)
		}
		for _, secret := range []string{tok.AccessToken, tok.RefreshToken} {
			f := url.Values{"token": {secret}, "client_id": {e.clientB.Client.ID}, "client_secret": {e.clientB.Secret}}
			if status, code, _ := e.postForm(t, "/oauth/revoke", f, nil); status != http.StatusOK {
				t.Errorf("revoke: %d %s", status, code)
			}
		}
		if r := getWith(t, cfgA.Client(ctx, tok), e.url+"/v1/findings"); r.status != http.StatusOK {
			t.Errorf("A's token after B's revocation attempt: %d", r.status)
		}
	})
	t.Run("POST /oauth/introspect: B's client on A's tokens", func(t *testing.T) {
		tok, err := cfgA.Exchange(ctx, e.approve(t, cfgA.AuthCodeURL("s"), "ada@acme.test"))
		if err != nil {
			t.Fatal(err)
		}
		for _, secret := range []string{tok.AccessToken, tok.RefreshToken, e.tokA} {
			f := url.Values{"token": {secret}, "client_id": {e.clientB.Client.ID}, "client_secret": {e.clientB.Secret}}
			if status, _, r := e.postForm(t, "/oauth/introspect", f, nil); status != http.StatusOK ||
				strings.TrimSpace(string(r.body)) != `{"active":false}` {
				t.Errorf("B's client introspecting A's token: %d %s", status, r.body)
			}
		}
	})
	t.Run("POST /oauth/token: B's client credentials see nothing of A", func(t *testing.T) {
		mb := e.machineClient(t, "globex", engine.ScopeFindingsRead, engine.ScopeResourcesRead)
		c := (&clientcredentials.Config{ClientID: mb.Client.ID, ClientSecret: mb.Secret, TokenURL: e.url + "/oauth/token"}).Client(ctx)
		if r := getWith(t, c, e.url+"/v1/findings/"+e.a.Findings[0].ID); r.status != http.StatusNotFound {
			t.Errorf("A's finding with B's client credentials token: %d", r.status)
		}
		for _, path := range []string{"/v1/findings?limit=200", "/v1/resources?limit=200"} {
			r := getWith(t, c, e.url+path)
			if leaked := containsAny(string(r.body), []string{e.a.Findings[0].ID, e.a.Resources[0].ID}); leaked != "" {
				t.Errorf("%s with B's client credentials token shows A's %s", path, leaked)
			}
		}
		if r := getWith(t, c, e.url+"/v1/findings?limit=200"); r.status != http.StatusOK ||
			!strings.Contains(string(r.body), e.b.Findings[0].ID) {
			t.Errorf("B's own findings: %d", r.status)
		}
	})
	t.Run("A's OAuth token sees nothing of B", func(t *testing.T) {
		tok, err := cfgA.Exchange(ctx, e.approve(t, cfgA.AuthCodeURL("s"), "ada@acme.test"))
		if err != nil {
			t.Fatal(err)
		}
		r := getWith(t, cfgA.Client(ctx, tok), e.url+"/v1/findings?limit=200")
		if leak := containsAny(string(r.body), []string{e.b.Findings[0].ID, e.b.ID}); leak != "" || r.status != http.StatusOK {
			t.Errorf("%d, leaked %q", r.status, leak)
		}
		if r := getWith(t, cfgA.Client(ctx, tok), e.url+"/v1/findings/"+e.b.Findings[0].ID); r.status != http.StatusNotFound {
			t.Errorf("B's finding with A's OAuth token: %d", r.status)
		}
	})
}
