package rules

import (
	"fmt"
	"os"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// deferredSamples are the resources of every sample inventory and the
// seeded estate (policySampleFiles), with the tenant the store sets.
func deferredSamples(t testing.TB) []engine.Resource {
	t.Helper()
	var out []engine.Resource
	for _, name := range append(append([]string{}, sampleFiles...), policySampleFiles...) {
		f, err := os.Open("../../testdata/inventory/" + name)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, loadReader(t, f)...)
		f.Close()
	}
	for i := range out {
		out[i].TenantID = "ten_deferred"
		out[i].ID = engine.ResourceID(out[i].TenantID, out[i].Provider, out[i].NativeID)
	}
	return out
}

// TestDeferredSetRoundTrip: every resource reads back from its packed form
// as it was added — strings, tags (nil, empty or not), attributes (nil,
// empty or not), the three times and their zones — whatever was added
// around it, across chunks and with one larger than a chunk.
func TestDeferredSetRoundTrip(t *testing.T) {
	in := deferredSamples(t)
	if len(in) < 500 {
		t.Fatalf("%d sample resources", len(in))
	}
	captured := time.Date(2025, 3, 1, 12, 30, 0, 5, time.FixedZone("x", 5*3600+1800))
	local := time.Date(2024, 1, 2, 3, 4, 5, 6, time.Local)
	odd := []engine.Resource{
		{},
		{ID: "res_a", Tags: engine.Tags{}, Attributes: []byte{}},
		{ID: "res_b", Type: "aws_s3_bucket", Tags: engine.Tags{{Key: "k", Value: ""}, {Key: "", Value: "v"}},
			Attributes: []byte(`{"name":"é\u0000"}`), CapturedAt: &captured, FirstSeenAt: local, LastSeenAt: captured},
		{ID: "res_big", Attributes: []byte(`{"blob":"` + strings.Repeat("x", deferredChunkBytes+10) + `"}`)},
	}
	in = append(append(odd[:2:2], in...), odd[2:]...)
	in = append(in, in[5:40]...) // more of the same after the large one
	var d deferredSet
	for i := range in {
		d.add(&in[i])
	}
	if d.len() != len(in) || len(d.chunks) < 3 {
		t.Fatalf("%d resources held in %d chunks; want %d in ≥ 3", d.len(), len(d.chunks), len(in))
	}
	for i, want := range in {
		got, err := d.get(i)
		if err != nil {
			t.Fatalf("resource %d: %v", i, err)
		}
		if !sameResource(got, want) {
			t.Errorf("resource %d (%s) read back as\n%+v\nwant\n%+v", i, want.ID, got, want)
		}
	}
}

// sameResource compares resources field by field, times as instants in
// the same zone offset.
func sameResource(a, b engine.Resource) bool {
	sameTime := func(x, y time.Time) bool {
		_, ox := x.Zone()
		_, oy := y.Zone()
		return x.Equal(y) && ox == oy
	}
	if (a.CapturedAt == nil) != (b.CapturedAt == nil) || a.CapturedAt != nil && !sameTime(*a.CapturedAt, *b.CapturedAt) {
		return false
	}
	if !sameTime(a.FirstSeenAt, b.FirstSeenAt) || !sameTime(a.LastSeenAt, b.LastSeenAt) {
		return false
	}
	if (a.Tags == nil) != (b.Tags == nil) || (a.Attributes == nil) != (b.Attributes == nil) {
		return false
	}
	a.CapturedAt, b.CapturedAt = nil, nil
	a.FirstSeenAt, b.FirstSeenAt, a.LastSeenAt, b.LastSeenAt = time.Time{}, time.Time{}, time.Time{}, time.Time{}
	if len(a.Tags) == 0 && len(b.Tags) == 0 {
		a.Tags, b.Tags = nil, nil
	}
	if len(a.Attributes) == 0 && len(b.Attributes) == 0 {
		a.Attributes, b.Attributes = nil, nil
	}
	return reflect.DeepEqual(a, b)
}

// TestDeferredSetHoldsLess is the regression guard of the audit's peak
// heap (issue 29/30): the deferred resources of 40,000 sample resources of
// the deferring types, each with its own strings as the store hands them,
// held packed take at most 60 % of the live heap they take as
// engine.Resource values, the form Auditor kept them in before (measured:
// 554 against 1,115 bytes each). A ratio of two heaps measured in one
// process, not a timing.
func TestDeferredSetHoldsLess(t *testing.T) {
	var kinds []engine.Resource
	for _, r := range deferredSamples(t) {
		if len(loadPack().joinsByType[r.Type]) > 0 {
			kinds = append(kinds, r)
		}
	}
	if len(kinds) < 20 {
		t.Fatalf("%d sample resources of deferring types", len(kinds))
	}
	const n = 40_000
	// fresh is the i-th resource as the store streams it: its own copy of
	// every string and of the attributes.
	fresh := func(i int) engine.Resource {
		r := kinds[i%len(kinds)]
		r.NativeID = fmt.Sprintf("%s#%d", r.NativeID, i)
		r.ID = engine.ResourceID(r.TenantID, r.Provider, r.NativeID)
		for _, s := range []*string{&r.TenantID, &r.Provider, &r.Account, &r.Region, &r.Type, &r.Name} {
			*s = strings.Clone(*s)
		}
		tags := make(engine.Tags, len(r.Tags), 8) // the store's unpackTags
		for j, tg := range r.Tags {
			tags[j] = engine.Tag{Key: strings.Clone(tg.Key), Value: strings.Clone(tg.Value)}
		}
		r.Tags = tags
		r.Attributes = append([]byte(nil), r.Attributes...)
		return r
	}
	live := func() uint64 {
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	base := live()
	held := make([]engine.Resource, 0, n)
	for i := range n {
		held = append(held, fresh(i))
	}
	asResources := live() - base
	runtime.KeepAlive(held)
	held = nil
	base = live()
	var d deferredSet
	for i := range n {
		r := fresh(i)
		d.add(&r)
	}
	packed := live() - base
	runtime.KeepAlive(&d)
	t.Logf("%d deferred resources: %d bytes each as engine.Resource, %d packed", n, asResources/n, packed/n)
	if packed*5 > asResources*3 {
		t.Errorf("packed, the deferred resources take %d bytes each; as engine.Resource %d: want at most 60 %%", packed/n, asResources/n)
	}
}
