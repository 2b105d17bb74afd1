package clickhouse

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// Defaults of ResourceWriterConfig.
const (
	DefaultResourceBatchSize     = 20_000
	DefaultResourceFlushInterval = time.Second
)

// ResourceWriterConfig configures a ResourceWriter.
type ResourceWriterConfig struct {
	// BatchSize is the number of observations per INSERT and the most the
	// writer holds; a Write that finds the buffer full flushes first.
	BatchSize int
	// FlushInterval flushes a non-empty buffer that has waited this long;
	// negative disables the timer (flushes happen on size, Flush and Close).
	FlushInterval time.Duration
	// OnNew, when set, is called after each successful flush with the ids
	// that the tenant had never had before (for resource.added). It runs
	// while the writer is locked and must not call the writer.
	OnNew func(tenantID string, ids []string)
	// OnNewResources, when set, is called after each successful flush with
	// the observations of the resources new to their tenant, so a caller
	// can announce them without reading them back. Its error is the
	// flush's (the rows are written already and are not retried).
	OnNewResources func(tenantID string, rs []engine.Resource) error
}

// ResourceWriter batches resource observations for long-running ingestion:
// thousands of rows per INSERT, flushed on size or interval, bounded memory,
// errors surfaced to the caller, nothing dropped on shutdown. A failed flush
// keeps its rows: the error is returned by Flush, or by the next Write,
// Flush or Close after a timed flush, and a later Flush retries them. It is
// safe for concurrent use.
type ResourceWriter struct {
	s   *Store
	cfg ResourceWriterConfig

	mu        sync.Mutex
	buf       []resourceRow
	err       error // of a timed flush, until reported
	written   int64
	lastFlush time.Time
	closed    bool
	// known caches the ids of tenants whose batches are large (a bulk
	// import), read once; it grows with the tenant (about 100 bytes an id).
	known   map[string]*tenantKnown
	scratch resourceScratch

	stop chan struct{}
	done chan struct{}
}

// NewResourceWriter returns a writer into the store. Close it.
func (s *Store) NewResourceWriter(cfg ResourceWriterConfig) *ResourceWriter {
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = DefaultResourceBatchSize
	}
	if cfg.FlushInterval == 0 {
		cfg.FlushInterval = DefaultResourceFlushInterval
	}
	w := &ResourceWriter{s: s, cfg: cfg, buf: make([]resourceRow, 0, min(cfg.BatchSize, 4096)),
		lastFlush: s.cfg.Now(), stop: make(chan struct{}), done: make(chan struct{})}
	if cfg.FlushInterval > 0 {
		go w.timer()
	} else {
		close(w.done)
	}
	return w
}

// errWriterClosed is returned by a Write after Close.
var errWriterClosed = errors.New("clickhouse: resource writer is closed")

// Write adds an observation of a tenant's resource. It returns
// validation_failed for an observation the table cannot hold (nothing is
// buffered), and the error of a flush that failed (the buffer is full or a
// timed flush failed).
func (w *ResourceWriter) Write(ctx context.Context, tenantID string, r engine.Resource) error {
	row, err := newResourceRow(tenantID, r, w.s.cfg.Now())
	if err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return errWriterClosed
	}
	if err := w.takeErr(); err != nil {
		return err
	}
	if len(w.buf) >= w.cfg.BatchSize {
		if err := w.flushLocked(ctx); err != nil {
			return err
		}
	}
	w.buf = append(w.buf, row)
	return nil
}

// Flush writes what the writer holds and returns the first error since the
// last report. On error the rows stay buffered.
func (w *ResourceWriter) Flush(ctx context.Context) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.flushLocked(ctx); err != nil {
		w.err = nil
		return err
	}
	return w.takeErr()
}

// Close stops the timer and flushes. When the flush fails Close returns its
// error and the rows stay buffered: Flush or Close may be called again.
func (w *ResourceWriter) Close(ctx context.Context) error {
	select {
	case <-w.stop:
	default:
		close(w.stop)
	}
	<-w.done
	if err := w.Flush(ctx); err != nil {
		return err
	}
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
	return nil
}

// Written is the number of observations written so far.
func (w *ResourceWriter) Written() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.written
}

// Pending is the number of observations buffered, not yet written.
func (w *ResourceWriter) Pending() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.buf)
}

func (w *ResourceWriter) takeErr() error {
	err := w.err
	w.err = nil
	return err
}

// timer flushes a buffer that has waited FlushInterval.
func (w *ResourceWriter) timer() {
	defer close(w.done)
	t := time.NewTicker(w.cfg.FlushInterval / 4)
	defer t.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-t.C:
		}
		w.mu.Lock()
		if len(w.buf) > 0 && w.s.cfg.Now().Sub(w.lastFlush) >= w.cfg.FlushInterval {
			if err := w.flushLocked(context.Background()); err != nil {
				w.s.log.Error("clickhouse: timed resource flush failed", "rows", len(w.buf), "err", err)
				w.err = err
			}
		}
		w.mu.Unlock()
	}
}

// flushLocked writes the buffer: it looks up which ids each tenant already
// has (keeping their first_seen_at), inserts the rows in one INSERT and
// reports the new ids.
func (w *ResourceWriter) flushLocked(ctx context.Context) (err error) {
	defer wrap(&err, "flush resources")
	w.lastFlush = w.s.cfg.Now()
	if len(w.buf) == 0 {
		return nil
	}
	ctx, cancel := w.s.writeCtx(ctx)
	defer cancel()
	if w.known == nil {
		w.known = map[string]*tenantKnown{}
	}
	firstSeen, newIDs, err := w.s.firstSeen(ctx, w.buf, w.known)
	if err != nil {
		return err
	}
	if _, err := w.s.insertResourceRows(ctx, &w.scratch, w.buf, 0, firstSeen, nil, nil); err != nil {
		return err
	}
	w.written += int64(len(w.buf))
	var notifyErr error
	if w.cfg.OnNewResources != nil {
		order, byTenant := newResources(w.buf, firstSeen, newIDs, nil)
		for _, t := range order {
			if err := w.cfg.OnNewResources(t, byTenant[t]); err != nil && notifyErr == nil {
				notifyErr = err
			}
		}
	}
	for i := range w.buf {
		if row := &w.buf[i]; !row.unchanged {
			if k := w.known[row.r.TenantID]; k != nil {
				k.recordRow(row, firstSeen[i].Unix())
			}
		}
	}
	clear(w.buf)
	w.buf = w.buf[:0]
	if w.cfg.OnNew != nil {
		for _, t := range newIDs {
			w.cfg.OnNew(t.tenantID, t.ids)
		}
	}
	return notifyErr
}
