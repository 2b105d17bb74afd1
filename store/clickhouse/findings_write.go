package clickhouse

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"sync"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"github.com/fourd-dev/fourd/engine"
)

// snapshotInserters is how many batches are sent to the server at once
// while the next one is being filled: two keep both cores of a small
// machine busy (docs/clickhouse.md measured ~600k rows/s).
const snapshotInserters = 2

// maxBatchBytes bounds the size of one batch of findings, whose text makes
// rows wide: a batch is sent at Config.BatchSize rows or at this many bytes
// of row data, whichever comes first. The client holds up to
// snapshotInserters+1 batches, each up to about twice this while its
// column buffers grow.
const maxBatchBytes = 16 << 20

// maxCountGroups bounds the per-snapshot counts kept in memory while a
// snapshot streams in; past it the counts are aggregated by the server.
const maxCountGroups = 250_000

// WriteSnapshot streams the finding set of an audit into the findings table
// in batches of Config.BatchSize rows or maxBatchBytes (at most
// snapshotInserters+1 batches in memory), then writes the snapshot's counts and the marker that makes it
// complete. It returns the number of findings written.
//
// Errors: validation_failed for a bad tenant or audit id or a finding the
// table cannot hold (nothing of the snapshot stays readable); conflict when
// the snapshot was already written; the iterator's own error as it is; an
// internal error for anything the server says. A snapshot whose write failed
// half-way is deleted (asynchronously) and cleaned up before a retry.
func (s *Store) WriteSnapshot(ctx context.Context, tenantID, auditID string, findings iter.Seq2[engine.Finding, error]) (n int64, err error) {
	defer wrap(&err, "WriteSnapshot(%q, %q)", tenantID, auditID)
	if tenantID == "" {
		return 0, engine.FieldErrorf("tenant_id", "tenant id is required")
	}
	if !engine.ValidID(engine.PrefixAudit, auditID) {
		return 0, engine.FieldErrorf("audit_id", "audit_id must be an audit id (aud_…); got %q", auditID)
	}
	ctx, cancel := s.writeCtx(ctx)
	defer cancel()
	if err := s.prepareSnapshot(ctx, tenantID, auditID); err != nil {
		return 0, err
	}
	writtenAt := s.cfg.Now().UTC().Truncate(time.Second)
	counts := newSnapshotCounts(maxCountGroups)
	n, err = s.insertFindings(ctx, tenantID, auditID, writtenAt, findings, counts)
	if err == nil {
		err = s.writeCounts(ctx, tenantID, auditID, writtenAt, counts)
	}
	if err == nil {
		err = s.insertSnapshotMarker(ctx, tenantID, auditID, uint64(n), writtenAt)
	}
	if err != nil {
		// Leave nothing half-written behind; the next attempt waits for it.
		cctx, ccancel := context.WithTimeout(context.WithoutCancel(ctx), s.cfg.QueryTimeout)
		defer ccancel()
		if derr := s.deleteSnapshotRows(cctx, tenantID, auditID); derr != nil {
			s.log.Error("clickhouse: cleaning up a failed snapshot", "tenant", tenantID, "audit", auditID, "err", derr)
		}
		return 0, err
	}
	s.log.Info("clickhouse snapshot written", "tenant", tenantID, "audit", auditID, "findings", n)
	return n, nil
}

// prepareSnapshot refuses a snapshot that is complete and removes the rows
// a failed earlier attempt left, waiting until they are gone.
func (s *Store) prepareSnapshot(ctx context.Context, tenantID, auditID string) error {
	var done uint64
	if err := s.conn.QueryRow(ctx, `SELECT count() FROM finding_snapshots WHERE tenant_id = ? AND audit_id = ?`,
		tenantID, auditID).Scan(&done); err != nil {
		return err
	}
	if done > 0 {
		return engine.Errorf(engine.CodeConflict, "the findings of audit %s are already written", auditID)
	}
	var left uint64
	if err := s.conn.QueryRow(ctx, `SELECT count() FROM findings WHERE tenant_id = ? AND audit_id = ?`,
		tenantID, auditID).Scan(&left); err != nil {
		return err
	}
	if left == 0 {
		return nil
	}
	if err := s.deleteSnapshotRows(ctx, tenantID, auditID); err != nil {
		return err
	}
	return s.waitForMutations(ctx)
}

