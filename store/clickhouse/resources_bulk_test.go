package clickhouse_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse"
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

// wideResource is genResource with attributes of about 4 KiB, so that a
// bulk write cuts batches by size (about 4,000 rows, under the size from
// which the tenant's ids are read whole).
func wideResource(tenantID string, i int, seen time.Time) engine.Resource {
	r := genResource(tenantID, i, seen)
	r.Attributes = json.RawMessage(`{"policy":"` + strings.Repeat("x", 4000) + `"}`)
	return r
}

// The bulk pipeline: batches decided in order (an id met again in a later
// batch, before the first is stored, is new once and keeps its first
// sighting), new resources announced only once their rows are readable,
// every row written.
func TestWriteResourcesPipeline(t *testing.T) {
	s := chtest.New(t)
	clickhouse.SetWholeRowFlush(t, 5000, time.Second) // several INSERTs of several batches
	ctx := context.Background()
	t1 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var rs []engine.Resource
	for i := range 12_000 {
		rs = append(rs, wideResource("ten_pipe", i, t1))
	}
	again := wideResource("ten_pipe", 7, t1.Add(time.Hour)) // in the last batch
	rs = append(rs, again)
	var announced []string
	var unreadable []string
	batches := 0
	for b, err := range s.WriteResourceBatches(ctx, "ten_pipe", sliceSeq(rs)) {
		if err != nil {
			t.Fatal(err)
		}
		batches++
		if len(b.NewIDs) == 0 {
			continue
		}
		for _, id := range []string{b.NewIDs[0], b.NewIDs[len(b.NewIDs)-1]} {
			if _, err := s.GetResource(ctx, "ten_pipe", id); err != nil {
				unreadable = append(unreadable, id)
			}
		}
		if b.Added.Len() != len(b.NewIDs) {
			t.Fatalf("%d new ids, %d packed", len(b.NewIDs), b.Added.Len())
		}
		for i, id := range b.NewIDs {
			var data struct{ Resource struct{ ID, Type string } }
			if err := json.Unmarshal(b.Added.Data(i), &data); err != nil || data.Resource.ID != id || data.Resource.Type == "" {
				t.Fatalf("packed data %d %s (%v); want resource %s", i, b.Added.Data(i), err, id)
			}
		}
		b.Added.Release()
		announced = append(announced, b.NewIDs...)
	}
	if len(announced) != 12_000 || batches < 2 {
		t.Fatalf("%d batches, announced %d; want several and 12000", batches, len(announced))
	}
	want := make([]string, 12_000)
	for i := range want {
		want[i] = rs[i].ID
	}
	if !slices.Equal(announced, want) {
		t.Errorf("announced in another order than first observed")
	}
	if len(unreadable) > 0 {
		t.Errorf("announced before their rows were written: %v", unreadable)
	}
	seen := map[string]bool{}
	for _, id := range announced {
		if seen[id] {
			t.Fatalf("%s announced twice", id)
		}
		seen[id] = true
	}
	r, err := s.GetResource(ctx, "ten_pipe", again.ID)
	if err != nil || !r.FirstSeenAt.Equal(t1) || !r.LastSeenAt.Equal(t1.Add(time.Hour)) {
		t.Errorf("resource seen twice: first %v last %v (%v), want %v and %v", r.FirstSeenAt, r.LastSeenAt, err, t1, t1.Add(time.Hour))
	}
	page, err := s.ListResources(ctx, engine.ResourceQuery{TenantID: "ten_pipe", Limit: 200})
	if err != nil || len(page) != 200 || !slices.IsSortedFunc(page, byID) {
		t.Errorf("listing after the write: %d resources in id order %v (%v)", len(page), slices.IsSortedFunc(page, byID), err)
	}
}

