package rest

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine/identity"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
	"github.com/fourd-dev/fourd/store/postgres/pgtest"
	"golang.org/x/oauth2"
)

// TestNoSecretAtRest issues every kind of secret fourd shows once —
// personal access tokens, webhook signing secrets (creation and rotation),
// OAuth client secrets, through the API with an Idempotency-Key and
// through the operator commands' Service calls, OAuth access and refresh
// tokens, passwords — and after each one searches every text, json and
// bytea column of every PostgreSQL table and every String column of every
// ClickHouse table of the test databases for the secret: it must be in
// none. A retry with the same Idempotency-Key still answers the secret
// (issue 28).
func TestNoSecretAtRest(t *testing.T) {
	t.Parallel()
	e := newIdentityEnv(t, idOptions{})
	ctx := context.Background()
	stored := func(needle string) []string {
		t.Helper()
		return append(pgtest.Find(t, e.pg, needle), chtest.Find(t, e.ch, needle)...)
	}
	// The searches find what is stored: a resource's name in ClickHouse, a
	// user's email in PostgreSQL.
	if got := chtest.Find(t, e.ch, e.a.Resources[0].Name); len(got) == 0 {
		t.Fatalf("chtest.Find did not find a stored resource name %q", e.a.Resources[0].Name)
	}
	if got := pgtest.Find(t, e.pg, "ada@acme.test"); len(got) == 0 {
		t.Fatal("pgtest.Find did not find a stored email")
	}
	notStored := func(what, secret string) {
		t.Helper()
		if len(secret) < 16 {
			t.Fatalf("%s: secret %q is too short to be one", what, secret)
		}
		if where := stored(secret); len(where) > 0 {
			t.Errorf("%s: the secret is stored in clear in %v", what, where)
		}
	}

	// Through the API, with an Idempotency-Key; the replay answers the
	// same secret.
	post := func(path, key, body string) response {
		t.Helper()
		h := http.Header{"Content-Type": {"application/json"}, "Idempotency-Key": {key}}
		return do(t, e.client, http.MethodPost, e.url+path, e.tokA, []byte(body), h)
	}
	issue := func(what, path, body, field string, want int) map[string]any {
		t.Helper()
		key := "secret-" + strings.ReplaceAll(what, " ", "-")
		first := post(path, key, body)
		if first.status != want {
			t.Fatalf("%s: %d %s", what, first.status, first.body)
		}
		var v map[string]any
		if err := json.Unmarshal(first.body, &v); err != nil {
			t.Fatal(err)
		}
		secret, _ := v[field].(string)
		notStored(what, secret)
		again := post(path, key, body)
		if again.status != want || string(again.body) != string(first.body) || again.header.Get("Idempotent-Replayed") != "true" {
			t.Errorf("%s: replay %d %s (replayed %q), want the first answer %s", what, again.status, again.body,
				again.header.Get("Idempotent-Replayed"), first.body)
		}
		return v
	}
	tok := issue("token", "/v1/tokens", `{"name":"ci","scopes":["findings:read"]}`, "secret", http.StatusCreated)
	if r := e.get(t, "/v1/findings?limit=1", tok["secret"].(string)); r.status != http.StatusOK {
		t.Errorf("the replayed token does not authenticate: %d %s", r.status, r.body)
	}
	ep := issue("webhook endpoint", "/v1/webhook_endpoints", `{"url":"http://127.0.0.1:1/hook","event_types":["*"]}`, "secret", http.StatusCreated)
	issue("webhook rotation", "/v1/webhook_endpoints/"+ep["id"].(string)+"/rotate_secret", `{"grace_period_seconds":60}`, "secret", http.StatusOK)
	issue("oauth client", "/v1/oauth_clients", `{"name":"Dashboard","redirect_uris":["https://app.example/cb"]}`, "client_secret", http.StatusCreated)

	// The operator commands (fourd token create, fourd oauth-client
	// create, fourd user create) and the OAuth token endpoint.
	it, err := e.ops.IssueToken(ctx, identity.IssueTokenInput{TenantSlug: "acme", Email: "ops@acme.test", Name: "ops"})
	if err != nil {
		t.Fatal(err)
	}
	notStored("fourd token create", it.Secret)
	oc, err := e.ops.RegisterOAuthClient(ctx, "acme", identity.CreateOAuthClientInput{Name: "Ops", RedirectURIs: []string{e.redirect}})
	if err != nil {
		t.Fatal(err)
	}
	notStored("fourd oauth-client create", oc.Secret)
	notStored("fourd user create (password)", testPassword)
	cfg := e.oauthConfig(oc, oauth2.AuthStyleInParams, "findings:read")
	verifier := oauth2.GenerateVerifier()
	code := e.approve(t, cfg.AuthCodeURL("st4te", oauth2.S256ChallengeOption(verifier)), "ada@acme.test")
	ot, err := cfg.Exchange(context.WithValue(ctx, oauth2.HTTPClient, e.client), code, oauth2.VerifierOption(verifier))
	if err != nil {
		t.Fatal(err)
	}
	notStored("oauth authorization code", code)
	notStored("oauth access token", ot.AccessToken)
	notStored("oauth refresh token", ot.RefreshToken)
}
