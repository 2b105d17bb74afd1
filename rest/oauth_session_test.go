package rest

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine/identity"
	"golang.org/x/oauth2"
)

// TestConsentSession checks that a browser that signed in on the consent
// page is not asked for the password again within the session, that the
// session cookie is HttpOnly, SameSite and bounded, that CSRF is still
// enforced, and that a forged, expired or other tenant's session asks for
// the password again.
func TestConsentSession(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, idOptions{})
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, e.client)
	cfg := e.oauthConfig(e.client1, oauth2.AuthStyleInParams, "findings:read")
	c := browser(t)
	base, _ := url.Parse(e.url + "/oauth/authorize")

	// First authorization: email and password; the answer starts a session.
	_, body, form := consentForm(t, c, cfg.AuthCodeURL("one"))
	if !strings.Contains(body, `name="password"`) {
		t.Fatalf("first visit does not ask for the password: %.300s", body)
	}
	form.Set("email", "ada@acme.test")
	form.Set("password", testPassword)
	form.Set("decision", "approve")
	res, err := c.PostForm(e.url+"/oauth/authorize", form)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	var session *http.Cookie
	for _, ck := range res.Cookies() {
		if ck.Name == sessionCookie {
			session = ck
		}
	}
	if res.StatusCode != http.StatusSeeOther || session == nil || !session.HttpOnly || session.SameSite != http.SameSiteLaxMode ||
		session.MaxAge <= 0 || session.MaxAge > int(identity.ConsentSessionTTL/time.Second) || session.Path != "/oauth/authorize" {
		t.Fatalf("sign-in answer %d, session cookie %+v", res.StatusCode, session)
	}

	// Second authorization in the same browser: no password asked.
	_, body, form = consentForm(t, c, cfg.AuthCodeURL("two"))
	if strings.Contains(body, `name="password"`) || !strings.Contains(body, "Signed in as <strong>ada@acme.test</strong>") {
		t.Fatalf("second visit: %.400s", body)
	}
	form.Set("decision", "approve")
	status, loc, body := submitConsent(t, c, e.url, form)
	if status != http.StatusSeeOther || loc.Query().Get("code") == "" || loc.Query().Get("state") != "two" {
		t.Fatalf("approve in session: %d %v %.200s", status, loc, body)
	}
	tok, err := cfg.Exchange(ctx, loc.Query().Get("code"))
	if err != nil {
		t.Fatalf("Exchange of the session's code: %v", err)
	}
	if r := e.get(t, "/v1/findings", tok.AccessToken); r.status != http.StatusOK {
		t.Errorf("token of the session's code: %d", r.status)
	}

	t.Run("not you: sign in as someone else", func(t *testing.T) {
		s := browser(t)
		s.Jar.SetCookies(base, []*http.Cookie{{Name: sessionCookie, Value: session.Value, Path: "/oauth/authorize"}})
		_, body, form := consentForm(t, s, cfg.AuthCodeURL("s"))
		if !strings.Contains(body, "Signed in as") {
			t.Fatalf("session not shown: %.300s", body)
		}
		form.Set("decision", "switch")
		status, loc, body := submitConsent(t, s, e.url, form)
		if status != http.StatusOK || loc != nil || !strings.Contains(body, `name="password"`) {
			t.Fatalf("switch: %d %v %.300s", status, loc, body)
		}
		_, body, _ = consentForm(t, s, cfg.AuthCodeURL("s2"))
		if !strings.Contains(body, `name="password"`) {
			t.Errorf("the session survived the switch: %.300s", body)
		}
	})
	t.Run("CSRF is still enforced", func(t *testing.T) {
		_, _, form := consentForm(t, c, cfg.AuthCodeURL("three"))
		form.Del("csrf_token")
		form.Set("decision", "approve")
		if status, loc, _ := submitConsent(t, c, e.url, form); status != http.StatusOK || loc != nil {
			t.Errorf("no CSRF token in session: %d %v", status, loc)
		}
	})
	t.Run("another tenant's client asks for the password", func(t *testing.T) {
		cfgB := e.oauthConfig(e.clientB, oauth2.AuthStyleInParams, "findings:read")
		_, body, form := consentForm(t, c, cfgB.AuthCodeURL("b"))
		if !strings.Contains(body, `name="password"`) {
			t.Fatalf("A's session on B's client: %.300s", body)
		}
		form.Set("decision", "approve") // without credentials: the session must not count
		if status, loc, body := submitConsent(t, c, e.url, form); status != http.StatusOK || loc != nil || !strings.Contains(body, "sign in") {
			t.Errorf("A's session approving on B's client: %d %v", status, loc)
		}
	})
	t.Run("a forged session asks for the password", func(t *testing.T) {
		f := browser(t)
		forged := session.Value[:len(session.Value)-4] + "AAAA"
		f.Jar.SetCookies(base, []*http.Cookie{{Name: sessionCookie, Value: forged, Path: "/oauth/authorize"}})
		_, body, form := consentForm(t, f, cfg.AuthCodeURL("f"))
		if !strings.Contains(body, `name="password"`) {
			t.Fatalf("forged session accepted on the page: %.300s", body)
		}
		form.Set("decision", "approve")
		if status, loc, _ := submitConsent(t, f, e.url, form); status != http.StatusOK || loc != nil {
			t.Errorf("forged session approved: %d %v", status, loc)
		}
	})
	t.Run("an expired session asks for the password", func(t *testing.T) {
		e.clock.Advance(identity.ConsentSessionTTL + time.Minute)
		defer e.clock.Advance(-identity.ConsentSessionTTL - time.Minute)
		f := browser(t)
		f.Jar.SetCookies(base, []*http.Cookie{{Name: sessionCookie, Value: session.Value, Path: "/oauth/authorize"}})
		_, body, form := consentForm(t, f, cfg.AuthCodeURL("x"))
		if !strings.Contains(body, `name="password"`) {
			t.Fatalf("expired session accepted on the page: %.300s", body)
		}
		form.Set("decision", "approve")
		if status, loc, _ := submitConsent(t, f, e.url, form); status != http.StatusOK || loc != nil {
			t.Errorf("expired session approved: %d %v", status, loc)
		}
	})
}
