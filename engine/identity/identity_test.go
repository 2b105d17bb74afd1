package identity

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/internal/enginetest"
	"github.com/google/go-cmp/cmp"
	"golang.org/x/crypto/bcrypt"
)

func TestPasswords(t *testing.T) {
	h, err := HashPassword("correct horse battery")
	if err != nil || !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("HashPassword = %q, %v", h, err)
	}
	h2, _ := HashPassword("correct horse battery")
	if h == h2 {
		t.Error("two hashes of one password are equal: no salt")
	}
	bc, _ := bcrypt.GenerateFromPassword([]byte("bcrypt password"), bcrypt.MinCost)
	cases := []struct {
		name, hash, password string
		want                 bool
	}{
		{"argon2id right", h, "correct horse battery", true},
		{"argon2id wrong", h, "correct horse batterY", false},
		{"bcrypt right", string(bc), "bcrypt password", true},
		{"bcrypt wrong", string(bc), "bcrypt passwore", false},
		{"empty hash", "", "x", false},
		{"other algorithm", "$argon2i$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA", "x", false},
		{"absurd memory", strings.Replace(h, "m=19456", "m=99999999", 1), "correct horse battery", false},
		{"bad base64", strings.Replace(h, "$argon2id$v=19$m=19456,t=2,p=1$", "$argon2id$v=19$m=19456,t=2,p=1$!!", 1), "correct horse battery", false},
		{"too long password", h, strings.Repeat("x", MaxPasswordLen+1), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := VerifyPassword(c.hash, c.password); got != c.want {
				t.Errorf("VerifyPassword = %v, want %v", got, c.want)
			}
		})
	}
	for _, p := range []string{"short", strings.Repeat("x", MaxPasswordLen+1)} {
		if _, err := HashPassword(p); engine.ErrorCode(err) != engine.CodeValidationFailed {
			t.Errorf("HashPassword(%d chars) = %v, want validation_failed", len(p), err)
		}
	}
}

func TestVerifyPKCE(t *testing.T) {
	// RFC 7636 appendix B.
	const verifier, challenge = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
	cases := []struct {
		name, challenge, verifier, code string
	}{
		{"match", challenge, verifier, ""},
		{"no PKCE", "", "", ""},
		{"missing verifier", challenge, "", engine.CodeInvalidGrant},
		{"wrong verifier", challenge, strings.Replace(verifier, "d", "e", 1), engine.CodeInvalidGrant},
		{"short verifier", challenge, "abc", engine.CodeInvalidGrant},
		{"bad characters", challenge, strings.Repeat("+", 43), engine.CodeInvalidGrant},
		{"verifier without challenge (downgrade)", "", verifier, engine.CodeInvalidGrant},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := engine.ErrorCode(verifyPKCE(c.challenge, c.verifier)); got != c.code {
				t.Errorf("code = %q, want %q", got, c.code)
			}
		})
	}
}

func TestRedirectURIs(t *testing.T) {
	cases := []struct {
		uri string
		ok  bool
	}{
		{"https://app.example.com/callback", true},
		{"https://app.example.com/cb?tenant=1", true},
		{"http://127.0.0.1:8080/cb", true},
		{"http://localhost/cb", true},
		{"http://[::1]:9/cb", true},
		{"http://app.example.com/cb", false},
		{"https://app.example.com/cb#frag", false},
		{"https://user:pw@app.example.com/cb", false},
		{"/relative", false},
		{"javascript:alert(1)", false},
		{"custom-scheme://cb", false},
		// Wildcards and host spellings that are patterns (issue 28): the
		// endpoint matches exactly, so a pattern would be a trap.
		{"https://*.example/cb", false},
		{"https://*/cb", false},
		{"https://app.*/cb", false},
		{"https://a*b.example.com/cb", false},
		{"https://app.example.com/*", false},
		{"https://app.example.com/cb?next=*", false},
		{"https://ａｐｐ.example.com/cb", false},
		{"https://app_x.example.com/cb", false},
		{"https://-app.example.com/cb", false},
		{"https://app..example.com/cb", false},
		{"https://xn--bcher-kva.example/cb", true},
		{"https://203.0.113.7:8443/cb", true},
		{"https://[2001:db8::1]/cb", true},
		{"https://app-1.example.com:8443/oauth/cb", true},
	}
	for _, c := range cases {
		t.Run(c.uri, func(t *testing.T) {
			if err := checkRedirectURI(c.uri); (err == nil) != c.ok {
				t.Errorf("checkRedirectURI = %v, want ok %v", err, c.ok)
			}
		})
	}
}