// insertFindings appends the findings to batches in this goroutine and
// sends full batches on snapshotInserters goroutines. The first error stops
// everything and is returned once every send has finished, so that a
// cleanup afterwards sees every row that reached the server. (Sends are not
// canceled: the server may still commit a block whose client went away.)
func (s *Store) insertFindings(ctx context.Context, tenantID, auditID string, writtenAt time.Time,
	findings iter.Seq2[engine.Finding, error], counts *snapshotCounts) (int64, error) {
	var (
		mu       sync.Mutex
		firstErr error
	)
	failed := make(chan struct{})
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if firstErr == nil {
			firstErr = err
			close(failed)
		}
	}
	full := make(chan driver.Batch)
	var wg sync.WaitGroup
	for range snapshotInserters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range full {
				select {
				case <-failed:
					b.Abort()
					continue
				default:
				}
				if err := b.Send(); err != nil {
					fail(fmt.Errorf("send batch: %w", err))
				}
			}
		}()
	}
	n, err := s.fillBatches(ctx, tenantID, auditID, writtenAt, findings, counts, full, failed)
	if err != nil {
		fail(err) // queued batches are dropped, not sent
	}
	close(full)
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	if firstErr != nil {
		return 0, firstErr
	}
	return n, nil
}

const insertFindingsSQL = "INSERT INTO findings (" + findingColumns + ", written_at)"

// fillBatches reads the iterator and hands each full batch to the senders
// until they fail.
func (s *Store) fillBatches(ctx context.Context, tenantID, auditID string, writtenAt time.Time,
	findings iter.Seq2[engine.Finding, error], counts *snapshotCounts, full chan<- driver.Batch, failed <-chan struct{}) (n int64, err error) {
	var b driver.Batch
	bytes := 0
	defer func() {
		if b != nil {
			b.Abort()
		}
	}()
	errStopped := errors.New("stopped after a failed send")
	handOff := func() error {
		select {
		case full <- b:
			b = nil
			return nil
		case <-failed:
			return errStopped
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	for f, ierr := range findings {
		if ierr != nil {
			return n, ierr
		}
		select {
		case <-failed:
			return n, errStopped
		default:
		}
		row, err := newFindingRow(f)
		if err != nil {
			return n, err
		}
		if b == nil {
			if b, err = s.conn.PrepareBatch(ctx, insertFindingsSQL); err != nil {
				return n, fmt.Errorf("prepare batch: %w", err)
			}
		}
		if err := b.Append(row.values(tenantID, auditID, writtenAt)...); err != nil {
			return n, fmt.Errorf("append finding %s: %w", f.ID, err)
		}
		counts.add(&f)
		n++
		bytes += row.size()
		if b.Rows() >= s.cfg.BatchSize || bytes >= maxBatchBytes {
			bytes = 0
			if err := handOff(); err != nil {
				return n, err
			}
		}
	}
	if b != nil {
		if err := handOff(); err != nil {
			return n, err
		}
	}
	return n, nil
}

// insertSnapshotMarker records that the snapshot is complete.
func (s *Store) insertSnapshotMarker(ctx context.Context, tenantID, auditID string, n uint64, writtenAt time.Time) error {
	b, err := s.conn.PrepareBatch(ctx, "INSERT INTO finding_snapshots (tenant_id, audit_id, findings, written_at)")
	if err != nil {
		return err
	}
	if err := b.Append(tenantID, auditID, n, writtenAt); err != nil {
		b.Abort()
		return err
	}
	return b.Send()
}

// DropSnapshot deletes a snapshot: its marker, counts and findings. The
// deletion is an asynchronous mutation; the snapshot stops being complete at
// once, its rows disappear shortly after. Retention of whole months is
// cheaper with DropMonthsBefore.
func (s *Store) DropSnapshot(ctx context.Context, tenantID, auditID string) (err error) {
	defer wrap(&err, "DropSnapshot(%q, %q)", tenantID, auditID)
	ctx, cancel := s.writeCtx(ctx)
	defer cancel()
	return s.deleteSnapshotRows(ctx, tenantID, auditID)
}

// deleteSnapshotRows starts the mutations that delete a snapshot, marker
// first so that it is never complete with rows missing.
func (s *Store) deleteSnapshotRows(ctx context.Context, tenantID, auditID string) error {
	s.totals.forget()
	var errs []error
	for _, table := range snapshotTables {
		if err := s.conn.Exec(ctx, "ALTER TABLE "+table+" DELETE WHERE tenant_id = ? AND audit_id = ?", tenantID, auditID); err != nil {
			errs = append(errs, fmt.Errorf("delete from %s: %w", table, err))
		}
	}
	return errors.Join(errs...)
}

// waitForMutations waits until the database's mutations are done.
func (s *Store) waitForMutations(ctx context.Context) error {
	for {
		var pending uint64
		if err := s.conn.QueryRow(ctx, "SELECT count() FROM system.mutations WHERE database = ? AND is_done = 0",
			s.database).Scan(&pending); err != nil {
			return err
		}
		if pending == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}
