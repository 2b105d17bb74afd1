package findings

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/internal/enginetest"
	"github.com/google/go-cmp/cmp"
)

// partialReads records the GetResourcesPartial calls that reach the store.
type partialReads struct {
	*enginetest.Resources
	calls []partialRead
}

type partialRead struct {
	tenant string
	ids    []string
	fields engine.ResourceFields
}

func (r *partialReads) GetResourcesPartial(ctx context.Context, tenant string, ids []string, f engine.ResourceFields) ([]engine.Resource, error) {
	r.calls = append(r.calls, partialRead{tenant, ids, f})
	return r.Resources.GetResourcesPartial(ctx, tenant, ids, f)
}

func TestGetResourcesPartial(t *testing.T) {
	env := newTestEnv(t)
	ctx := context.Background()
	store := &partialReads{Resources: env.resources}
	svc, _, err := New(Config{Findings: env.findings, Resources: store, Tenants: env.control, Events: env.events,
		Audits: env.control, Secret: []byte("0123456789abcdef0123456789abcdef")})
	if err != nil {
		t.Fatal(err)
	}
	mk := func(tenant, native string) engine.Resource {
		return engine.Resource{ID: engine.ResourceID(tenant, "aws", native), TenantID: tenant, Provider: "aws", Name: native,
			Tags: engine.TagsFromMap(map[string]string{"env": "prod"}), Attributes: json.RawMessage(`{"public":true}`)}
	}
	a1, a2, b1 := mk("ten_a", "one"), mk("ten_a", "two"), mk("ten_b", "one")
	env.resources.Rows = map[string]engine.Resource{a1.ID: a1, a2.ID: a2, b1.ID: b1}
	unknown := engine.ResourceID("ten_a", "aws", "never")
	p := engine.Principal{TenantID: "ten_a", Scopes: []engine.Scope{engine.ScopeResourcesRead}}

	// Order of the ids asked, zero Resources for another tenant's, unknown
	// and invalid ids; each valid id asked of the store once.
	got, err := svc.GetResourcesPartial(ctx, p, []string{a2.ID, b1.ID, "bogus", a1.ID, unknown, a2.ID}, engine.ResourceFields{Attributes: true})
	if err != nil {
		t.Fatal(err)
	}
	noTags := func(r engine.Resource) engine.Resource { r.Tags = nil; return r }
	want := []engine.Resource{noTags(a2), {}, {}, noTags(a1), {}, noTags(a2)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("resources (-want +got):\n%s", diff)
	}
	wantCalls := []partialRead{{"ten_a", []string{a2.ID, b1.ID, a1.ID, unknown}, engine.ResourceFields{Attributes: true}}}
	if diff := cmp.Diff(wantCalls, store.calls, cmp.AllowUnexported(partialRead{})); diff != "" {
		t.Errorf("store calls (-want +got):\n%s", diff)
	}

	// Nothing valid to read: no store call.
	store.calls = nil
	if got, err := svc.GetResourcesPartial(ctx, p, []string{"bogus"}, engine.ResourceFields{}); err != nil || len(got) != 1 || got[0].ID != "" {
		t.Errorf("invalid id only: %+v, %v", got, err)
	}
	if got, err := svc.GetResourcesPartial(ctx, p, nil, engine.ResourceFields{}); err != nil || len(got) != 0 {
		t.Errorf("no ids: %+v, %v", got, err)
	}
	if len(store.calls) != 0 {
		t.Errorf("store called for no valid id: %+v", store.calls)
	}

	// The scope is checked before anything is read.
	for _, tc := range []struct {
		p    engine.Principal
		want string
	}{
		{engine.Principal{TenantID: "ten_a", Scopes: []engine.Scope{engine.ScopeFindingsRead}}, engine.CodeInsufficientScope},
		{engine.Principal{}, engine.CodeUnauthorized},
	} {
		if _, err := svc.GetResourcesPartial(ctx, tc.p, []string{a1.ID}, engine.AllResourceFields); engine.ErrorCode(err) != tc.want {
			t.Errorf("principal %+v: err %v, want %s", tc.p, err, tc.want)
		}
	}
	if len(store.calls) != 0 {
		t.Errorf("store called without the scope: %+v", store.calls)
	}
}
