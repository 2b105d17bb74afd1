package postgres_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/identity"
)

func TestEnsureTenant(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	first, err := s.EnsureTenant(ctx, "acme", "Acme Corp")
	if err != nil {
		t.Fatal(err)
	}
	if !engine.ValidID(engine.PrefixTenant, first.ID) {
		t.Errorf("tenant id %q is not a ten_ id", first.ID)
	}
	diff(t, "new tenant", engine.Tenant{ID: first.ID, Slug: "acme", Name: "Acme Corp", CreatedAt: t0}, first)

	again, err := s.EnsureTenant(ctx, "acme", "Another name")
	if err != nil {
		t.Fatal(err)
	}
	diff(t, "second EnsureTenant", first, again)

	got, err := s.GetTenantBySlug(ctx, "acme")
	if err != nil {
		t.Fatal(err)
	}
	diff(t, "GetTenantBySlug", first, got)

	for _, slug := range []string{"nope", "", "bad\x00slug"} {
		t.Run("missing "+slug, func(t *testing.T) {
			_, err := s.GetTenantBySlug(ctx, slug)
			wantCode(t, "GetTenantBySlug", err, engine.CodeNotFound)
		})
	}
	_, err = s.EnsureTenant(ctx, "", "x")
	wantCode(t, "EnsureTenant with empty slug", err, engine.CodeValidationFailed)
	_, err = s.EnsureTenant(ctx, "bad\xff", "x")
	wantCode(t, "EnsureTenant with invalid UTF-8", err, engine.CodeValidationFailed)
}

func TestEnsureTenantConcurrent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	const n = 16
	ids := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			var ten engine.Tenant
			ten, errs[i] = s.EnsureTenant(ctx, "race", "Race")
			ids[i] = ten.ID
		})
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("call %d: %v", i, errs[i])
		}
		if ids[i] != ids[0] {
			t.Fatalf("call %d got tenant %s; call 0 got %s", i, ids[i], ids[0])
		}
	}
}

func TestEnsureUser(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	acme := mustTenant(t, s, "acme")
	other := mustTenant(t, s, "other")

	u, err := s.EnsureUser(ctx, acme.ID, "Ada@Example.com", engine.RoleMember)
	if err != nil {
		t.Fatal(err)
	}
	if !engine.ValidID(engine.PrefixUser, u.ID) {
		t.Errorf("user id %q is not a usr_ id", u.ID)
	}
	diff(t, "new user", engine.User{ID: u.ID, TenantID: acme.ID, Email: "Ada@Example.com", Role: engine.RoleMember, CreatedAt: t0}, u)

	tests := []struct {
		name     string
		tenantID string
		email    string
		role     engine.Role
		wantSame bool
		wantCode string
	}{
		{"same email", acme.ID, "Ada@Example.com", engine.RoleMember, true, ""},
		{"other case keeps user and role", acme.ID, "ada@example.COM", engine.RoleViewer, true, ""},
		{"same email in another tenant is another user", other.ID, "ada@example.com", engine.RoleAdmin, false, ""},
		{"unknown role", acme.ID, "bob@example.com", engine.Role("owner"), false, engine.CodeValidationFailed},
		{"unknown tenant", "ten_nope", "bob@example.com", engine.RoleAdmin, false, engine.CodeValidationFailed},
		{"empty email", acme.ID, "", engine.RoleAdmin, false, engine.CodeValidationFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.EnsureUser(ctx, tt.tenantID, tt.email, tt.role)
			wantCode(t, "EnsureUser", err, tt.wantCode)
			if err != nil {
				return
			}
			if tt.wantSame {
				diff(t, "user", u, got)
			} else if got.ID == u.ID || got.TenantID != tt.tenantID || got.Role != tt.role {
				t.Errorf("got %+v; want a new %s user of tenant %s", got, tt.role, tt.tenantID)
			}
		})
	}
}

