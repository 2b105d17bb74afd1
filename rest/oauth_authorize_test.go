package rest

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/oauth2"

	"github.com/fourd-dev/fourd/engine"
)

var firstSubmit = regexp.MustCompile(`<button type="submit"[^>]*>`)

// TestAuthorizePage covers the consent page's answers: never a redirect to
// an unregistered URI, errors sent to a registered one with state, CSRF,
// wrong passwords, other tenants' users, denial and role-bounded scopes.
func TestAuthorizePage(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, idOptions{})
	base := url.Values{"response_type": {"code"}, "client_id": {e.client1.Client.ID}, "redirect_uri": {e.redirect},
		"scope": {"findings:read"}, "state": {"xyz"}}
	authURL := func(kv ...string) string {
		q := url.Values{}
		for k, v := range base {
			q[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			q.Set(kv[i], kv[i+1])
		}
		return e.url + "/oauth/authorize?" + q.Encode()
	}
	t.Run("page", func(t *testing.T) {
		status, body, form := consentForm(t, browser(t), authURL())
		for _, want := range []string{"Acme Dashboard", "<li>Read findings <code>findings:read</code></li>", `name="email"`,
			`name="password"`, "Allow", "Deny"} {
			if !strings.Contains(body, want) {
				t.Errorf("page lacks %q", want)
			}
		}
		// Enter submits the form with its first submit button (HTML's
		// implicit submission): that must be Allow.
		if first := firstSubmit.FindString(body); !strings.Contains(first, `value="approve"`) {
			t.Errorf("first submit button %q is not Allow", first)
		}
		if status != http.StatusOK || form.Get("csrf_token") == "" || form.Get("state") != "xyz" {
			t.Errorf("status %d, form %v", status, form)
		}
	})
	shown := []struct{ name, url string }{
		{"unknown client", authURL("client_id", engine.NewID(engine.PrefixOAuthClient, e.clock.Now()))},
		{"malformed client id", authURL("client_id", "nope")},
		{"unregistered redirect_uri", authURL("redirect_uri", "https://evil.example/cb")},
		{"redirect_uri differing by a slash", authURL("redirect_uri", e.redirect+"/")},
		{"missing redirect_uri", authURL("redirect_uri", "")},
		{"unknown parameter", authURL("prompt", "none")},
	}
	for _, c := range shown {
		t.Run("shown, not redirected: "+c.name, func(t *testing.T) {
			res, err := browser(t).Get(c.url)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusBadRequest || res.Header.Get("Location") != "" ||
				!strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
				t.Errorf("got %d, Location %q", res.StatusCode, res.Header.Get("Location"))
			}
		})
	}
	redirected := []struct{ name, url, code string }{
		{"response_type token", authURL("response_type", "token"), engine.CodeUnsupportedResponseType},
		{"unknown scope", authURL("scope", "findings:read everything:write"), engine.CodeInvalidScope},
		{"PKCE plain", authURL("code_challenge", strings.Repeat("a", 43), "code_challenge_method", "plain"), engine.CodeInvalidRequest},
		{"short code_challenge", authURL("code_challenge", "abc", "code_challenge_method", "S256"), engine.CodeInvalidRequest},
	}
	for _, c := range redirected {
		t.Run("redirected: "+c.name, func(t *testing.T) {
			res, err := browser(t).Get(c.url)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			loc, _ := url.Parse(res.Header.Get("Location"))
			if res.StatusCode != http.StatusSeeOther || loc == nil || !strings.HasPrefix(loc.String(), e.redirect+"?") ||
				loc.Query().Get("error") != c.code || loc.Query().Get("state") != "xyz" || loc.Query().Has("code") {
				t.Errorf("got %d, Location %v", res.StatusCode, loc)
			}
		})
	}
	// submit fills the consent form of authURL and posts it, with change
	// applied to the form first.
	submit := func(t *testing.T, u string, change func(url.Values)) (int, *url.URL, string) {
		c := browser(t)
		_, _, form := consentForm(t, c, u)
		form.Set("email", "ada@acme.test")
		form.Set("password", testPassword)
		form.Set("decision", "approve")
		change(form)
		return submitConsent(t, c, e.url, form)
	}
	again := []struct {
		name, want string
		change     func(url.Values)
	}{
		{"wrong password", "wrong", func(f url.Values) { f.Set("password", "not the password") }},
		{"unknown email", "wrong", func(f url.Values) { f.Set("email", "nobody@acme.test") }},
		{"user of another tenant", "wrong", func(f url.Values) { f.Set("email", "bob@globex.test") }},
		{"missing CSRF token", "expired", func(f url.Values) { f.Del("csrf_token") }},
		{"forged CSRF token", "expired", func(f url.Values) { f.Set("csrf_token", "AAAA"+f.Get("csrf_token")[4:]) }},
	}
	for _, c := range again {
		t.Run("page again: "+c.name, func(t *testing.T) {
			status, loc, body := submit(t, authURL(), c.change)
			if status != http.StatusOK || loc != nil || !strings.Contains(body, c.want) {
				t.Errorf("got %d, Location %v: %.200s", status, loc, body)
			}
		})
	}
	t.Run("CSRF cookie of another browser", func(t *testing.T) {
		_, _, form := consentForm(t, browser(t), authURL()) // token bound to another browser's cookie
		c := browser(t)
		consentForm(t, c, authURL()) // this browser's own cookie
		form.Set("email", "ada@acme.test")
		form.Set("password", testPassword)
		form.Set("decision", "approve")
		status, loc, _ := submitConsent(t, c, e.url, form)
		if status != http.StatusOK || loc != nil {
			t.Errorf("got %d, Location %v", status, loc)
		}
	})
	t.Run("deny", func(t *testing.T) {
		status, loc, _ := submit(t, authURL(), func(f url.Values) { f.Set("decision", "deny") })
		if status != http.StatusSeeOther || loc.Query().Get("error") != engine.CodeAccessDenied || loc.Query().Get("state") != "xyz" {
			t.Errorf("got %d, Location %v", status, loc)
		}
	})
	t.Run("viewer gets the read scopes only", func(t *testing.T) {
		ctx := context.WithValue(context.Background(), oauth2.HTTPClient, e.client)
		cfg := e.oauthConfig(e.client1, oauth2.AuthStyleInParams, "findings:read", "findings:write")
		tok, err := cfg.Exchange(ctx, e.approve(t, cfg.AuthCodeURL("s"), "vic@acme.test"))
		if err != nil {
			t.Fatal(err)
		}
		if got := tok.Extra("scope"); got != "findings:read" {
			t.Errorf("scope = %v, want findings:read", got)
		}
		status, loc, _ := submit(t, authURL("scope", "findings:write"), func(f url.Values) { f.Set("email", "vic@acme.test") })
		if status != http.StatusSeeOther || loc.Query().Get("error") != engine.CodeAccessDenied {
			t.Errorf("viewer asking only for write: %d %v", status, loc)
		}
	})
	t.Run("no scope asked: the role's read scopes", func(t *testing.T) {
		ctx := context.WithValue(context.Background(), oauth2.HTTPClient, e.client)
		cfg := e.oauthConfig(e.client1, oauth2.AuthStyleInParams)
		tok, err := cfg.Exchange(ctx, e.approve(t, cfg.AuthCodeURL("s"), "ada@acme.test"))
		if err != nil {
			t.Fatal(err)
		}
		scope, _ := tok.Extra("scope").(string)
		if strings.Contains(scope, ":write") || !strings.Contains(scope, "findings:read") || !strings.Contains(scope, "webhooks:read") {
			t.Errorf("default scope = %q", scope)
		}
	})
}
