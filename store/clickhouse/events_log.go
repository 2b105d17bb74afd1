package clickhouse

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse/internal/bulk"
)

// LogEvents copies events into the event log, through its Buffer table
// (migration 0011), in one batch sorted by the table's key (a batch larger
// than the buffer holds goes straight to events, and the server then
// skips its sort, as for findings), appended column by column.
//
// A bulk import logs a million resource.added, a batch at a time, already in
// the table's order (one tenant, ids of one run). So LogEvents sorts only
// what is out of order, and appends each column as one slice through the
// driver's public batch API, gathered in pooled scratch (internal/bulk).
func (s *Store) LogEvents(ctx context.Context, events []engine.Event) (err error) {
	defer wrap(&err, "LogEvents(%d)", len(events))
	if len(events) == 0 {
		return nil
	}
	ctx, cancel := s.writeCtx(ctx)
	defer cancel()
	b, err := s.prepareBatch(ctx, "INSERT INTO events_buffer ("+eventLogColumns+")")
	if err != nil {
		return err
	}
	if err := appendEventColumns(b, events, b.Send); err != nil {
		b.Abort()
		return err
	}
	return nil
}

const eventLogColumns = "tenant_id, id, type, created_at, data"

// appendEventColumns appends events to b's columns, in the table's order,
// and calls send (the batch's Send or Flush), which encodes the columns.
func appendEventColumns(b driver.Batch, events []engine.Event, send func() error) error {
	sc := eventLogScratchPool.Get().(*eventLogScratch)
	defer sc.release()
	order := sc.sortOrder(events)
	n := len(events)
	created := slices.Grow(sc.created[:0], n)[:n]
	sc.created = created
	for j, i := range order {
		created[j] = events[i].CreatedAt.UTC()
	}
	ev := func(j int) *engine.Event { return &events[order[j]] }
	for _, step := range []func() error{
		func() error {
			return bulk.Strings(b.Column(0), &sc.strs, n, func(j int) string { return ev(j).TenantID })
		},
		func() error { return bulk.Strings(b.Column(1), &sc.strs, n, func(j int) string { return ev(j).ID }) },
		func() error { return bulk.Strings(b.Column(2), &sc.strs, n, func(j int) string { return ev(j).Type }) },
		func() error { return b.Column(3).Append(created) },
		// The data's bytes are only read, and copied by the driver.
		func() error {
			return bulk.Strings(b.Column(4), &sc.strs, n, func(j int) string { return bulk.String(ev(j).Data) })
		},
	} {
		if err := step(); err != nil {
			return err
		}
	}
	return send()
}

// eventLogScratch is the reusable memory of one LogEvents call.
type eventLogScratch struct {
	order   []int32
	created []time.Time
	strs    []string
}

var eventLogScratchPool = sync.Pool{New: func() any { return new(eventLogScratch) }}

// release returns sc to the pool, unless a batch made it too large to keep
// (the next call would hold on to memory that only a rare one needs).
func (sc *eventLogScratch) release() {
	if cap(sc.order) > 1<<20 {
		return
	}
	eventLogScratchPool.Put(sc)
}

// sortOrder returns the events' indexes in the table's order (tenant_id,
// id); an append already in order is not sorted again.
func (sc *eventLogScratch) sortOrder(events []engine.Event) []int32 {
	order := slices.Grow(sc.order[:0], len(events))[:len(events)]
	sc.order = order
	for i := range order {
		order[i] = int32(i)
	}
	less := func(a, b int32) int {
		x, y := &events[a], &events[b]
		if c := strings.Compare(x.TenantID, y.TenantID); c != 0 {
			return c
		}
		return strings.Compare(x.ID, y.ID)
	}
	if !slices.IsSortedFunc(order, less) {
		slices.SortFunc(order, less)
	}
	return order
}