// A caller that stops reading the batches (its announcement failed) stops
// the write; what was written before stays. An iterator's error still
// writes what came before, and WriteResourceBatches yields those batches,
// then the error.
func TestWriteResourcesPipelineErrors(t *testing.T) {
	s := chtest.New(t)
	ctx := context.Background()
	var rs []engine.Resource
	for i := range 9000 {
		rs = append(rs, wideResource("ten_err", i, testNow))
	}
	boom := errors.New("outbox down")
	// Each batch an INSERT of its own, so that the first is handed over
	// while the feeder is still reading (gathered INSERTs could hold all).
	clickhouse.SetWholeRowFlush(t, 1, time.Second)
	calls, read := 0, 0
	many := func(yield func(engine.Resource, error) bool) { // ~15 batches: more than the stages hold
		for i := range 30_000 {
			read++
			if !yield(wideResource("ten_err", i, testNow), nil) {
				return
			}
		}
	}
	for _, err := range s.WriteResourceBatches(ctx, "ten_err", many) {
		if err != nil {
			t.Fatalf("err = %v; want none (the caller stopped)", err)
		}
		calls++
		break
	}
	stored, err := s.QueryStrings(ctx, "SELECT DISTINCT id FROM resources WHERE tenant_id = 'ten_err'")
	if calls != 1 || err != nil || len(stored) == 0 || read == 30_000 || len(stored) > read {
		t.Errorf("batches read %d (want 1), %d resources read, %d stored (%v); want some, not all: the write stops", calls, read, len(stored), err)
	}
	broken := func(yield func(engine.Resource, error) bool) {
		for i, r := range rs[:5000] {
			if i == 4500 {
				yield(engine.Resource{}, boom)
				return
			}
			if !yield(r, nil) {
				return
			}
		}
	}
	res, err := s.WriteResources(ctx, "ten_err2", broken)
	if !errors.Is(err, boom) || res.Written != 4500 || len(res.NewIDs) != 4500 {
		t.Errorf("iterator error: err %v, written %d, new %d; want it, 4500, 4500", err, res.Written, len(res.NewIDs))
	}
	var newIDs int
	var last error
	for b, err := range s.WriteResourceBatches(ctx, "ten_err3", broken) {
		if last != nil {
			t.Fatalf("a batch after the error %v", last)
		}
		newIDs += len(b.NewIDs)
		last = err
	}
	if !errors.Is(last, boom) || newIDs != 4500 {
		t.Errorf("iterator error through WriteResourceBatches: last %v, %d new; want it, 4500", last, newIDs)
	}
}

// TestWriteResourcesManyBatches writes several batches through both
// inserters, with rows of varied widths and tag counts (tags go straight
// into the driver's Array(String) buffers), and reads every row back as
// written.
func TestWriteResourcesManyBatches(t *testing.T) {
	s := chtest.New(t)
	// INSERTs of two batches or so: the second appends to the first's
	// columns, the next INSERT reuses the last one's buffers.
	clickhouse.SetWholeRowFlush(t, 15_000, time.Second)
	ctx := context.Background()
	t1 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var rs []engine.Resource
	var ids []string
	for i := range 32_000 {
		r := genResource("ten_reuse", i, t1)
		r.Name = strings.Repeat("n", i%97)
		r.Tags = engine.Tags{}
		for k := range i % 6 {
			r.Tags = append(r.Tags, engine.Tag{Key: "k" + strconv.Itoa(k), Value: strings.Repeat("v", (i+k)%13)})
		}
		r.Attributes = json.RawMessage(`{"i":` + strconv.Itoa(i) + `,"pad":"` + strings.Repeat("p", (i*7)%300) + `"}`)
		rs = append(rs, r)
		ids = append(ids, r.ID)
	}
	if res := mustWriteResources(t, s, "ten_reuse", rs); len(res.NewIDs) != len(rs) {
		t.Fatalf("%d new, want %d", len(res.NewIDs), len(rs))
	}
	got, err := s.GetResources(ctx, "ten_reuse", ids)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]engine.Resource{}
	for _, r := range got {
		byID[r.ID] = r
	}
	if len(byID) != len(rs) {
		t.Fatalf("read back %d resources, want %d", len(byID), len(rs))
	}
	for _, want := range rs {
		r := byID[want.ID]
		if r.Name != want.Name || r.NativeID != want.NativeID || string(r.Attributes) != string(want.Attributes) ||
			!slices.Equal(r.Tags, want.Tags) {
			t.Fatalf("resource %s read back as %+v, want %+v", want.ID, r, want)
		}
	}
}

