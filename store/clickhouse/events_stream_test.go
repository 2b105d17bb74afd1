package clickhouse_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// An event log stream writes its appends straight into events, as one
// INSERT until it holds eventStreamRows: what it sent is readable, the
// rest once it is closed. Appends may come in any order and reuse their
// memory once they return.
func TestEventStream(t *testing.T) {
	s := chtest.New(t)
	ctx := context.Background()
	clickhouse.SetEventStreamRows(t, 250)
	count := func() int {
		t.Helper()
		got, err := s.QueryStrings(ctx, "SELECT toString(count()) FROM events")
		if err != nil {
			t.Fatal(err)
		}
		var n int
		fmt.Sscan(got[0], &n)
		return n
	}
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	run := engine.NewIDRun(engine.PrefixEvent, t0)
	var want []string
	st := s.StreamEvents(ctx)
	buf := make([]engine.Event, 0, 100)
	for batch := range 4 {
		buf = buf[:0]
		for i := range 100 {
			tenant := []string{"ten_a", "ten_b"}[(batch+i)%2]
			e := engine.Event{ID: run.Next(), TenantID: tenant, Type: engine.EventResourceAdded, CreatedAt: t0.Add(time.Duration(batch) * time.Second),
				Data: json.RawMessage(fmt.Sprintf(`{"resource":{"n":%d}}`, batch*100+i))}
			buf = append(buf, e)
			want = append(want, fmt.Sprintf("%s %s %s %s", e.TenantID, e.ID, e.CreatedAt.Format(time.RFC3339), e.Data))
		}
		if batch == 1 {
			slices.Reverse(buf) // out of the table's order
		}
		if err := st.Append(ctx, buf); err != nil {
			t.Fatal(err)
		}
		for i := range buf { // the caller's memory, reused
			buf[i].Data = json.RawMessage(`{"overwritten":true}`)
		}
		// The first INSERT is sent by the append that brought it to 300
		// rows; the last 100 wait for Close.
		if n, want := count(), map[int]int{0: 0, 1: 0, 2: 300, 3: 300}[batch]; n != want {
			t.Fatalf("after append %d: %d events readable; want %d", batch, n, want)
		}
	}
	if err := st.Append(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatalf("a second Close: %v", err)
	}
	slices.Sort(want)
	got, err := s.QueryStrings(ctx, `SELECT concat(tenant_id, ' ', id, ' ', formatDateTime(created_at, '%Y-%m-%dT%H:%M:%SZ'), ' ', data)
		FROM events WHERE type = 'resource.added' ORDER BY tenant_id, id`)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("event log (-want +got):\n%s", diff)
	}
	// A stream closed with nothing appended writes nothing.
	if err := s.StreamEvents(ctx).Close(); err != nil {
		t.Fatal(err)
	}
}