func TestEnsureUserConcurrent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	acme := mustTenant(t, s, "acme")
	const n = 16
	ids := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		email := "ada@example.com"
		if i%2 == 1 {
			email = "ADA@example.com"
		}
		wg.Go(func() {
			var u engine.User
			u, errs[i] = s.EnsureUser(ctx, acme.ID, email, engine.RoleAdmin)
			ids[i] = u.ID
		})
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("call %d: %v", i, errs[i])
		}
		if ids[i] != ids[0] {
			t.Fatalf("call %d got user %s; call 0 got %s", i, ids[i], ids[0])
		}
	}
}

func TestTokens(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	acme := mustTenant(t, s, "acme")
	other := mustTenant(t, s, "other")
	ada := mustUser(t, s, acme.ID, "ada@example.com")
	bob := mustUser(t, s, acme.ID, "bob@example.com")
	eve := mustUser(t, s, other.ID, "eve@example.com")

	tok := func(ms int, tenantID, userID, secret string) engine.Token {
		return engine.Token{ID: newID(engine.PrefixToken, ms), TenantID: tenantID, UserID: userID, Name: "ci " + secret,
			Hash: identity.HashToken(secret), Scopes: []engine.Scope{engine.ScopeFindingsRead, engine.ScopeAuditsWrite},
			RateLimit: 60, CreatedAt: t0.Add(time.Duration(ms) * time.Millisecond), ExpiresAt: at(24 * time.Hour)}
	}
	adaTok1 := tok(1, acme.ID, ada.ID, "s1")
	adaTok2 := tok(2, acme.ID, ada.ID, "s2")
	bobTok := tok(3, acme.ID, bob.ID, "s3")
	eveTok := tok(4, other.ID, eve.ID, "s4")
	eveTok.Scopes, eveTok.RateLimit, eveTok.ExpiresAt = nil, 0, nil
	for _, tk := range []engine.Token{adaTok1, adaTok2, bobTok, eveTok} {
		if err := s.CreateToken(ctx, tk); err != nil {
			t.Fatalf("CreateToken(%s): %v", tk.ID, err)
		}
	}

	t.Run("create errors", func(t *testing.T) {
		dupID := adaTok1
		dupID.Hash = identity.HashToken("fresh")
		wantCode(t, "duplicate id", s.CreateToken(ctx, dupID), engine.CodeConflict)
		dupHash := tok(9, acme.ID, ada.ID, "s1")
		wantCode(t, "duplicate hash", s.CreateToken(ctx, dupHash), engine.CodeConflict)
		foreignUser := tok(10, acme.ID, eve.ID, "s10")
		wantCode(t, "user of another tenant", s.CreateToken(ctx, foreignUser), engine.CodeValidationFailed)
	})

	t.Run("get by hash", func(t *testing.T) {
		got, err := s.GetTokenByHash(ctx, identity.HashToken("s1"))
		if err != nil {
			t.Fatal(err)
		}
		want := adaTok1
		want.UserRole = engine.RoleAdmin
		diff(t, "token", want, got)
		got, err = s.GetTokenByHash(ctx, identity.HashToken("s4"))
		if err != nil {
			t.Fatal(err)
		}
		want = eveTok
		want.UserRole = engine.RoleAdmin
		diff(t, "token without scopes or expiry", want, got)
		_, err = s.GetTokenByHash(ctx, identity.HashToken("unknown"))
		wantCode(t, "unknown hash", err, engine.CodeNotFound)
		_, err = s.GetTokenByHash(ctx, "")
		wantCode(t, "empty hash", err, engine.CodeNotFound)
	})

	// The lookup reads the user's role now (issue 28): a demotion or a
	// disabled user shows in the next lookup; UpsertUser enables again.
	t.Run("user role now", func(t *testing.T) {
		role := func() engine.Role {
			t.Helper()
			got, err := s.GetTokenByHash(ctx, bobTok.Hash)
			if err != nil {
				t.Fatal(err)
			}
			return got.UserRole
		}
		u, err := s.UpsertUser(ctx, engine.User{ID: newID(engine.PrefixUser, 50), TenantID: acme.ID, Email: "BOB@example.com",
			Role: engine.RoleViewer, CreatedAt: t0})
		if err != nil || u.ID != bob.ID {
			t.Fatalf("UpsertUser: %+v %v", u, err)
		}
		diff(t, "demoted", engine.RoleViewer, role())
		u, err = s.DisableUser(ctx, acme.ID, "bob@EXAMPLE.com", t0)
		if err != nil || u.DisabledAt == nil || !u.DisabledAt.Equal(t0) {
			t.Fatalf("DisableUser: %+v %v", u, err)
		}
		diff(t, "disabled", engine.Role(""), role())
		if u, _ := s.DisableUser(ctx, acme.ID, "bob@example.com", t0.Add(time.Hour)); u.DisabledAt == nil || !u.DisabledAt.Equal(t0) {
			t.Errorf("disabled twice: %+v, want the first time kept", u.DisabledAt)
		}
		_, err = s.DisableUser(ctx, other.ID, "bob@example.com", t0)
		wantCode(t, "disable another tenant's user", err, engine.CodeNotFound)
		if u, err := s.UpsertUser(ctx, engine.User{ID: newID(engine.PrefixUser, 51), TenantID: acme.ID, Email: "bob@example.com",
			Role: engine.RoleMember, CreatedAt: t0}); err != nil || u.DisabledAt != nil {
			t.Fatalf("UpsertUser enables: %+v %v", u, err)
		}
		diff(t, "enabled as member", engine.RoleMember, role())
	})

	t.Run("touch", func(t *testing.T) {
		if err := s.TouchToken(ctx, adaTok1.ID, t0.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		// An older use does not move last_used_at back.
		if err := s.TouchToken(ctx, adaTok1.ID, t0.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		got, err := s.GetTokenByHash(ctx, adaTok1.Hash)
		if err != nil {
			t.Fatal(err)
		}
		diff(t, "last used", at(time.Hour), got.LastUsedAt)
		wantCode(t, "touch missing", s.TouchToken(ctx, "pat_missing", t0), engine.CodeNotFound)
	})

	t.Run("revoke", func(t *testing.T) {
		wantCode(t, "revoke another tenant's token", s.RevokeToken(ctx, acme.ID, eveTok.ID, t0), engine.CodeNotFound)
		wantCode(t, "revoke missing", s.RevokeToken(ctx, acme.ID, "pat_missing", t0), engine.CodeNotFound)
		if err := s.RevokeToken(ctx, acme.ID, adaTok2.ID, t0.Add(2*time.Hour)); err != nil {
			t.Fatal(err)
		}
		// Revoking again keeps the first time.
		if err := s.RevokeToken(ctx, acme.ID, adaTok2.ID, t0.Add(3*time.Hour)); err != nil {
			t.Fatal(err)
		}
		got, err := s.GetTokenByHash(ctx, adaTok2.Hash)
		if err != nil {
			t.Fatalf("a revoked token must still be returned: %v", err)
		}
		diff(t, "revoked at", at(2*time.Hour), got.RevokedAt)
		eve, err := s.GetTokenByHash(ctx, eveTok.Hash)
		if err != nil {
			t.Fatal(err)
		}
		if eve.RevokedAt != nil {
			t.Errorf("another tenant's token was revoked")
		}
	})

	t.Run("list", func(t *testing.T) {
		tests := []struct {
			name     string
			tenantID string
			userID   string
			want     []string
		}{
			{"one user, newest first", acme.ID, ada.ID, []string{adaTok2.ID, adaTok1.ID}},
			{"whole tenant", acme.ID, "", []string{bobTok.ID, adaTok2.ID, adaTok1.ID}},
			{"user of another tenant", acme.ID, eve.ID, nil},
			{"other tenant", other.ID, "", []string{eveTok.ID}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				ts, err := s.ListTokens(ctx, tt.tenantID, tt.userID)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, tk := range ts {
					got = append(got, tk.ID)
				}
				diff(t, "ids", tt.want, got)
			})
		}
	})
}
