package identity

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// fakeTenants is an engine.TenantStore in memory: tenants and users derived
// from their names, tokens in a slice.
type fakeTenants struct {
	tokens  []engine.Token
	touched int
	roles   map[string]engine.Role // user id → role now ("" or missing: disabled)
}

func (c *fakeTenants) EnsureTenant(_ context.Context, slug, name string) (engine.Tenant, error) {
	return engine.Tenant{ID: engine.DerivedID(engine.PrefixTenant, slug), Slug: slug, Name: name}, nil
}
func (c *fakeTenants) GetTenantBySlug(_ context.Context, slug string) (engine.Tenant, error) {
	return engine.Tenant{ID: engine.DerivedID(engine.PrefixTenant, slug), Slug: slug}, nil
}
func (c *fakeTenants) EnsureUser(_ context.Context, tenant, email string, role engine.Role) (engine.User, error) {
	id := engine.DerivedID(engine.PrefixUser, tenant, email)
	if c.roles == nil {
		c.roles = map[string]engine.Role{}
	}
	if r, ok := c.roles[id]; ok {
		role = r // an existing user keeps its role
	} else {
		c.roles[id] = role
	}
	return engine.User{ID: id, TenantID: tenant, Email: email, Role: role}, nil
}
func (c *fakeTenants) CreateToken(_ context.Context, t engine.Token) error {
	c.tokens = append(c.tokens, t)
	return nil
}
func (c *fakeTenants) GetTokenByHash(_ context.Context, hash string) (engine.Token, error) {
	for _, t := range c.tokens {
		if t.Hash == hash {
			t.UserRole = c.roles[t.UserID]
			return t, nil
		}
	}
	return engine.Token{}, engine.ErrNotFound("token", "")
}
func (c *fakeTenants) TouchToken(_ context.Context, id string, at time.Time) error {
	c.touched++
	for i := range c.tokens {
		if c.tokens[i].ID == id {
			c.tokens[i].LastUsedAt = &at
		}
	}
	return nil
}
func (c *fakeTenants) ListTokens(context.Context, string, string) ([]engine.Token, error) {
	return nil, nil
}
func (c *fakeTenants) RevokeToken(_ context.Context, tenant, id string, at time.Time) error {
	for i := range c.tokens {
		if c.tokens[i].ID == id && c.tokens[i].TenantID == tenant {
			c.tokens[i].RevokedAt = &at
			return nil
		}
	}
	return engine.ErrNotFound("token", id)
}

// testEnv is the identity services over fakeTenants, with a settable clock.
type testEnv struct {
	tenants *fakeTenants
	svc     *Service
	ops     *Operator
	now     time.Time
}

func newTestEnv(t *testing.T) *testEnv {
	t.Helper()
	env := &testEnv{tenants: &fakeTenants{}, now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	svc, ops, err := New(Config{Tenants: env.tenants, Secret: []byte(strings.Repeat("s", 32)),
		Now: func() time.Time { return env.now }})
	if err != nil {
		t.Fatal(err)
	}
	env.svc, env.ops = svc, ops
	return env
}
