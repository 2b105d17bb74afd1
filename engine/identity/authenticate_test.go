package identity

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

func TestAuthenticate(t *testing.T) {
	env := newTestEnv(t)
	ctx := context.Background()
	issued, err := env.ops.IssueToken(ctx, IssueTokenInput{TenantSlug: "acme", Email: "a@acme.test", Role: engine.RoleViewer})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(issued.Secret, TokenPrefix) || issued.Token.Hash == issued.Secret {
		t.Fatalf("issued %+v", issued)
	}
	p, err := env.svc.Authenticate(ctx, issued.Secret)
	if err != nil || p.TenantID != issued.Tenant.ID || slices.Contains(p.Scopes, engine.ScopeFindingsWrite) {
		t.Fatalf("Authenticate = %+v, %v", p, err)
	}
	if _, err := env.svc.Authenticate(ctx, issued.Secret); err != nil || env.tenants.Touched != 1 {
		t.Errorf("second use touched the token again (%d) or failed: %v", env.tenants.Touched, err)
	}
	if _, err := env.ops.IssueToken(ctx, IssueTokenInput{TenantSlug: "acme", Email: "v@acme.test", Role: engine.RoleViewer,
		Scopes: []engine.Scope{engine.ScopeTokensWrite}}); engine.ErrorCode(err) != engine.CodeValidationFailed {
		t.Errorf("viewer got tokens:write: %v", err)
	}
	expired := env.now.Add(-time.Second)
	expiredTok, _ := env.ops.IssueToken(ctx, IssueTokenInput{TenantSlug: "acme", Email: "a@acme.test", ExpiresAt: &expired})
	revoked, _ := env.ops.IssueToken(ctx, IssueTokenInput{TenantSlug: "acme", Email: "a@acme.test"})
	if err := env.tenants.RevokeToken(ctx, revoked.Tenant.ID, revoked.Token.ID, env.now); err != nil {
		t.Fatal(err)
	}
	for name, bearer := range map[string]string{
		"empty": "", "no prefix": "abc", "unknown": TokenPrefix + strings.Repeat("0", 48),
		"expired": expiredTok.Secret, "revoked": revoked.Secret, "huge": TokenPrefix + strings.Repeat("a", 500),
	} {
		if _, err := env.svc.Authenticate(ctx, bearer); engine.ErrorCode(err) != engine.CodeUnauthorized {
			t.Errorf("%s: %v, want unauthorized", name, err)
		}
	}
}
