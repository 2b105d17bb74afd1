package rest

import (
	"context"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/findings"
	"github.com/fourd-dev/fourd/engine/identity"
	"github.com/fourd-dev/fourd/internal/testserver"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/postgres"
)

// idEnv is a REST server over real stores with identity configured: two
// tenants (acme and globex) seeded with data, a user with a password and an
// admin token in each, an OAuth client of acme, and webhooks.
type idEnv struct {
	url    string
	client *http.Client
	svc    *findings.Service
	ids    *identity.Service
	ops    *identity.Operator
	pg     *postgres.Store
	ch     *clickhouse.Store
	clock  *testserver.Clock
	// handlerFor builds another replica (a Service and handler over the
	// same stores) with its own rate limiter.
	replica func(t *testing.T, l Limiter) string
	a, b    testserver.TenantSeed
	// Admin tokens; a viewer of acme.
	tokA, tokB, tokViewerA string
	userA, userB           engine.User
	client1                identity.IssuedOAuthClient // acme's client
	clientB                identity.IssuedOAuthClient // globex's client
	redirect               string
}

const testPassword = "correct horse battery staple"

// idOptions tune newIdentityEnv.
type idOptions struct {
	limiter  Limiter
	cacheTTL time.Duration
}

func newIdentityEnv(t *testing.T, o idOptions) *idEnv {
	t.Helper()
	st := testserver.New(t, testserver.Options{TokenCacheTTL: o.cacheTTL})
	serveWith := func(t *testing.T, s testserver.Services, l Limiter) string {
		return serve(t, Config{Service: s.Engine, Reports: s.Reporting, Compliance: s.Posture, Dashboard: s.Dashboard, Policies: s.Policies, Exports: s.Exports, Triage: s.Triage, Idempotency: s.Idempotency, Mutes: s.Mutes, Audits: s.Audits, Identity: s.Identity, Webhooks: st.Webhooks, Ingest: st.Ingest,
			Secret: testserver.Secret, Logger: st.Logger, Limiter: l, Now: st.Clock.Now}, nil)
	}
	ops := st.Operator
	e := &idEnv{client: testserver.Client(), svc: st.Engine, ids: st.Identity, ops: ops, pg: st.PG, ch: st.CH, clock: st.Clock,
		redirect: "http://127.0.0.1:1/callback"}
	e.replica = func(t *testing.T, l Limiter) string {
		return serveWith(t, st.NewServices(t, testserver.Replica{}), l)
	}
	var err error
	ctx := context.Background()
	mustUser := func(slug, email string, role engine.Role) engine.User {
		u, _, err := ops.CreateUser(ctx, identity.CreateUserInput{TenantSlug: slug, Email: email, Role: role, Password: testPassword})
		if err != nil {
			t.Fatalf("CreateUser(%s): %v", email, err)
		}
		return u
	}
	e.userA, e.userB = mustUser("acme", "ada@acme.test", engine.RoleAdmin), mustUser("globex", "bob@globex.test", engine.RoleAdmin)
	mustUser("acme", "vic@acme.test", engine.RoleViewer)
	issue := func(slug, email string) string {
		it, err := ops.IssueToken(ctx, identity.IssueTokenInput{TenantSlug: slug, Email: email, Name: "test"})
		if err != nil {
			t.Fatal(err)
		}
		return it.Secret
	}
	e.tokA, e.tokB, e.tokViewerA = issue("acme", "ada@acme.test"), issue("globex", "bob@globex.test"), issue("acme", "vic@acme.test")
	in := identity.CreateOAuthClientInput{Name: "Acme Dashboard", RedirectURIs: []string{e.redirect}}
	if e.client1, err = ops.RegisterOAuthClient(ctx, "acme", in); err != nil {
		t.Fatal(err)
	}
	in.Name = "Globex Tool"
	if e.clientB, err = ops.RegisterOAuthClient(ctx, "globex", in); err != nil {
		t.Fatal(err)
	}
	e.a = testserver.SeedTenant(t, st.CH, st.PG, e.userA.TenantID, 24, 0)
	e.b = testserver.SeedTenant(t, st.CH, st.PG, e.userB.TenantID, 7, 1)
	testserver.SeedPoliciesAndReports(t, st.PG, &e.a)
	testserver.SeedPoliciesAndReports(t, st.PG, &e.b)
	e.url = serveWith(t, st.Services, o.limiter)
	return e
}

// browser is a cookie-keeping HTTP client that does not follow redirects,
// so tests see where the consent page sends the user.
func browser(t *testing.T) *http.Client {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Jar: jar, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

var hiddenInput = regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)">`)

// consentForm GETs an authorization URL like a browser and returns the
// page's status, body and hidden form fields.
func consentForm(t *testing.T, c *http.Client, authURL string) (int, string, url.Values) {
	t.Helper()
	res, err := c.Get(authURL)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	form := url.Values{}
	for _, m := range hiddenInput.FindAllStringSubmatch(string(b), -1) {
		form.Set(html.UnescapeString(m[1]), html.UnescapeString(m[2]))
	}
	return res.StatusCode, string(b), form
}

// submitConsent posts the consent form like a browser and returns the
// status, the Location header and the body.
func submitConsent(t *testing.T, c *http.Client, base string, form url.Values) (int, *url.URL, string) {
	t.Helper()
	res, err := c.PostForm(base+"/oauth/authorize", form)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var loc *url.URL
	if l := res.Header.Get("Location"); l != "" {
		if loc, err = url.Parse(l); err != nil {
			t.Fatal(err)
		}
	}
	return res.StatusCode, loc, string(b)
}

// approve runs the consent page for authURL as email and returns the code
// from the redirect (failing t when there is none).
func (e *idEnv) approve(t *testing.T, authURL, email string) string {
	t.Helper()
	c := browser(t)
	status, body, form := consentForm(t, c, authURL)
	if status != http.StatusOK || form.Get("csrf_token") == "" {
		t.Fatalf("consent page: status %d: %.300s", status, body)
	}
	form.Set("email", email)
	form.Set("password", testPassword)
	form.Set("decision", "approve")
	status, loc, body := submitConsent(t, c, e.url, form)
	if status != http.StatusSeeOther || loc == nil || loc.Query().Get("code") == "" {
		t.Fatalf("approve: status %d, location %v: %.300s", status, loc, body)
	}
	return loc.Query().Get("code")
}

// postForm sends a form to an /oauth endpoint, validating the answer
// against the OpenAPI document, and returns the status and the RFC 6749
// error code.
func (e *idEnv) postForm(t *testing.T, path string, form url.Values, basic *[2]string) (int, string, response) {
	t.Helper()
	h := http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}
	if basic != nil {
		req, _ := http.NewRequest(http.MethodPost, "/", nil)
		req.SetBasicAuth(url.QueryEscape(basic[0]), url.QueryEscape(basic[1]))
		h.Set("Authorization", req.Header.Get("Authorization"))
	}
	r := do(t, e.client, http.MethodPost, e.url+path, "", []byte(form.Encode()), h)
	return r.status, oauthErrCode(r.body), r
}

// oauthErrCode returns the error of an RFC 6749 §5.2 body, or "".
func oauthErrCode(body []byte) string {
	var eb oauthErrorBody
	_ = json.Unmarshal(body, &eb)
	return eb.Error
}

// errCode returns the error code of an envelope body, or "".
func errCode(body []byte) string {
	var eb errorBody
	_ = json.Unmarshal(body, &eb)
	return eb.Error.Code
}

func containsAny(body string, ids []string) string {
	for _, id := range ids {
		if id != "" && strings.Contains(body, id) {
			return id
		}
	}
	return ""
}
