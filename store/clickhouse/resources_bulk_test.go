package clickhouse_test

import (
	"context"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// TestWriteResourcesBulk covers batches large enough that the writer reads
// the tenant's ids once instead of looking each batch up: new ids and first
// sightings must come out as with small batches.
func TestWriteResourcesBulk(t *testing.T) {
	s := chtest.New(t)
	ctx := context.Background()
	t1 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	t2 := t1.Add(24 * time.Hour)
	var first []engine.Resource
	for i := range 6000 {
		first = append(first, genResource("ten_bulk", i, t1))
	}
	if res := mustWriteResources(t, s, "ten_bulk", first); len(res.NewIDs) != 6000 {
		t.Fatalf("first write: %d new, want 6000", len(res.NewIDs))
	}
	// Half known, half new, and another tenant in between that must not
	// count as known.
	var second []engine.Resource
	for i := 3000; i < 9000; i++ {
		second = append(second, genResource("ten_bulk", i, t2))
	}
	res := mustWriteResources(t, s, "ten_bulk", second)
	if len(res.NewIDs) != 3000 {
		t.Fatalf("second write: %d new, want 3000", len(res.NewIDs))
	}
	want := map[string]bool{}
	for i := 6000; i < 9000; i++ {
		want[genResource("ten_bulk", i, t2).ID] = true
	}
	for _, id := range res.NewIDs {
		if !want[id] {
			t.Fatalf("%s reported new but was known", id)
		}
	}
	other := mustWriteResources(t, s, "ten_other", first[:5000])
	if len(other.NewIDs) != 5000 {
		t.Errorf("another tenant: %d new, want 5000", len(other.NewIDs))
	}
	for _, i := range []int{3000, 5999} { // known: keeps its first sighting
		r, err := s.GetResource(ctx, "ten_bulk", first[i].ID)
		if err != nil || !r.FirstSeenAt.Equal(t1) || !r.LastSeenAt.Equal(t2) {
			t.Errorf("resource %d: first %v last %v (%v); want %v and %v", i, r.FirstSeenAt, r.LastSeenAt, err, t1, t2)
		}
	}
	r, err := s.GetResource(ctx, "ten_bulk", second[len(second)-1].ID)
	if err != nil || !r.FirstSeenAt.Equal(t2) {
		t.Errorf("new resource: first seen %v (%v), want %v", r.FirstSeenAt, err, t2)
	}
}
