package postgres_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/identity"
	"github.com/fourd-dev/fourd/store/postgres"
)

func TestUpsertUser(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	ten := mustTenant(t, s, "acme")
	u, err := s.UpsertUser(ctx, engine.User{ID: newID(engine.PrefixUser, 1), TenantID: ten.ID, Email: "Ada@acme.test",
		Role: engine.RoleViewer, PasswordHash: "h1", CreatedAt: t0})
	if err != nil {
		t.Fatal(err)
	}
	again, err := s.UpsertUser(ctx, engine.User{ID: newID(engine.PrefixUser, 2), TenantID: ten.ID, Email: "ada@ACME.test",
		Role: engine.RoleAdmin, PasswordHash: "h2", CreatedAt: t0.Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	diff(t, "upsert keeps id and email, updates role and hash",
		engine.User{ID: u.ID, TenantID: ten.ID, Email: "Ada@acme.test", Role: engine.RoleAdmin, PasswordHash: "h2", CreatedAt: t0}, again)
	got, err := s.GetUserByEmail(ctx, ten.ID, "ADA@acme.test")
	diff(t, "GetUserByEmail", again, got)
	wantCode(t, "GetUserByEmail", err, "")
	got, err = s.GetUser(ctx, ten.ID, u.ID)
	diff(t, "GetUser", again, got)
	wantCode(t, "GetUser", err, "")
	other := mustTenant(t, s, "globex")
	_, err = s.GetUser(ctx, other.ID, u.ID)
	wantCode(t, "GetUser of another tenant", err, engine.CodeNotFound)
	_, err = s.GetUserByEmail(ctx, other.ID, "ada@acme.test")
	wantCode(t, "GetUserByEmail in another tenant", err, engine.CodeNotFound)
	_, err = s.UpsertUser(ctx, engine.User{ID: newID(engine.PrefixUser, 3), TenantID: ten.ID, Email: "x@acme.test", Role: "root", CreatedAt: t0})
	wantCode(t, "UpsertUser with an unknown role", err, engine.CodeValidationFailed)
}

// oauthFixture is a tenant with a user and a client.
func oauthFixture(t *testing.T, s *postgres.Store) (engine.Tenant, engine.User, identity.OAuthClient) {
	t.Helper()
	ten := mustTenant(t, s, "acme")
	u := mustUser(t, s, ten.ID, "ada@acme.test")
	c := identity.OAuthClient{ID: newID(engine.PrefixOAuthClient, 1), TenantID: ten.ID, Name: "App",
		RedirectURIs: []string{"https://app.example/cb"}, SecretHash: identity.HashToken("fds_x"), RateLimit: 50, CreatedAt: t0}
	if err := s.CreateOAuthClient(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	return ten, u, c
}

func TestOAuthClients(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	ten, u, c := oauthFixture(t, s)
	got, err := s.GetOAuthClient(ctx, c.ID)
	wantCode(t, "GetOAuthClient", err, "")
	diff(t, "GetOAuthClient", c, got)
	list, err := s.ListOAuthClients(ctx, ten.ID)
	wantCode(t, "ListOAuthClients", err, "")
	diff(t, "ListOAuthClients", []identity.OAuthClient{c}, list)
	tok := identity.OAuthToken{ID: newID(engine.PrefixOAuthToken, 2), Kind: identity.OAuthAccess, Hash: "a1", GrantID: "grt_1",
		TenantID: ten.ID, ClientID: c.ID, UserID: u.ID, Scopes: []engine.Scope{engine.ScopeFindingsRead}, CreatedAt: t0, ExpiresAt: t0.Add(time.Hour)}
	wantCode(t, "CreateOAuthTokens", s.CreateOAuthTokens(ctx, tok), "")
	other := mustTenant(t, s, "globex")
	wantCode(t, "RevokeOAuthClient from another tenant", s.RevokeOAuthClient(ctx, other.ID, c.ID, t0), engine.CodeNotFound)
	wantCode(t, "RevokeOAuthClient", s.RevokeOAuthClient(ctx, ten.ID, c.ID, t0.Add(time.Minute)), "")
	wantCode(t, "RevokeOAuthClient twice", s.RevokeOAuthClient(ctx, ten.ID, c.ID, t0.Add(time.Minute)), engine.CodeNotFound)
	got2, _ := s.GetOAuthTokenByHash(ctx, "a1")
	if got2.RevokedAt == nil {
		t.Error("the revoked client's token is still live")
	}
	list, _ = s.ListOAuthClients(ctx, ten.ID)
	diff(t, "ListOAuthClients after revocation", []identity.OAuthClient{}, list)
	_, err = s.GetOAuthClient(ctx, "cli_nope")
	wantCode(t, "GetOAuthClient unknown", err, engine.CodeNotFound)
	// A token must name a user of the client's tenant.
	bad := tok
	bad.ID, bad.Hash, bad.TenantID = newID(engine.PrefixOAuthToken, 3), "a2", other.ID
	wantCode(t, "token across tenants", s.CreateOAuthTokens(ctx, bad), engine.CodeValidationFailed)
}

// TestSingleUse checks that concurrent uses of one code, or of one refresh
// token, have exactly one winner.
func TestSingleUse(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	ten, u, c := oauthFixture(t, s)
	code := identity.OAuthCode{Hash: "c1", GrantID: "grt_1", TenantID: ten.ID, ClientID: c.ID, UserID: u.ID,
		RedirectURI: "https://app.example/cb", Scopes: []engine.Scope{engine.ScopeFindingsRead}, CreatedAt: t0, ExpiresAt: t0.Add(time.Minute)}
	wantCode(t, "CreateOAuthCode", s.CreateOAuthCode(ctx, code), "")
	refresh := identity.OAuthToken{ID: newID(engine.PrefixOAuthToken, 2), Kind: identity.OAuthRefresh, Hash: "r1", GrantID: "grt_1",
		TenantID: ten.ID, ClientID: c.ID, UserID: u.ID, Scopes: code.Scopes, CreatedAt: t0, ExpiresAt: t0.Add(time.Hour)}
	access := refresh
	access.ID, access.Kind, access.Hash = newID(engine.PrefixOAuthToken, 3), identity.OAuthAccess, "a1"
	wantCode(t, "CreateOAuthTokens", s.CreateOAuthTokens(ctx, access, refresh), "")
	for _, tc := range []struct {
		name string
		use  func(at time.Time) (bool, error)
	}{
		{"code", func(at time.Time) (bool, error) { _, first, err := s.UseOAuthCode(ctx, "c1", at); return first, err }},
		{"refresh token", func(at time.Time) (bool, error) { _, first, err := s.UseRefreshToken(ctx, "r1", at); return first, err }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const n = 12
			var wg sync.WaitGroup
			firsts := make([]bool, n)
			errs := make([]error, n)
			for i := range n {
				wg.Go(func() { firsts[i], errs[i] = tc.use(t0.Add(time.Duration(i) * time.Second)) })
			}
			wg.Wait()
			winners := 0
			for i := range n {
				wantCode(t, "use", errs[i], "")
				if firsts[i] {
					winners++
				}
			}
			if winners != 1 {
				t.Errorf("%d first uses of one %s, want 1", winners, tc.name)
			}
		})
	}
	_, _, err := s.UseOAuthCode(ctx, "nope", t0)
	wantCode(t, "UseOAuthCode unknown", err, engine.CodeNotFound)
	_, _, err = s.UseRefreshToken(ctx, "a1", t0)
	wantCode(t, "UseRefreshToken on an access token", err, engine.CodeNotFound)
	wantCode(t, "RevokeOAuthGrant", s.RevokeOAuthGrant(ctx, "grt_1", t0.Add(time.Hour)), "")
	for _, h := range []string{"a1", "r1"} {
		if got, _ := s.GetOAuthTokenByHash(ctx, h); got.RevokedAt == nil {
			t.Errorf("token %s of the revoked grant is live", h)
		}
	}
	wantCode(t, "RevokeOAuthToken unknown", s.RevokeOAuthToken(ctx, "oat_nope", t0), engine.CodeNotFound)
}
