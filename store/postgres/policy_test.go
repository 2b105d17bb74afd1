package postgres_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

func newPolicy(tenantID string, ms int, name string) engine.Policy {
	created := t0.Add(time.Duration(ms) * time.Millisecond)
	return engine.Policy{ID: newID(engine.PrefixPolicy, ms), TenantID: tenantID, Name: name,
		Description: "buckets must not be public", Expression: `resource.attributes.public == true`,
		Dimension: engine.DimensionSecurity, Severity: engine.SeverityHigh, ResourceTypes: []string{"aws.s3.bucket"},
		Title: "Public bucket", Remediation: "Block public access.", Enabled: true, Version: 1, Effect: engine.PolicyRaise,
		CreatedAt: created, UpdatedAt: created}
}

func mustCreatePolicy(t *testing.T, s interface {
	CreatePolicy(context.Context, engine.Policy) error
}, p engine.Policy) engine.Policy {
	t.Helper()
	if err := s.CreatePolicy(context.Background(), p); err != nil {
		t.Fatalf("CreatePolicy(%s): %v", p.ID, err)
	}
	return p
}

func TestPolicies(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, clk := newStore(t)
	acme := mustTenant(t, s, "acme")
	other := mustTenant(t, s, "other")
	p := mustCreatePolicy(t, s, newPolicy(acme.ID, 1, "no-public-buckets"))
	foreign := mustCreatePolicy(t, s, newPolicy(other.ID, 2, "no-public-buckets")) // same name, other tenant

	t.Run("get", func(t *testing.T) {
		got, err := s.GetPolicy(ctx, acme.ID, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		diff(t, "policy", p, got)
		for _, id := range []string{foreign.ID, newID(engine.PrefixPolicy, 99), ""} {
			_, err := s.GetPolicy(ctx, acme.ID, id)
			wantCode(t, "GetPolicy("+id+")", err, engine.CodeNotFound)
		}
	})

	t.Run("effect defaults to raise", func(t *testing.T) {
		p := newPolicy(acme.ID, 30, "no effect given")
		p.Effect = ""
		mustCreatePolicy(t, s, p)
		got, err := s.GetPolicy(ctx, acme.ID, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		diff(t, "effect", engine.PolicyRaise, got.Effect)
	})

	t.Run("create errors", func(t *testing.T) {
		badDim := newPolicy(acme.ID, 10, "x")
		badDim.Dimension = "speed"
		badSev := newPolicy(acme.ID, 11, "y")
		badSev.Severity = "urgent"
		noExpr := newPolicy(acme.ID, 12, "z")
		noExpr.Expression = ""
		badEffect := newPolicy(acme.ID, 14, "w")
		badEffect.Effect = "explode"
		tests := []struct {
			name string
			p    engine.Policy
			code string
		}{
			{"duplicate id", p, engine.CodeConflict},
			{"duplicate name, other case", newPolicy(acme.ID, 13, "No-Public-Buckets"), engine.CodeConflict},
			{"unknown dimension", badDim, engine.CodeValidationFailed},
			{"unknown severity", badSev, engine.CodeValidationFailed},
			{"empty expression", noExpr, engine.CodeValidationFailed},
			{"unknown effect", badEffect, engine.CodeValidationFailed},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				wantCode(t, "CreatePolicy", s.CreatePolicy(ctx, tt.p), tt.code)
			})
		}
	})

	t.Run("update", func(t *testing.T) {
		clk.Advance(time.Hour)
		edit := p
		edit.Severity, edit.Enabled, edit.ResourceTypes = engine.SeverityCritical, false, nil
		edit.Effect = engine.PolicySeverityAtLeast
		got, err := s.UpdatePolicy(ctx, edit)
		if err != nil {
			t.Fatal(err)
		}
		want := edit
		want.Version, want.UpdatedAt = 2, t0.Add(time.Hour)
		diff(t, "updated policy", want, got)
		stored, err := s.GetPolicy(ctx, acme.ID, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		diff(t, "stored policy", want, stored)

		// edit still says version 1: someone else's change would be lost.
		_, err = s.UpdatePolicy(ctx, edit)
		wantCode(t, "stale version", err, engine.CodeConflict)
		f := foreign
		f.TenantID = acme.ID
		_, err = s.UpdatePolicy(ctx, f)
		wantCode(t, "another tenant's policy", err, engine.CodeNotFound)
	})

	t.Run("delete", func(t *testing.T) {
		wantCode(t, "delete another tenant's policy", s.DeletePolicy(ctx, acme.ID, foreign.ID, t0), engine.CodeNotFound)
		if err := s.DeletePolicy(ctx, acme.ID, p.ID, t0.Add(2*time.Hour)); err != nil {
			t.Fatal(err)
		}
		_, err := s.GetPolicy(ctx, acme.ID, p.ID)
		wantCode(t, "get deleted", err, engine.CodeNotFound)
		wantCode(t, "delete twice", s.DeletePolicy(ctx, acme.ID, p.ID, t0), engine.CodeNotFound)
		_, err = s.UpdatePolicy(ctx, p)
		wantCode(t, "update deleted", err, engine.CodeNotFound)
		// The name is free again.
		mustCreatePolicy(t, s, newPolicy(acme.ID, 20, "no-public-buckets"))
		if _, err := s.GetPolicy(ctx, other.ID, foreign.ID); err != nil {
			t.Errorf("another tenant's policy is gone: %v", err)
		}
	})
}

func TestListPolicies(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	acme := mustTenant(t, s, "acme")
	other := mustTenant(t, s, "other")
	var want []string
	for i := range 17 {
		tenant := acme.ID
		if i%5 == 4 {
			tenant = other.ID
		}
		p := newPolicy(tenant, i, "policy "+itoa(i))
		p.Enabled = i%3 != 0
		mustCreatePolicy(t, s, p)
		if tenant == acme.ID && i != 7 {
			want = append(want, p.ID)
		}
		if i == 7 {
			if err := s.DeletePolicy(ctx, tenant, p.ID, t0); err != nil {
				t.Fatal(err)
			}
		}
	}
	all, err := s.AllPolicies(ctx, acme.ID)
	if err != nil {
		t.Fatal(err)
	}
	var gotAll []string
	for _, p := range all {
		gotAll = append(gotAll, p.ID)
	}
	diff(t, "all live policies, enabled or not, in id order", want, gotAll)

	slices.Reverse(want)
	for _, limit := range []int{1, 4, len(want), 200} {
		t.Run("limit "+itoa(limit), func(t *testing.T) {
			got := pageAll(t, limit, func(before string, limit int) ([]string, error) {
				ps, err := s.ListPolicies(ctx, engine.PolicyQuery{TenantID: acme.ID, BeforeID: before, Limit: limit})
				var ids []string
				for _, p := range ps {
					ids = append(ids, p.ID)
				}
				return ids, err
			})
			diff(t, "ids, newest first, deleted left out", want, got)
		})
	}
	_, err = s.ListPolicies(ctx, engine.PolicyQuery{TenantID: acme.ID})
	wantCode(t, "ListPolicies without a limit", err, engine.CodeInvalidLimit)
}
