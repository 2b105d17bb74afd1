package clickhouse_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// LogEvents sorts a batch by the table's key before sending it: every
// event arrives whole, whatever the order given, in its own tenant.
func TestLogEvents(t *testing.T) {
	s := chtest.New(t)
	ctx := context.Background()
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	var events []engine.Event
	var want []string
	for i := range 300 {
		tenant := []string{"ten_b", "ten_a", "ten_c"}[i%3]
		e := engine.Event{ID: engine.NewID(engine.PrefixEvent, t0.Add(time.Duration(299-i)*time.Millisecond)), TenantID: tenant,
			Type: engine.EventResourceAdded, CreatedAt: t0.Add(time.Duration(i) * time.Second),
			Data: json.RawMessage(fmt.Sprintf(`{"n":%d}`, i))}
		if i == 7 {
			e.Data = nil // stored as an empty string
		}
		events = append(events, e)
		want = append(want, strings.Join([]string{e.TenantID, e.ID, e.Type, e.CreatedAt.Format(time.RFC3339), string(e.Data)}, " "))
	}
	given := slices.Clone(events)
	if err := s.LogEvents(ctx, events); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(given, events); diff != "" {
		t.Errorf("LogEvents changed its argument (-want +got):\n%s", diff)
	}
	// A bulk append comes in the table's order already (one tenant, a run
	// of ids); its types change in runs, and its data may be empty.
	run := engine.NewIDRun(engine.PrefixEvent, t0)
	var bulk []engine.Event
	for i := range 500 {
		typ := []string{engine.EventResourceAdded, engine.EventFindingCreated}[i/200%2]
		e := engine.Event{ID: run.Next(), TenantID: "ten_d", Type: typ, CreatedAt: t0,
			Data: json.RawMessage(fmt.Sprintf(`{"resource":{"n":%d,"s":"é\"x"}}`, i))}
		if i%97 == 3 {
			e.Data = json.RawMessage{}
		}
		bulk = append(bulk, e)
		want = append(want, strings.Join([]string{e.TenantID, e.ID, e.Type, e.CreatedAt.Format(time.RFC3339), string(e.Data)}, " "))
	}
	if err := s.LogEvents(ctx, bulk); err != nil {
		t.Fatal(err)
	}
	slices.Sort(want)
	read := func(table string) []string {
		t.Helper()
		got, err := s.QueryStrings(ctx, `SELECT concat(tenant_id, ' ', id, ' ', type, ' ', formatDateTime(created_at, '%Y-%m-%dT%H:%M:%SZ'), ' ', data)
		FROM `+table+` ORDER BY tenant_id, id`)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	// Through the buffer, the events are there at once; flushed (as the
	// server does after 10 s or at shutdown), they are in events.
	if diff := cmp.Diff(want, read("events_buffer")); diff != "" {
		t.Errorf("event log through its buffer (-want +got):\n%s", diff)
	}
	if err := s.Exec(ctx, "OPTIMIZE TABLE events_buffer"); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, read("events")); diff != "" {
		t.Errorf("event log once flushed (-want +got):\n%s", diff)
	}
}

// The buffer writes into the events table of its own database, named when
// the migration ran: also once the server reattaches it from another
// database's session, as it does at every start (with currentDatabase()
// as its argument, the buffer then flushed into default.events).
func TestEventsBufferTargetsItsDatabase(t *testing.T) {
	s := chtest.New(t)
	ctx := context.Background()
	other, err := clickhouse.Open(ctx, clickhouse.Config{URL: chtest.URL()})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if other.Database() == s.Database() {
		t.Fatal("the test database is the server's default")
	}
	for _, stmt := range []string{"DETACH TABLE " + s.Database() + ".events_buffer", "ATTACH TABLE " + s.Database() + ".events_buffer"} {
		if err := other.Exec(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	ev := engine.Event{ID: engine.NewID(engine.PrefixEvent, time.Now()), TenantID: "ten_a", Type: engine.EventResourceAdded,
		CreatedAt: time.Now().UTC().Truncate(time.Second), Data: json.RawMessage(`{}`)}
	if err := s.LogEvents(ctx, []engine.Event{ev}); err != nil {
		t.Fatal(err)
	}
	if err := s.Exec(ctx, "OPTIMIZE TABLE events_buffer"); err != nil {
		t.Fatal(err)
	}
	got, err := s.QueryStrings(ctx, "SELECT id FROM events")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{ev.ID}, got); diff != "" {
		t.Errorf("events of the store's database (-want +got):\n%s", diff)
	}
}
