package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
)

func TestOverrides(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	a := mustTenant(t, s, "acme")
	b := mustTenant(t, s, "globex")
	fnd := engine.FindingID(a.ID, "aws-s3-001", "res_x")
	accepted := engine.FindingOverride{TenantID: a.ID, FindingID: fnd, Resolution: engine.ResolutionAcceptedRisk,
		Note: "legacy bucket, retiring in Q1", CreatedBy: "usr_1", CreatedAt: t0, ExpiresAt: at(48 * time.Hour)}
	wantCode(t, "put", s.PutOverride(ctx, accepted), "")
	other := engine.FindingOverride{TenantID: a.ID, FindingID: engine.FindingID(a.ID, "r2", "res_y"),
		Resolution: engine.ResolutionAcceptedRisk, CreatedAt: t0.Add(time.Second), ExpiresAt: at(time.Hour)}
	wantCode(t, "put other", s.PutOverride(ctx, other), "")

	got, err := s.ListOverrides(ctx, a.ID, t0)
	wantCode(t, "list", err, "")
	if diff := cmp.Diff([]engine.FindingOverride{accepted, other}, got); diff != "" {
		t.Errorf("ListOverrides (-want +got):\n%s", diff)
	}
	// Expired decisions are not listed; other tenants see nothing.
	got, _ = s.ListOverrides(ctx, a.ID, t0.Add(2*time.Hour))
	if len(got) != 1 || got[0].FindingID != fnd {
		t.Errorf("after an hour: %+v", got)
	}
	if got, _ := s.ListOverrides(ctx, b.ID, t0); len(got) != 0 {
		t.Errorf("tenant b sees %+v", got)
	}
	// The latest decision wins: reopening replaces the accepted risk.
	reopen := engine.FindingOverride{TenantID: a.ID, FindingID: fnd, CreatedBy: "usr_2", CreatedAt: t0.Add(time.Minute)}
	wantCode(t, "reopen", s.PutOverride(ctx, reopen), "")
	got, _ = s.ListOverrides(ctx, a.ID, t0.Add(2*time.Hour))
	if diff := cmp.Diff([]engine.FindingOverride{reopen}, got); diff != "" {
		t.Errorf("after reopening (-want +got):\n%s", diff)
	}
	bad := engine.FindingOverride{TenantID: a.ID, FindingID: "f", Resolution: "fixed", CreatedAt: t0}
	if err := s.PutOverride(ctx, bad); err == nil {
		t.Error("a fixed override was stored")
	}
}
