package ingest

import (
	"context"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// logCopier copies committed events to the event log, in the order they
// were committed, on a goroutine of its own: a bulk import's committing
// goroutine (the store's notifier) then waits for the outbox only, and
// the event log's round trip for one batch overlaps the outbox commit of
// the next. In a first import of 1M resources the notifier waited ~2.7 s
// for LogEvents and ~1.5 s for the outbox, one after the other, while the
// inserters waited for it.
//
// A copy stays best effort, as in publish: a failure is logged. It still
// runs only after its outbox commit succeeded, so the event log holds no
// event the outbox lost.
type logCopier struct {
	s    *Service
	jobs chan logCopy
	done chan struct{}
}

// logCopy is one committed chunk of events; release gives their memory
// back once they are copied.
type logCopy struct {
	ctx     context.Context
	events  []engine.Event
	release func()
}

// logCopyQueue bounds the chunks waiting for the copier, and so the
// payload memory they hold; a full queue makes commits wait.
const logCopyQueue = 2

// logCopyTimeout bounds one copy, which outlives its commit's context.
const logCopyTimeout = time.Minute

// startLogCopier starts a copier, or returns nil when there is no event
// log (events then need no copy).
func (s *Service) startLogCopier() *logCopier {
	if s.cfg.EventLog == nil {
		return nil
	}
	c := &logCopier{s: s, jobs: make(chan logCopy, logCopyQueue), done: make(chan struct{})}
	go c.run()
	return c
}

// logStreamAfter is how many events a copier copies one write at a time
// (LogEvents) before it takes a stream, when the event log offers one
// (EventLogStreamer): a small POST /v1/resources stays one small write,
// which the event log may gather with others (ClickHouse: through its
// Buffer table), while a bulk import's million events go as a few large
// ones.
var logStreamAfter = 10_000 // a variable for tests

func (c *logCopier) run() {
	defer close(c.done)
	var stream engine.EventLogStream
	copied := 0
	for j := range c.jobs {
		ctx, cancel := context.WithTimeout(j.ctx, logCopyTimeout)
		if st, ok := c.s.cfg.EventLog.(engine.EventLogStreamer); ok && stream == nil && copied >= logStreamAfter {
			stream = st.StreamEvents(j.ctx)
		}
		copied += len(j.events)
		if stream != nil {
			if err := stream.Append(ctx, j.events); err != nil {
				c.s.log.WarnContext(ctx, "copying events to the event log", "err", err, "events", len(j.events))
			}
		} else {
			c.s.publisher().LogEvents(ctx, j.events)
		}
		cancel()
		j.release()
	}
	if stream != nil {
		if err := stream.Close(); err != nil {
			c.s.log.Warn("copying events to the event log", "err", err)
		}
	}
}

// copy queues committed events; release runs once they are copied. The
// copy keeps ctx's values but not its cancellation: the events are
// committed, and their copy should not be lost with the caller.
func (c *logCopier) copy(ctx context.Context, events []engine.Event, release func()) {
	c.jobs <- logCopy{ctx: context.WithoutCancel(ctx), events: events, release: release}
}

// close waits for the queued copies.
func (c *logCopier) close() {
	close(c.jobs)
	<-c.done
}
