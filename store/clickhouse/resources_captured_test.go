package clickhouse_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// A resource's capture time (AWS Config's configurationItemCaptureTime) is
// stored with its row and read back when a lookup names it, and by every
// page of the list: nil for an input without one, kept by an unchanged re-import, replaced when the
// source captured the same configuration again, and left unknown (not an
// error) when it is outside what a DateTime holds.
func TestResourceCapturedAt(t *testing.T) {
	ctx := context.Background()
	s := chtest.New(t)
	const tenant = "ten_captured"
	imported := testNow.Add(-48 * time.Hour)
	captured := time.Date(2026, 11, 20, 9, 14, 5, 0, time.UTC)
	res := func(name string, at time.Time, capturedAt *time.Time) engine.Resource {
		native := "arn:aws:s3:::" + name
		return engine.Resource{ID: engine.ResourceID(tenant, "aws", native), Provider: "aws", Account: "111111111111",
			Region: "eu-west-1", Type: "aws_s3_bucket", NativeID: native, Name: name, Tags: engine.Tags{},
			Attributes: json.RawMessage(`{"versioning":true}`), LastSeenAt: at, CapturedAt: capturedAt}
	}
	same := func(c *time.Time, want time.Time) bool { return c != nil && c.Equal(want) }
	ptr := func(t time.Time) *time.Time { return &t }
	write := func(rs ...engine.Resource) {
		t.Helper()
		if _, err := s.WriteResources(ctx, tenant, sliceSeq(rs)); err != nil {
			t.Fatal(err)
		}
	}
	read := func(f engine.ResourceFields, rs ...engine.Resource) map[string]engine.Resource {
		t.Helper()
		ids := make([]string, len(rs))
		for i, r := range rs {
			ids[i] = r.ID
		}
		got, err := s.GetResourcesPartial(ctx, tenant, ids, f)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]engine.Resource{}
		for _, r := range got {
			out[r.Name] = r
		}
		return out
	}
	config, terraform, odd := res("config", imported, ptr(captured)), res("terraform", imported, nil),
		res("odd", imported, ptr(time.Date(1960, 1, 1, 0, 0, 0, 0, time.UTC)))
	write(config, terraform, odd)
	got := read(engine.ResourceFields{CapturedAt: true}, config, terraform, odd)
	if c := got["config"].CapturedAt; !same(c, captured) {
		t.Errorf("config: captured_at %v, want %v", c, captured)
	}
	for _, name := range []string{"terraform", "odd"} {
		if c := got[name].CapturedAt; c != nil {
			t.Errorf("%s: captured_at %v, want none", name, c)
		}
	}
	if c := read(engine.ResourceFields{}, config)["config"].CapturedAt; c != nil {
		t.Errorf("a lookup without CapturedAt reads captured_at %v", c)
	}
	if c, err := s.GetResource(ctx, tenant, config.ID); err != nil || !same(c.CapturedAt, captured) {
		t.Errorf("GetResource: captured_at %v (%v), want %v", c.CapturedAt, err, captured)
	}
	page, err := s.ListResources(ctx, engine.ResourceQuery{TenantID: tenant, Limit: 10})
	if err != nil || len(page) != 3 {
		t.Fatalf("ListResources: %d resources, %v", len(page), err)
	}
	for _, r := range page {
		if ok := (r.Name == "config") == same(r.CapturedAt, captured) && (r.Name == "config" || r.CapturedAt == nil); !ok {
			t.Errorf("ListResources: %s has captured_at %v", r.Name, r.CapturedAt)
		}
	}

	// The next day's import: the same item (a sighting), then the same
	// configuration captured again (a new row with the new time).
	write(res("config", imported.Add(24*time.Hour), ptr(captured)))
	got = read(engine.ResourceFields{CapturedAt: true, LastSeen: true}, config)
	if c, seen := got["config"].CapturedAt, got["config"].LastSeenAt; !same(c, captured) || !seen.Equal(imported.Add(24*time.Hour)) {
		t.Errorf("after an unchanged re-import: captured_at %v, last seen %v; want %v, %v", c, seen, captured, imported.Add(24*time.Hour))
	}
	again := captured.Add(36 * time.Hour)
	write(res("config", imported.Add(48*time.Hour), ptr(again)))
	if c := read(engine.ResourceFields{CapturedAt: true}, config)["config"].CapturedAt; !same(c, again) {
		t.Errorf("after the configuration was captured again: captured_at %v, want %v", c, again)
	}
}