func TestTokenCache(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	t.Run("TTL and token expiry", func(t *testing.T) {
		c := newTokenCache(10, 5*time.Second, clock)
		p := engine.Principal{TenantID: "ten_x", TokenID: "pat_x"}
		c.put("h", p, true, now.Add(3*time.Second))
		if got, ok, found := c.get("h"); !found || !ok || got.TokenID != "pat_x" {
			t.Fatalf("fresh entry: %v %v %v", got, ok, found)
		}
		now = now.Add(3 * time.Second) // the token itself expires before the entry
		if _, ok, found := c.get("h"); !found || ok {
			t.Errorf("expired token served: ok %v found %v", ok, found)
		}
		now = now.Add(2 * time.Second)
		if _, _, found := c.get("h"); found {
			t.Error("entry older than the TTL served")
		}
	})
	t.Run("bounded", func(t *testing.T) {
		c := newTokenCache(50, time.Second, clock)
		for i := range 1000 {
			c.put(HashToken(string(rune(i))), engine.Principal{}, false, time.Time{})
			if c.len() > 50 {
				t.Fatalf("cache grew to %d entries", c.len())
			}
		}
	})
	t.Run("TTL is capped", func(t *testing.T) {
		if c := newTokenCache(0, time.Hour, clock); c.ttl != MaxTokenCacheTTL || c.max != DefaultTokenCacheSize {
			t.Errorf("ttl %v, max %d", c.ttl, c.max)
		}
	})
	t.Run("purge", func(t *testing.T) {
		c := newTokenCache(10, time.Second, clock)
		c.put("h", engine.Principal{}, true, time.Time{})
		c.purge()
		if c.len() != 0 {
			t.Error("purge left entries")
		}
	})
}

// countingTenants counts token lookups, to show the cache keeps the store
// off the hot path.
type countingTenants struct {
	*enginetest.Tenants
	lookups int
}

func (c *countingTenants) GetTokenByHash(ctx context.Context, hash string) (engine.Token, error) {
	c.lookups++
	return c.Tenants.GetTokenByHash(ctx, hash)
}