// An inserter sends the rows it gathered when no batch comes for a while:
// a producer that pauses does not hold back what it sent before, nor keep
// an INSERT open on the server, and the announcements of those rows are
// committed during the pause.
func TestWriteResourcesIdleFlush(t *testing.T) {
	s := chtest.New(t)
	clickhouse.SetWholeRowFlush(t, 1_000_000, 100*time.Millisecond)
	ctx := context.Background()
	var rs []engine.Resource
	for i := range 6000 { // wide: batches of ~2,000 rows
		rs = append(rs, wideResource("ten_idle", i, testNow))
	}
	var mu sync.Mutex
	committed := 0
	readable, announced := false, false
	seq := func(yield func(engine.Resource, error) bool) {
		for i, r := range rs {
			if i == 4500 { // two batches sent, the third filling: pause
				deadline := time.Now().Add(10 * time.Second)
				for time.Now().Before(deadline) && !(readable && announced) {
					_, err := s.GetResource(ctx, "ten_idle", rs[0].ID)
					mu.Lock()
					readable, announced = err == nil, committed > 0
					mu.Unlock()
					time.Sleep(20 * time.Millisecond)
				}
			}
			if !yield(r, nil) {
				return
			}
		}
	}
	for b, err := range s.WriteResourceBatches(ctx, "ten_idle", seq) {
		if err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		committed += len(b.NewIDs)
		mu.Unlock()
	}
	if !readable || !announced {
		t.Errorf("during the pause: first row readable %v, announced %v; want both", readable, announced)
	}
	if committed != 6000 {
		t.Errorf("announced %d; want 6000", committed)
	}
}

// A write that fails after some batches were stored still announces
// every resource it stored, and only those: a retry would find them known
// and announce nothing. Here the third batch fails while the first one's
// announcement is being committed and the second is stored, waiting for
// its turn.
func TestWriteResourcesFailureAnnouncesStored(t *testing.T) {
	s := chtest.New(t)
	clickhouse.SetWholeRowFlush(t, 1, time.Second) // each batch an INSERT of its own
	ctx := context.Background()
	var rs []engine.Resource
	for i := range 8000 { // wide: batches of ~2,000 rows
		rs = append(rs, wideResource("ten_fail", i, testNow))
	}
	stored := func(id string) bool {
		_, err := s.GetResource(ctx, "ten_fail", id)
		return err == nil
	}
	faulted := make(chan struct{})
	clickhouse.SetInsertFault(t, func(seq int) error {
		if seq != 2 {
			return nil
		}
		// The second batch stored first (the other inserter has it).
		for deadline := time.Now().Add(10 * time.Second); !stored(rs[3000].ID) && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
		close(faulted)
		return errors.New("injected insert failure")
	})
	announced := map[string]int{}
	first := true
	var err error
	for b, berr := range s.WriteResourceBatches(ctx, "ten_fail", sliceSeq(rs)) {
		if berr != nil {
			err = berr
			break
		}
		if first { // the first batch's announcement outlasts the failure
			first = false
			<-faulted
			time.Sleep(100 * time.Millisecond)
		}
		for _, id := range b.NewIDs {
			announced[id]++
		}
	}
	if err == nil || !strings.Contains(err.Error(), "injected insert failure") {
		t.Fatalf("write error %v; want the injected failure", err)
	}
	ids, err := s.QueryStrings(ctx, "SELECT DISTINCT id FROM resources WHERE tenant_id = 'ten_fail'")
	if err != nil {
		t.Fatal(err)
	}
	if !stored(rs[0].ID) || !stored(rs[3000].ID) || stored(rs[7999].ID) {
		t.Fatalf("%d resources stored; want the first two batches, not the last", len(ids))
	}
	for _, id := range ids {
		if announced[id] != 1 {
			t.Fatalf("stored resource %s announced %d times; want once (%d stored, %d announced)", id, announced[id], len(ids), len(announced))
		}
	}
	if len(announced) != len(ids) {
		t.Errorf("%d resources announced, %d stored", len(announced), len(ids))
	}
}
