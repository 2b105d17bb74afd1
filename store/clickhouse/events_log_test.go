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
	got, err := s.QueryStrings(ctx, `SELECT concat(tenant_id, ' ', id, ' ', type, ' ', formatDateTime(created_at, '%Y-%m-%dT%H:%M:%SZ'), ' ', data)
		FROM events ORDER BY tenant_id, id`)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("event log (-want +got):\n%s", diff)
	}
}