func TestAuthenticateCaches(t *testing.T) {
	env := newTestEnv(t)
	counting := &countingTenants{Tenants: env.tenants}
	cfg := env.svc.cfg
	cfg.Tenants = counting
	svc, ops, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	issued, err := ops.IssueToken(ctx, IssueTokenInput{TenantSlug: "acme", Email: "a@acme.test"})
	if err != nil {
		t.Fatal(err)
	}
	unknown := TokenPrefix + strings.Repeat("0", 40)
	for range 100 {
		if _, err := svc.Authenticate(ctx, issued.Secret); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Authenticate(ctx, unknown); engine.ErrorCode(err) != engine.CodeUnauthorized {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff(2, counting.lookups); diff != "" {
		t.Errorf("store lookups for 200 authentications (-want +got):\n%s", diff)
	}
	// Revocation through this Service takes effect at once.
	if err := ops.RevokeToken(ctx, "acme", issued.Token.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Authenticate(ctx, issued.Secret); engine.ErrorCode(err) != engine.CodeUnauthorized {
		t.Errorf("revoked token: %v", err)
	}
}

// TestAuthenticateFollowsRole changes a token's user's role and state in
// the store, as another process would (issue 28): the token's scopes follow
// the role within DefaultTokenCacheTTL, and a disabled user's token stops.
func TestAuthenticateFollowsRole(t *testing.T) {
	env := newTestEnv(t)
	ctx := context.Background()
	issued, err := env.ops.IssueToken(ctx, IssueTokenInput{TenantSlug: "acme", Email: "a@acme.test"})
	if err != nil {
		t.Fatal(err)
	}
	scopes := func() ([]engine.Scope, error) {
		p, err := env.svc.Authenticate(ctx, issued.Secret)
		return p.Scopes, err
	}
	if got, err := scopes(); err != nil || !slices.Equal(got, engine.AllScopes) {
		t.Fatalf("admin's token: %v, %v", got, err)
	}
	env.tenants.Roles[issued.User.ID] = engine.RoleViewer
	if got, _ := scopes(); !slices.Equal(got, engine.AllScopes) {
		t.Errorf("within the cache's TTL the cached lookup serves: %v", got)
	}
	env.now = env.now.Add(DefaultTokenCacheTTL)
	got, err := scopes()
	if diff := cmp.Diff(engine.RoleViewer.Scopes(), got); diff != "" || err != nil {
		t.Errorf("demoted user's token after %v (-want +got):\n%s %v", DefaultTokenCacheTTL, diff, err)
	}
	p, _ := env.svc.Authenticate(ctx, issued.Secret)
	if err := p.Require(engine.ScopePoliciesWrite); engine.ErrorCode(err) != engine.CodeInsufficientScope {
		t.Errorf("policies:write after demotion: %v", err)
	}
	delete(env.tenants.Roles, issued.User.ID) // disabled
	env.now = env.now.Add(DefaultTokenCacheTTL)
	if _, err := scopes(); engine.ErrorCode(err) != engine.CodeUnauthorized {
		t.Errorf("disabled user's token: %v, want unauthorized", err)
	}
}

func TestScopeParam(t *testing.T) {
	got, err := parseScopeParam(" findings:read  audits:write findings:read ")
	if diff := cmp.Diff([]engine.Scope{engine.ScopeFindingsRead, engine.ScopeAuditsWrite}, got); diff != "" || err != nil {
		t.Errorf("parseScopeParam (-want +got):\n%s %v", diff, err)
	}
	if _, err := parseScopeParam("findings:read admin"); engine.ErrorCode(err) != engine.CodeInvalidScope {
		t.Errorf("unknown scope: %v", err)
	}
	if s := ScopeString([]engine.Scope{engine.ScopeFindingsRead, engine.ScopeReportsRead}); s != "findings:read reports:read" {
		t.Errorf("ScopeString = %q", s)
	}
}

// TestChangedPurgesTokenLookups: the feed's report of a token change (or
// of one it cannot name) drops the cached lookups at once, within the
// cache's TTL; a finding decision's change keeps them.
func TestChangedPurgesTokenLookups(t *testing.T) {
	env := newTestEnv(t)
	ctx := context.Background()
	issued, err := env.ops.IssueToken(ctx, IssueTokenInput{TenantSlug: "acme", Email: "a@acme.test"})
	if err != nil {
		t.Fatal(err)
	}
	scopes := func() []engine.Scope {
		p, err := env.svc.Authenticate(ctx, issued.Secret)
		if err != nil {
			t.Fatal(err)
		}
		return p.Scopes
	}
	scopes() // cached
	env.tenants.Roles[issued.User.ID] = engine.RoleViewer
	env.ops.Changed(engine.Change{Kind: engine.ChangeOverrides, TenantID: issued.Tenant.ID})
	if got := scopes(); !slices.Equal(got, engine.AllScopes) {
		t.Errorf("after an overrides change the cached lookup should serve: %v", got)
	}
	for _, c := range []engine.Change{{Kind: engine.ChangeTokens, TenantID: issued.Tenant.ID}, {}} {
		env.tenants.Roles[issued.User.ID] = engine.RoleAdmin
		scopes()
		env.tenants.Roles[issued.User.ID] = engine.RoleViewer
		env.ops.Changed(c)
		if diff := cmp.Diff(engine.RoleViewer.Scopes(), scopes()); diff != "" {
			t.Errorf("after %+v (-want +got):\n%s", c, diff)
		}
	}
}
