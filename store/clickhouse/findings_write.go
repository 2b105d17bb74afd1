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
	var wg sync.WaitGroup
	for range snapshotInserters {
		wg.Go(func() {
			for rows := range full {
				select {
				case <-failed:
					continue
				default:
				}
				if err := s.sendFindingBatch(ctx, tenantID, auditID, writtenAt, rows); err != nil {
					fail(err)
				}
			}
		})
	}
	n, err := s.fillBatches(ctx, findings, counts, full, failed)
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
	full chan<- []findingRow, failed <-chan struct{}) (n int64, err error) {
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
			rows = make([]findingRow, 0, s.cfg.BatchSize)
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
func (s *Store) sendFindingBatch(ctx context.Context, tenantID, auditID string, writtenAt time.Time, rows []findingRow) error {
	order := make([]sortEntry, len(rows))
	for i := range rows {
		order[i] = sortEntry{key: rows[i].findingKey, row: int32(i)}
	}
	sortRows(order, rows, compareFindingKeys)
	if err := s.sendColumns(ctx, insertFindingsSQL, findingBlock(rows, order, tenantID, auditID, writtenAt)); err != nil {
		return fmt.Errorf("send findings: %w", err)
	}
	for i := range order {
		order[i].key = rows[order[i].row].resourceKey
	}
	sortRows(order, rows, compareResourceKeys)
	if err := s.sendColumns(ctx, insertFindingResourcesSQL, findingResourceBlock(rows, order, tenantID, auditID, writtenAt)); err != nil {
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

// sendColumns sends one INSERT whose columns, in the statement's order, are
// the given slices ([]string, []uint8, []int8, []time.Time or [][]string),
// appended column by column rather than row by row.
func (s *Store) sendColumns(ctx context.Context, insert string, cols []any) error {
	b, err := s.conn.PrepareBatch(ctx, insert)
	if err != nil {
		return fmt.Errorf("prepare batch: %w", err)
	}
	for i, c := range cols {
		if arr, ok := c.([][]string); ok {
			for _, v := range arr {
				if err := b.Column(i).AppendRow(v); err != nil {
					b.Abort()
					return err
				}
			}
			continue
		}
		if err := b.Column(i).Append(c); err != nil {
			b.Abort()
			return err
		}
	}
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

// findingBlock is the columns of insertFindingsSQL for rows in order.
func findingBlock(rows []findingRow, order []sortEntry, tenantID, auditID string, writtenAt time.Time) []any {
	n := len(order)
	strs := func() []string { return make([]string, n) }
	tenant, audit, written := repeatN(tenantID, n), repeatN(auditID, n), repeatN(writtenAt.Unix(), n)
	sevOrd := make([]uint8, n)
	id, resolution, resourceID, ruleID, resourceType, provider, account, region := strs(), strs(), strs(), strs(), strs(), strs(), strs(), strs()
	title, description, remediation, evidence := strs(), strs(), strs(), strs()
	severity, dimension, status := make([]int8, n), make([]int8, n), make([]int8, n)
	compliance := make([][]string, n)
	first, last, resolved := make([]int64, n), make([]int64, n), make([]int64, n)
	for j, e := range order {
		r := &rows[e.row]
		sevOrd[j], id[j] = r.sevOrder, r.id
		severity[j], dimension[j], status[j] = r.severity, r.dimension, r.status
		resolution[j], resourceID[j], ruleID[j], resourceType[j] = r.resolution, r.resourceID, r.ruleID, r.resourceType
		provider[j], account[j], region[j] = r.provider, r.account, r.region
		title[j], description[j], remediation[j], evidence[j] = r.title, r.description, r.remediation, r.evidence
		compliance[j] = r.compliance
		first[j], last[j], resolved[j] = r.firstSeen, r.lastSeen, r.resolved
	}
	return []any{tenant, audit, sevOrd, id, severity, dimension, status, resolution, resourceID, ruleID, resourceType,
		provider, account, region, title, description, remediation, evidence, compliance, first, last, resolved, written}
}

// findingResourceBlock is the columns of insertFindingResourcesSQL for rows
// in order.
func findingResourceBlock(rows []findingRow, order []sortEntry, tenantID, auditID string, writtenAt time.Time) []any {
	n := len(order)
	resourceID, id, sevOrd := make([]string, n), make([]string, n), make([]uint8, n)
	for j, e := range order {
		r := &rows[e.row]
		resourceID[j], sevOrd[j], id[j] = r.resourceID, r.sevOrder, r.id
	}
	return []any{repeatN(tenantID, n), repeatN(auditID, n), resourceID, sevOrd, id, repeatN(writtenAt.Unix(), n)}
}

func repeatN[T any](v T, n int) []T {
	out := make([]T, n)
	for i := range out {
		out[i] = v
	}
	return out
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
