package clickhouse

import (
	"encoding/binary"
	"fmt"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/cespare/xxhash/v2"
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
	order, byTenant := newResources(rows, first, newIDs, nil)
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
	// Ids left out of the list (new in an earlier batch of the write) are
	// not announced, even where they come first.
	var scratch []engine.Resource
	order, byTenant = newResources(rows, first, []tenantIDs{{tenantID: "b", ids: []string{"3"}}, {tenantID: "a", ids: []string{"2", "4"}}}, &scratch)
	if diff := cmp.Diff([]string{"a", "b"}, order); diff != "" {
		t.Errorf("order (-want +got)\n%s", diff)
	}
	want = map[string][]engine.Resource{
		"b": {res("b", "3", t0.Add(2))},
		"a": {res("a", "2", t0.Add(1)), res("a", "4", t0.Add(4))},
	}
	if diff := cmp.Diff(want, byTenant); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestNewResourceRowTags(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	for _, tags := range []map[string]string{nil, {}, {"b": "2", "a": "1", "c": ""}} {
		r := engine.Resource{ID: engine.ResourceID("ten_a", "aws", "x"), Tags: engine.TagsFromMap(tags)}
		row, err := newResourceRow("ten_a", r, now)
		if err != nil {
			t.Fatal(err)
		}
		if !row.r.Tags.InOrder() || !maps.Equal(row.r.Tags.Map(), tags) {
			t.Errorf("row tags %v for %v", row.r.Tags, tags)
		}
	}
	// Out of order, the row's tags are put in order in a copy.
	in := engine.Tags{{Key: "b", Value: "2"}, {Key: "a", Value: "1"}, {Key: "b", Value: "3"}}
	row, err := newResourceRow("ten_a", engine.Resource{ID: engine.ResourceID("ten_a", "aws", "x"), Tags: in}, now)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(engine.Tags{{Key: "a", Value: "1"}, {Key: "b", Value: "3"}}, row.r.Tags); diff != "" {
		t.Errorf("row tags (-want +got)\n%s", diff)
	}
	if in[0].Key != "b" || in[1].Key != "a" {
		t.Errorf("the caller's tags changed: %v", in)
	}
}

// contentHash is xxhash64 of the row's fields, each after its length as a
// uvarint, the tag count before the tags and the attributes' length before
// them, whatever the fields' sizes (the stack buffer's edges included).
func TestContentHash(t *testing.T) {
	ref := func(row *resourceRow) uint64 {
		var b []byte
		str := func(v string) { b = append(binary.AppendUvarint(b, uint64(len(v))), v...) }
		r := &row.r
		for _, v := range []string{r.Provider, r.Account, r.Region, r.Type, r.NativeID, r.Name} {
			str(v)
		}
		b = binary.AppendUvarint(b, uint64(len(r.Tags)))
		for _, t := range r.Tags {
			str(t.Key)
			str(t.Value)
		}
		b = append(binary.AppendUvarint(b, uint64(len(r.Attributes))), r.Attributes...)
		if h := xxhash.Sum64(b); h != 0 {
			return h
		}
		return 1
	}
	seen := map[uint64]string{}
	for _, n := range []int{0, 1, 100, 490, 500, 502, 511, 512, 600, 2000} {
		long := strings.Repeat("x", n)
		rows := []resourceRow{
			{r: engine.Resource{Provider: "aws", Account: "1", Region: "eu", Type: "t", NativeID: long, Name: "n",
				Attributes: []byte(`{"a":1}`), Tags: engine.Tags{{Key: "k", Value: long}}}},
			{r: engine.Resource{Provider: "aws", Name: long, Attributes: []byte(long)}},
			{r: engine.Resource{Provider: long + "a", Account: long, Tags: engine.Tags{{Key: long, Value: "v"}, {Key: "b", Value: long}}}},
		}
		for i := range rows {
			got, want := contentHash(&rows[i]), ref(&rows[i])
			if got != want {
				t.Errorf("n=%d row %d: %x, want %x", n, i, got, want)
			}
			key := fmt.Sprint(n, "/", i)
			if other, dup := seen[got]; dup {
				t.Errorf("rows %s and %s hash alike", other, key)
			}
			seen[got] = key
		}
	}
	// A field's bytes moved to its neighbour change the hash.
	a := resourceRow{r: engine.Resource{Account: "ab", Region: ""}}
	b := resourceRow{r: engine.Resource{Account: "a", Region: "b"}}
	if contentHash(&a) == contentHash(&b) {
		t.Error("length prefixes do not separate fields")
	}
	// A capture time is part of the content; the 1970 "not known" is not.
	c := resourceRow{r: a.r, captured: time.Date(2026, 11, 20, 9, 14, 0, 0, time.UTC)}
	if contentHash(&c) == contentHash(&a) {
		t.Error("the capture time does not change the hash")
	}
	c.captured = minTime
	if contentHash(&c) != contentHash(&a) {
		t.Error("an unknown capture time changes the hash")
	}
}
