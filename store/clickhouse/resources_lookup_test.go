package clickhouse_test

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// TestGetResourcesPartial reads resources by id with every combination of
// wide fields: the latest observation of each id the tenant has, the wide
// fields only when asked, nothing for another tenant's ids, unknown ids or
// an empty list.
func TestGetResourcesPartial(t *testing.T) {
	s := chtest.New(t)
	ctx := context.Background()
	t0 := testNow
	var a []engine.Resource
	for i := range 1200 {
		a = append(a, genResource("ten_a", i, t0))
	}
	mustWriteResources(t, s, "ten_a", a)
	// A later observation renames the first ten and changes their tags.
	var later []engine.Resource
	for i := range 10 {
		r := genResource("ten_a", i, t0.Add(time.Hour))
		r.Name, r.Tags = "renamed-"+strconv.Itoa(i), engine.TagsFromMap(map[string]string{"env": "staging"})
		later = append(later, r)
		a[i] = r
		a[i].FirstSeenAt = t0
	}
	mustWriteResources(t, s, "ten_a", later)
	// Tenant B has resources of its own, one of them with an id of A's.
	b := []engine.Resource{genResource("ten_b", 5000, t0), genResource("ten_b", 5001, t0)}
	b[1].ID = a[3].ID
	mustWriteResources(t, s, "ten_b", b)

	strip := func(rs []engine.Resource, f engine.ResourceFields) []engine.Resource {
		out := append([]engine.Resource{}, rs...)
		for i := range out {
			if !f.Tags {
				out[i].Tags = nil
			}
			if !f.Attributes {
				out[i].Attributes = nil
			}
			if !f.LastSeen {
				out[i].LastSeenAt = time.Time{}
			}
		}
		slices.SortFunc(out, byID)
		return out
	}
	all := make([]string, len(a))
	for i, r := range a {
		all[i] = r.ID
	}
	unknown := engine.ResourceID("ten_a", "aws", "never-seen")
	tests := []struct {
		name   string
		tenant string
		ids    []string
		want   []engine.Resource
	}{
		{"some ids, latest observations, duplicates and unknown ids", "ten_a",
			[]string{a[3].ID, unknown, a[0].ID, a[3].ID, a[700].ID, "res_'"}, []engine.Resource{a[0], a[3], a[700]}},
		{"another tenant's ids return nothing", "ten_a", []string{b[0].ID}, nil},
		{"an id both tenants have returns the caller's", "ten_b", []string{b[1].ID, a[0].ID}, []engine.Resource{b[1]}},
		{"unknown ids only", "ten_a", []string{unknown}, nil},
		{"empty list", "ten_a", []string{}, nil},
		{"nil list", "ten_a", nil, nil},
		{"no tenant", "", []string{a[0].ID}, nil},
		{"more ids than a cached lookup", "ten_a", all, a},
	}
	for _, f := range []engine.ResourceFields{{}, {Tags: true}, {Attributes: true}, {LastSeen: true}, engine.AllResourceFields} {
		for _, tt := range tests {
			t.Run(tt.name+"/"+strconv.FormatBool(f.Tags)+","+strconv.FormatBool(f.Attributes)+","+strconv.FormatBool(f.LastSeen), func(t *testing.T) {
				got, err := s.GetResourcesPartial(ctx, tt.tenant, tt.ids, f)
				if err != nil {
					t.Fatal(err)
				}
				if got == nil {
					t.Fatal("got nil, want an empty slice")
				}
				slices.SortFunc(got, byID)
				if diff := gocmp.Diff(strip(tt.want, f), got); diff != "" {
					t.Errorf("(-want +got):\n%s", diff)
				}
			})
		}
	}
	// GetResources is the read of every field.
	got, err := s.GetResources(ctx, "ten_a", []string{a[1].ID, a[900].ID})
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(got, byID)
	if diff := gocmp.Diff(strip([]engine.Resource{a[1], a[900]}, engine.AllResourceFields), got); diff != "" {
		t.Errorf("GetResources (-want +got):\n%s", diff)
	}
}
