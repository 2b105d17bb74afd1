package clickhouse

import (
	"context"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"github.com/fourd-dev/fourd/engine"
)

// StreamEvents opens a stream of appends to the event log for a long run
// of events (a bulk import's resource.added): they go straight into
// events, as the blocks of one INSERT kept open across appends, where
// LogEvents makes an INSERT into the Buffer table each call. The server
// then parses each event once and writes a part per INSERT, rather than
// copying each call's events into the buffer and writing them again from
// there.
func (s *Store) StreamEvents(ctx context.Context) engine.EventLogStream {
	return &eventStream{s: s, ctx: ctx}
}

// eventStreamRows and eventStreamAge bound an open INSERT of an event
// stream: when an append finds it holding as many rows, or as old, it is
// sent (its events become readable) and the next append opens another.
var (
	eventStreamRows = 200_000 // variables for tests
	eventStreamAge  = 5 * time.Second
)

type eventStream struct {
	s      *Store
	ctx    context.Context
	b      driver.Batch
	rows   int
	opened time.Time
}

// Append appends events to the open INSERT, opening one if needed under
// the stream's context: an INSERT outlives the append that opens it, so
// the append's own context bounds nothing here. After an error the INSERT
// is dropped (its unsent events with it, as an event log copy is best
// effort) and the next append opens another.
func (w *eventStream) Append(_ context.Context, events []engine.Event) (err error) {
	defer wrap(&err, "event log stream: append(%d)", len(events))
	if len(events) == 0 {
		return nil
	}
	if w.b == nil {
		wctx, cancel := w.s.writeCtx(w.ctx)
		b, err := w.s.prepareBatch(wctx, "INSERT INTO events ("+eventLogColumns+")")
		cancel() // prepareBatch keeps only the deadline
		if err != nil {
			return err
		}
		w.b, w.rows, w.opened = b, 0, time.Now()
	}
	if err := appendEventColumns(w.b, events, w.b.Flush); err != nil {
		w.b.Abort()
		w.b = nil
		return err
	}
	w.rows += len(events)
	if w.rows >= eventStreamRows || time.Since(w.opened) >= eventStreamAge {
		return w.send()
	}
	return nil
}

// Close sends the open INSERT, if any.
func (w *eventStream) Close() (err error) {
	defer wrap(&err, "event log stream: close")
	return w.send()
}

func (w *eventStream) send() error {
	if w.b == nil {
		return nil
	}
	b := w.b
	w.b = nil
	return b.Send()
}
