package testserver

import (
	"context"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// Two is the suites' usual world: tenants acme (A) and globex (B), each
// with an admin token and seeded data, and narrower tokens of A.
type Two struct {
	A, B TenantSeed
	// Tokens of A: admin (every scope), resources:read only, findings:read
	// only, and a revoked one; of B: admin.
	TokA, TokAResourcesOnly, TokAFindingsOnly, TokARevoked string
	TokB                                                   string
}

// SeedTwo issues the tokens and seeds findingsA and findingsB findings for
// tenants A and B (SeedTenant), with policies and pending reports when
// policiesAndReports (SeedPoliciesAndReports).
func (s *Stack) SeedTwo(t testing.TB, findingsA, findingsB int, policiesAndReports bool) Two {
	t.Helper()
	var w Two
	itA := s.IssueToken(t, "acme", "admin@acme.test", engine.RoleAdmin)
	w.TokA = itA.Secret
	w.TokAResourcesOnly = s.IssueToken(t, "acme", "ci@acme.test", engine.RoleMember, engine.ScopeResourcesRead).Secret
	w.TokAFindingsOnly = s.IssueToken(t, "acme", "bot@acme.test", engine.RoleMember, engine.ScopeFindingsRead).Secret
	revoked := s.IssueToken(t, "acme", "gone@acme.test", engine.RoleMember)
	if err := s.PG.RevokeToken(context.Background(), revoked.Tenant.ID, revoked.Token.ID, time.Now()); err != nil {
		t.Fatal(err)
	}
	w.TokARevoked = revoked.Secret
	itB := s.IssueToken(t, "globex", "admin@globex.test", engine.RoleAdmin)
	w.TokB = itB.Secret
	w.A = SeedTenant(t, s.CH, s.PG, itA.Tenant.ID, findingsA, 0)
	w.B = SeedTenant(t, s.CH, s.PG, itB.Tenant.ID, findingsB, 1)
	if policiesAndReports {
		SeedPoliciesAndReports(t, s.PG, &w.A)
		SeedPoliciesAndReports(t, s.PG, &w.B)
	}
	return w
}
