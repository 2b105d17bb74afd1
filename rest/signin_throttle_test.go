package rest

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/identity"
)

// TestSignInThrottledPerAccount (issue 28 §7): the consent page refuses an
// account's password sign-in after identity.MaxSignInFailures failures within
// identity.SignInWindow, even with the right password and whatever browser
// or address tries; other accounts are not held up; unknown emails are
// throttled alike (nothing tells them apart); a success clears the count;
// the window's end lifts the lock.
func TestSignInThrottledPerAccount(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, idOptions{})
	authURL := e.oauthConfig(e.client1, 0, "findings:read").AuthCodeURL("s")
	// try posts the consent form from a fresh browser (a new cookie jar,
	// as another machine would) and returns the status, whether a code
	// came back, and the page.
	try := func(email, password string) (int, bool, string) {
		t.Helper()
		c := browser(t)
		status, body, form := consentForm(t, c, authURL)
		if status != http.StatusOK {
			t.Fatalf("consent page: %d %.200s", status, body)
		}
		form.Set("email", email)
		form.Set("password", password)
		form.Set("decision", "approve")
		status, loc, body := submitConsent(t, c, e.url, form)
		return status, loc != nil && loc.Query().Get("code") != "", body
	}
	// A success clears the count: failures interleaved with successes
	// never lock the account.
	for range 2 {
		for range identity.MaxSignInFailures - 1 {
			if _, ok, _ := try("ada@acme.test", "wrong password!"); ok {
				t.Fatal("a wrong password signed in")
			}
		}
		if status, ok, body := try("ada@acme.test", testPassword); !ok {
			t.Fatalf("right password after %d failures: %d %.300s", identity.MaxSignInFailures-1, status, body)
		}
	}
	for _, email := range []string{"ada@acme.test", "nobody@acme.test"} {
		for i := range identity.MaxSignInFailures {
			if status, _, body := try(email, "wrong password!"); status != http.StatusOK || !strings.Contains(body, "email or password is wrong") {
				t.Fatalf("%s, failure %d: %d %.300s", email, i+1, status, body)
			}
		}
	}
	status, ok, body := try("ADA@acme.test", testPassword)
	if ok || status != http.StatusTooManyRequests || !strings.Contains(body, "Too many failed sign-ins") {
		t.Errorf("right password on a throttled account: %d, code %v: %.300s", status, ok, body)
	}
	if status, _, body := try("nobody@acme.test", "wrong password!"); status != http.StatusTooManyRequests {
		t.Errorf("unknown email after %d failures: %d %.300s", identity.MaxSignInFailures, status, body)
	}
	if _, ok, body := try("vic@acme.test", testPassword); !ok {
		t.Errorf("another account of the tenant is held up: %.300s", body)
	}
	e.clock.Advance(identity.SignInWindow)
	if status, ok, body := try("ada@acme.test", testPassword); !ok {
		t.Errorf("right password after the window: %d %.300s", status, body)
	}
}

// TestRedirectURIWildcardRefused (issue 28 §7): a redirect URI with a
// wildcard, or a host that is a pattern, is refused when a client is
// registered through the API and through the operator command's path.
func TestRedirectURIWildcardRefused(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, idOptions{})
	for _, uri := range []string{"https://*.example/cb", "https://app.example.com/*", "https://ａｐｐ.example.com/cb"} {
		body := `{"name":"wild","redirect_uris":["` + uri + `"]}`
		if r := e.call(t, http.MethodPost, "/v1/oauth_clients", e.tokA, body); r.status != http.StatusUnprocessableEntity ||
			errCode(r.body) != engine.CodeValidationFailed {
			t.Errorf("POST /v1/oauth_clients %s: %d %s", uri, r.status, r.body)
		}
		_, err := e.ops.RegisterOAuthClient(context.Background(), "acme",
			identity.CreateOAuthClientInput{Name: "wild", RedirectURIs: []string{uri}})
		if engine.ErrorCode(err) != engine.CodeValidationFailed {
			t.Errorf("RegisterOAuthClient (fourd oauth-client create) %s: %v", uri, err)
		}
	}
}
