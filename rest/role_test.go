package rest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/identity"
)

// TestTokenRightsFollowRole (issue 28 §1): a personal access token and an
// OAuth access token minted while their user was admin lose the admin
// scopes when the user is demoted to viewer through the path `fourd user
// create` uses: at once on the replica that made the change, within the
// token cache's 5 s on another one; a refresh mints only what the role
// allows; disabling the user stops every token and the refresh token, and
// `user create` enables them again.
func TestTokenRightsFollowRole(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, idOptions{cacheTTL: identity.DefaultTokenCacheTTL})
	other := e.replica(t, nil)
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, e.client)
	cfg := e.oauthConfig(e.client1, oauth2.AuthStyleInParams, "findings:read", "policies:write", "webhooks:write", "tokens:write")
	oauthTok, err := cfg.Exchange(ctx, e.approve(t, cfg.AuthCodeURL("s"), "ada@acme.test"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	// writes are the three admin calls of the issue, through base.
	writes := func(base, token string) [3]response {
		n++
		call := func(method, path, body string) response {
			var b []byte
			h := http.Header{}
			if body != "" {
				b = []byte(body)
				h.Set("Content-Type", "application/json")
			}
			return do(t, e.client, method, base+path, token, b, h)
		}
		return [3]response{
			call(http.MethodPost, "/v1/policies", fmt.Sprintf(`{"name":"p%d","expression":"resource.type == \"aws_s3_bucket\"","dimension":"security","severity":"high"}`, n)),
			call(http.MethodGet, "/v1/tokens", ""),
			call(http.MethodPost, "/v1/webhook_endpoints", `{"url":"http://127.0.0.1:1/a","event_types":["*"]}`),
		}
	}
	// want checks the three answers: all 403 code, or (code "") 201, 200, 201.
	want := func(label string, rs [3]response, code string) {
		t.Helper()
		statuses := [3]int{http.StatusCreated, http.StatusOK, http.StatusCreated}
		if code != "" {
			statuses = [3]int{http.StatusForbidden, http.StatusForbidden, http.StatusForbidden}
		}
		for i, r := range rs {
			if r.status != statuses[i] || errCode(r.body) != code {
				t.Errorf("%s, call %d: %d %.200s, want %d %s", label, i, r.status, r.body, statuses[i], code)
			}
		}
	}
	pat, access := e.tokA, oauthTok.AccessToken
	for _, base := range []string{e.url, other} {
		want("admin's PAT", writes(base, pat), "")
		want("admin's OAuth token", writes(base, access), "")
	}

	// Demote ada through the operator command's path.
	if _, _, err := e.ops.CreateUser(context.Background(), identity.CreateUserInput{TenantSlug: "acme",
		Email: "ada@acme.test", Role: engine.RoleViewer, Password: testPassword}); err != nil {
		t.Fatal(err)
	}
	for _, tok := range []string{pat, access} {
		want("demoting replica", writes(e.url, tok), engine.CodeInsufficientScope)
		if r := e.get(t, "/v1/findings", tok); r.status != http.StatusOK {
			t.Errorf("viewer's read: %d %s", r.status, r.body)
		}
	}
	// The other replica's cache may serve the old answer for up to 5 s
	// (the documented bound), and not longer.
	e.clock.Advance(identity.DefaultTokenCacheTTL)
	for _, tok := range []string{pat, access} {
		want("other replica after 5 s", writes(other, tok), engine.CodeInsufficientScope)
	}
	// A refresh mints only the scopes the role allows now.
	expired := *oauthTok
	expired.Expiry = time.Now().Add(-time.Minute)
	fresh, err := cfg.TokenSource(ctx, &expired).Token()
	if err != nil {
		t.Fatalf("refresh: %v", err)
	}
	if s := fresh.Extra("scope"); s != "findings:read" {
		t.Errorf("refreshed scope %q, want findings:read", s)
	}
	want("refreshed token", writes(e.url, fresh.AccessToken), engine.CodeInsufficientScope)

	// Disabled: every token stops at once here, within 5 s elsewhere.
	if _, err := e.ops.DisableUser(context.Background(), "acme", "ada@acme.test"); err != nil {
		t.Fatal(err)
	}
	for _, tok := range []string{pat, fresh.AccessToken} {
		if r := e.get(t, "/v1/findings", tok); r.status != http.StatusUnauthorized {
			t.Errorf("disabled user's token: %d, want 401", r.status)
		}
	}
	e.clock.Advance(identity.DefaultTokenCacheTTL)
	if r := do(t, e.client, http.MethodGet, other+"/v1/findings", pat, nil, nil); r.status != http.StatusUnauthorized {
		t.Errorf("disabled user's token on another replica after 5 s: %d", r.status)
	}
	fresh.Expiry = time.Now().Add(-time.Minute)
	_, err = cfg.TokenSource(ctx, fresh).Token()
	var re *oauth2.RetrieveError
	if !errors.As(err, &re) || re.ErrorCode != engine.CodeInvalidGrant {
		t.Errorf("disabled user's refresh: %v", err)
	}
	c := browser(t)
	_, _, form := consentForm(t, c, cfg.AuthCodeURL("s"))
	form.Set("email", "ada@acme.test")
	form.Set("password", testPassword)
	form.Set("decision", "approve")
	if status, loc, _ := submitConsent(t, c, e.url, form); loc != nil && loc.Query().Get("code") != "" {
		t.Errorf("disabled user signed in: %d %v", status, loc)
	}

	// Enabled again as admin: the PAT (never revoked) does admin things.
	if _, _, err := e.ops.CreateUser(context.Background(), identity.CreateUserInput{TenantSlug: "acme",
		Email: "ada@acme.test", Role: engine.RoleAdmin, Password: testPassword}); err != nil {
		t.Fatal(err)
	}
	want("enabled again", writes(e.url, pat), "")
}
