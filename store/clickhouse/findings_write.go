package clickhouse

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"
	"sync"
	"time"

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

// insertFindings validates the findings into batches in this goroutine and
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
	full := make(chan []findingRow)
	// Sent batches come back to be filled again: at most
	// snapshotInserters+1 batches of rows exist, and the garbage collector
	// sees none of them churn.
	free := make(chan []findingRow, snapshotInserters+1)
	var wg sync.WaitGroup
	for range snapshotInserters {
		wg.Go(func() {
			var sc columnScratch
			for rows := range full {
				select {
				case <-failed:
					continue
				default:
				}
				if err := s.sendFindingBatch(ctx, &sc, tenantID, auditID, writtenAt, rows); err != nil {
					fail(err)
				}
				select {
				case free <- rows[:0]:
				default: // never blocks a sender
				}
			}
		})
	}
	n, err := s.fillBatches(ctx, findings, counts, full, free, failed)
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

// fillBatches reads and validates the iterator's findings and hands each
// full batch to the senders until they fail.
func (s *Store) fillBatches(ctx context.Context, findings iter.Seq2[engine.Finding, error], counts *snapshotCounts,
	full chan<- []findingRow, free <-chan []findingRow, failed <-chan struct{}) (n int64, err error) {
	var rows []findingRow
	bytes := 0
	errStopped := errors.New("stopped after a failed send")
	handOff := func() error {
		select {
		case full <- rows:
			rows, bytes = nil, 0
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
		row, err := newFindingRow(&f)
		if err != nil {
			return n, err
		}
		if rows == nil {
			select {
			case rows = <-free:
			default:
				rows = make([]findingRow, 0, min(s.cfg.BatchSize, 1<<14))
			}
		}
		rows = append(rows, row)
		counts.add(&f)
		n++
		bytes += row.size()
		if len(rows) >= s.cfg.BatchSize || bytes >= maxBatchBytes {
			if err := handOff(); err != nil {
				return n, err
			}
		}
	}
	if len(rows) > 0 {
		if err := handOff(); err != nil {
			return n, err
		}
	}
	return n, nil
}

// sendFindingBatch inserts one batch of a snapshot into findings and its
// keys into finding_resources, each sorted by its table's order key first:
// the server then skips sorting the block, which otherwise costs it more
// than the rest of the insert (docs/benchmarks.md, issue 2).
func (s *Store) sendFindingBatch(ctx context.Context, sc *columnScratch, tenantID, auditID string, writtenAt time.Time, rows []findingRow) error {
	order := sc.order[:0]
	for i := range rows {
		order = append(order, sortEntry{key: rows[i].findingKey, row: int32(i)})
	}
	sc.order = order
	sortRows(order, rows, compareFindingKeys)
	consts := snapshotConsts{tenantID, auditID, writtenAt.Unix()}
	if err := s.sendColumns(ctx, sc, insertFindingsSQL, findingTableColumns, rows, order, consts); err != nil {
		return fmt.Errorf("send findings: %w", err)
	}
	for i := range order {
		order[i].key = rows[order[i].row].resourceKey
	}
	sortRows(order, rows, compareResourceKeys)
	if err := s.sendColumns(ctx, sc, insertFindingResourcesSQL, findingResourceColumns, rows, order, consts); err != nil {
		return fmt.Errorf("send finding resources: %w", err)
	}
	return nil
}

// sortEntry is a row of a batch by its packed sort key: sorting these
// compares integers and touches the rows only on equal keys.
type sortEntry struct {
	key uint64
	row int32
}

// sortRows sorts order by key, then by cmp of the rows for equal keys.
func sortRows(order []sortEntry, rows []findingRow, cmp func(a, b *findingRow) int) {
	slices.SortFunc(order, func(a, b sortEntry) int {
		if a.key != b.key {
			if a.key < b.key {
				return -1
			}
			return 1
		}
		return cmp(&rows[a.row], &rows[b.row])
	})
}

// columnScratch is one sender's reusable buffers: a batch's sort order and
// one column's values at a time, so that a batch costs no per-column
// allocation beyond what the driver copies.
type columnScratch struct {
	order []sortEntry
	strs  []string
	u8    []uint8
	i8    []int8
	i64   []int64
}

// snapshotConsts are the column values every row of a snapshot shares.
type snapshotConsts struct {
	tenantID, auditID string
	writtenAt         int64
}

// rowColumn is how one column of an INSERT is read from a findingRow (or
// from the snapshot's constants): exactly one field is set.
type rowColumn struct {
	str   func(*findingRow) string
	u8    func(*findingRow) uint8
	i8    func(*findingRow) int8
	i64   func(*findingRow) int64
	arr   func(*findingRow) []string
	konst func(snapshotConsts) any // a string or an int64
}

// sendColumns sends one INSERT of rows in order, appending column by column
// (no per-value interface conversion) from sc's buffers.
func (s *Store) sendColumns(ctx context.Context, sc *columnScratch, insert string, cols []rowColumn,
	rows []findingRow, order []sortEntry, consts snapshotConsts) error {
	b, err := s.conn.PrepareBatch(ctx, insert)
	if err != nil {
		return fmt.Errorf("prepare batch: %w", err)
	}
	n := len(order)
	for i, c := range cols {
		var v any
		switch {
		case c.str != nil:
			sc.strs = slices.Grow(sc.strs[:0], n)[:n]
			size := 0
			for j, e := range order {
				sc.strs[j] = c.str(&rows[e.row])
				size += len(sc.strs[j])
			}
			presizeStrings(b, i, n, size)
			v = sc.strs
		case c.u8 != nil:
			sc.u8 = slices.Grow(sc.u8[:0], n)[:n]
			for j, e := range order {
				sc.u8[j] = c.u8(&rows[e.row])
			}
			v = sc.u8
		case c.i8 != nil:
			sc.i8 = slices.Grow(sc.i8[:0], n)[:n]
			for j, e := range order {
				sc.i8[j] = c.i8(&rows[e.row])
			}
			v = sc.i8
		case c.i64 != nil:
			sc.i64 = slices.Grow(sc.i64[:0], n)[:n]
			for j, e := range order {
				sc.i64[j] = c.i64(&rows[e.row])
			}
			v = sc.i64
		case c.arr != nil:
			for _, e := range order {
				if err := b.Column(i).AppendRow(c.arr(&rows[e.row])); err != nil {
					b.Abort()
					return err
				}
			}
			continue
		default:
			switch k := c.konst(consts).(type) {
			case string:
				sc.strs = slices.Grow(sc.strs[:0], n)[:n]
				for j := range sc.strs {
					sc.strs[j] = k
				}
				presizeStrings(b, i, n, n*len(k))
				v = sc.strs
			case int64:
				sc.i64 = slices.Grow(sc.i64[:0], n)[:n]
				for j := range sc.i64 {
					sc.i64[j] = k
				}
				v = sc.i64
			}
		}
		if err := b.Column(i).Append(v); err != nil {
			b.Abort()
			return err
		}
	}
	clear(sc.strs) // drop references to the batch's strings
	return b.Send()
}

// compareFindingKeys orders rows as the findings table does inside one
// snapshot: by sev_order, then id.
func compareFindingKeys(a, b *findingRow) int {
	if c := cmp.Compare(a.findingKey, b.findingKey); c != 0 {
		return c
	}
	return strings.Compare(a.id, b.id)
}

// compareResourceKeys orders rows as finding_resources does inside one
// snapshot: by resource id, then as compareFindingKeys.
func compareResourceKeys(a, b *findingRow) int {
	if c := cmp.Compare(a.resourceKey, b.resourceKey); c != 0 {
		return c
	}
	if c := strings.Compare(a.resourceID, b.resourceID); c != 0 {
		return c
	}
	return compareFindingKeys(a, b)
}

const insertFindingResourcesSQL = "INSERT INTO finding_resources (tenant_id, audit_id, resource_id, sev_order, id, written_at)"

// findingTableColumns read the columns of insertFindingsSQL, in its order.
var findingTableColumns = []rowColumn{
	{konst: func(c snapshotConsts) any { return c.tenantID }},
	{konst: func(c snapshotConsts) any { return c.auditID }},
	{u8: func(r *findingRow) uint8 { return r.sevOrder }},
	{str: func(r *findingRow) string { return r.id }},
	{i8: func(r *findingRow) int8 { return r.severity }},
	{i8: func(r *findingRow) int8 { return r.dimension }},
	{i8: func(r *findingRow) int8 { return r.status }},
	{str: func(r *findingRow) string { return r.resolution }},
	{str: func(r *findingRow) string { return r.resourceID }},
	{str: func(r *findingRow) string { return r.ruleID }},
	{str: func(r *findingRow) string { return r.resourceType }},
	{str: func(r *findingRow) string { return r.provider }},
	{str: func(r *findingRow) string { return r.account }},
	{str: func(r *findingRow) string { return r.region }},
	{str: func(r *findingRow) string { return r.title }},
	{str: func(r *findingRow) string { return r.description }},
	{str: func(r *findingRow) string { return r.remediation }},
	{str: func(r *findingRow) string { return r.evidence }},
	{arr: func(r *findingRow) []string { return r.compliance }},
	{i64: func(r *findingRow) int64 { return r.firstSeen }},
	{i64: func(r *findingRow) int64 { return r.lastSeen }},
	{i64: func(r *findingRow) int64 { return r.resolved }},
	{konst: func(c snapshotConsts) any { return c.writtenAt }},
}

// findingResourceColumns read the columns of insertFindingResourcesSQL, in
// its order.
var findingResourceColumns = []rowColumn{
	{konst: func(c snapshotConsts) any { return c.tenantID }},
	{konst: func(c snapshotConsts) any { return c.auditID }},
	{str: func(r *findingRow) string { return r.resourceID }},
	{u8: func(r *findingRow) uint8 { return r.sevOrder }},
	{str: func(r *findingRow) string { return r.id }},
	{konst: func(c snapshotConsts) any { return c.writtenAt }},
}

const insertFindingsSQL = "INSERT INTO findings (" + findingColumns + ", written_at)"

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
