package clickhouse

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
)

func TestNewResources(t *testing.T) {
	t0 := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	row := func(tenant, id string) resourceRow {
		return resourceRow{r: engine.Resource{TenantID: tenant, ID: id, NativeID: id}}
	}
	rows := []resourceRow{row("b", "1"), row("a", "2"), row("b", "3"), row("b", "1"), row("a", "4"), row("c", "5")}
	first := []time.Time{t0, t0.Add(1), t0.Add(2), t0.Add(3), t0.Add(4), t0.Add(5)}
	newIDs := []tenantIDs{{tenantID: "b", ids: []string{"1", "3"}}, {tenantID: "a", ids: []string{"4"}}, {tenantID: "c"}}
	order, byTenant := newResources(rows, first, newIDs)
	if diff := cmp.Diff([]string{"b", "a"}, order); diff != "" {
		t.Errorf("order (-want +got)\n%s", diff)
	}
	res := func(tenant, id string, at time.Time) engine.Resource {
		return engine.Resource{TenantID: tenant, ID: id, NativeID: id, FirstSeenAt: at}
	}
	want := map[string][]engine.Resource{
		"b": {res("b", "1", t0), res("b", "3", t0.Add(2))},
		"a": {res("a", "4", t0.Add(4))},
	}
	for _, tenant := range order {
		if diff := cmp.Diff(want[tenant], byTenant[tenant]); diff != "" {
			t.Errorf("tenant %s (-want +got)\n%s", tenant, diff)
		}
	}
}

func TestNewResourceRowTags(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	for _, tags := range []map[string]string{nil, {}, {"b": "2", "a": "1", "c": ""}} {
		r := engine.Resource{ID: engine.ResourceID("ten_a", "aws", "x"), Tags: tags}
		row, err := newResourceRow("ten_a", r, now)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for i, k := range row.tagKeys {
			if i > 0 && row.tagKeys[i-1] >= k {
				t.Errorf("keys not sorted: %q", row.tagKeys)
			}
			got[k] = row.tagValues[i]
		}
		if len(row.tagKeys) != len(row.tagValues) || len(got) != len(tags) {
			t.Fatalf("keys %q, values %q for %v", row.tagKeys, row.tagValues, tags)
		}
		for k, v := range tags {
			if got[k] != v {
				t.Errorf("tag %q = %q, want %q", k, got[k], v)
			}
		}
		if cap(row.tagKeys) != len(row.tagKeys) {
			t.Errorf("appending a key would overwrite the values")
		}
	}
}
