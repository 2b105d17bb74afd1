package rest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine/identity"
	"golang.org/x/oauth2"
)

// TestConsentInChromium signs in on the consent page in a real headless
// Chromium and allows by pressing Enter in the password field, and checks
// that the browser lands on the client's redirect URI with a code and the state, and that the code
// exchanges for a working token. A screenshot of the filled-in page goes to
// $FOURD_CONSENT_SCREENSHOT (default: the test's temp dir) for a person to
// look at. A second authorization in the same browser asks for no
// password (the consent session).
func TestConsentInChromium(t *testing.T) {
	bin := chromiumOrSkip(t)
	e := newIdentityEnv(t, idOptions{})
	var mu sync.Mutex
	var got url.Values
	catcher := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/callback" { // not /favicon.ico
			mu.Lock()
			got = r.URL.Query()
			mu.Unlock()
		}
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<!doctype html><title>callback</title><p>Signed in.</p>"))
	}))
	defer catcher.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	client, err := e.ops.RegisterOAuthClient(ctx, "acme", identity.CreateOAuthClientInput{Name: "Acme Status Board",
		RedirectURIs: []string{catcher.URL + "/callback"}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := e.oauthConfig(client, oauth2.AuthStyleInHeader, "findings:read", "audits:read", "reports:read")
	cfg.RedirectURL = catcher.URL + "/callback"
	verifier := oauth2.GenerateVerifier()
	authURL := cfg.AuthCodeURL("browser-state", oauth2.S256ChallengeOption(verifier))

	page := startChromium(t, ctx, bin, authURL)
	page.waitFor(t, ctx, `document.readyState === "complete" && !!document.getElementById("email")`)
	page.eval(t, ctx, `document.getElementById("email").value = `+jsString("ada@acme.test")+`;
		document.getElementById("password").value = `+jsString(testPassword)+`; true`)
	shot := os.Getenv("FOURD_CONSENT_SCREENSHOT")
	if shot == "" {
		shot = filepath.Join(t.TempDir(), "consent.png")
	}
	page.screenshot(t, ctx, shot)
	t.Logf("consent page screenshot: %s", shot)
	// Enter in the password field submits the form with its first submit
	// button: Allow.
	page.eval(t, ctx, `document.getElementById("password").focus(); true`)
	page.pressEnter(t, ctx)
	page.waitFor(t, ctx, `location.href.startsWith(`+jsString(catcher.URL+"/callback?")+`) && document.readyState === "complete"`)

	mu.Lock()
	q := got
	mu.Unlock()
	if q.Get("code") == "" || q.Get("state") != "browser-state" {
		t.Fatalf("redirect query = %v, want a code and state=browser-state", q)
	}
	tok, err := cfg.Exchange(context.WithValue(ctx, oauth2.HTTPClient, e.client), q.Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatalf("Exchange of the browser's code: %v", err)
	}
	if r := e.get(t, "/v1/audits", tok.AccessToken); r.status != http.StatusOK {
		t.Errorf("API call with the token: %d", r.status)
	}

	// A second authorization in the same browser: the session signed the
	// user in, so the page asks for no password; Allow gives a code.
	authURL2 := cfg.AuthCodeURL("second-state", oauth2.S256ChallengeOption(verifier))
	page.eval(t, ctx, `location.href = `+jsString(authURL2)+`; true`)
	page.waitFor(t, ctx, `document.readyState === "complete" && !!document.getElementById("signed-in")`)
	if has := string(page.eval(t, ctx, `!!document.getElementById("password")`)); has != "false" {
		t.Fatalf("signed-in page still has a password field (%s)", has)
	}
	page.eval(t, ctx, `document.querySelector("button.approve").click(); true`)
	page.waitFor(t, ctx, `location.href.startsWith(`+jsString(catcher.URL+"/callback?")+`) && location.href.includes("second-state")`)
	mu.Lock()
	q = got
	mu.Unlock()
	if q.Get("code") == "" || q.Get("state") != "second-state" {
		t.Fatalf("second redirect query = %v", q)
	}
}
