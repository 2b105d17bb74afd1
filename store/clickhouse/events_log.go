package clickhouse

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/ClickHouse/ch-go/proto"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"github.com/fourd-dev/fourd/engine"
)

// LogEvents copies events into the event log, through its Buffer table
// (migration 0011), in one batch sorted by the table's key (a batch larger
// than the buffer holds goes straight to events, and the server then
// skips its sort, as for findings), appended column by column.
//
// A bulk import logs a million resource.added, a batch at a time, already in
// the table's order (one tenant, ids of one run). So LogEvents sorts only
// what is out of order, and, where the driver's layout is known
// (presize.go), lays the String columns out once in a pooled buffer that
// the driver's columns point at: one copy of the data instead of two, and
// the tenant and type written once for all their rows (0.5 s of a 1M
// import's client CPU went to appending these columns and sorting).
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
// and calls send (the batch's Send or Flush), which encodes the columns:
// the String columns may point at pooled memory until it returns.
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
	raws := [4]*proto.ColStr{rawStringColumn(b, 0), rawStringColumn(b, 1), rawStringColumn(b, 2), rawStringColumn(b, 4)}
	if raws[0] != nil && raws[1] != nil && raws[2] != nil && raws[3] != nil {
		sc.layout(events, order)
		for c, raw := range raws {
			raw.Buf, raw.Pos = sc.buf[:len(sc.buf):len(sc.buf)], sc.pos[c]
		}
		// The driver encodes the columns into its connection's buffer at
		// Send or Flush (or drops them at Abort); they then let go of the
		// scratch.
		defer func() {
			for _, raw := range raws {
				raw.Buf, raw.Pos = nil, nil
			}
		}()
		if err := b.Column(3).Append(created); err != nil {
			return err
		}
		return send()
	}
	tenants, ids, types, data := make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	size := 0
	for j, i := range order {
		e := &events[i]
		tenants[j], ids[j], types[j] = e.TenantID, e.ID, e.Type
		// The data's bytes are only read, and copied by the driver.
		data[j] = unsafe.String(unsafe.SliceData(e.Data), len(e.Data))
		size += len(e.Data)
	}
	presizeStrings(b, 4, n, size)
	for i, col := range []any{tenants, ids, types, created, data} {
		if err := b.Column(i).Append(col); err != nil {
			return err
		}
	}
	return send()
}

// eventLogScratch is the reusable memory of one LogEvents call.
type eventLogScratch struct {
	order   []int32
	created []time.Time
	buf     []byte
	pos     [4][]proto.Position // tenant_id, id, type, data
}

var eventLogScratchPool = sync.Pool{New: func() any { return new(eventLogScratch) }}

// release returns sc to the pool, unless a batch made it too large to keep
// (the next call would hold on to memory that only a rare one needs).
func (sc *eventLogScratch) release() {
	if cap(sc.buf) > 64<<20 {
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

// layout writes the String columns' values into sc.buf and their rows'
// positions, in order, into sc.pos. A tenant or type equal to the previous
// row's (as are all of a bulk append's) points at the same bytes.
func (sc *eventLogScratch) layout(events []engine.Event, order []int32) {
	size := 0
	for i := range events {
		size += len(events[i].ID) + len(events[i].Data)
	}
	n := len(order)
	buf := slices.Grow(sc.buf[:0], size+64)
	for c := range sc.pos {
		sc.pos[c] = slices.Grow(sc.pos[c][:0], n)[:n]
	}
	put := func(v string) proto.Position {
		start := len(buf)
		buf = append(buf, v...)
		return proto.Position{Start: start, End: len(buf)}
	}
	var tenant, typ proto.Position
	for j, i := range order {
		e := &events[i]
		if j == 0 || e.TenantID != events[order[j-1]].TenantID {
			tenant = put(e.TenantID)
		}
		if j == 0 || e.Type != events[order[j-1]].Type {
			typ = put(e.Type)
		}
		sc.pos[0][j], sc.pos[2][j] = tenant, typ
		sc.pos[1][j] = put(e.ID)
		start := len(buf)
		buf = append(buf, e.Data...)
		sc.pos[3][j] = proto.Position{Start: start, End: len(buf)}
	}
	sc.buf = buf
}
