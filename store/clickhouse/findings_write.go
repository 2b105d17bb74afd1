package clickhouse

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"sync"
	"time"

	"github.com/go-faster/city"

	"github.com/fourd-dev/fourd/engine"
)

// snapshotInserters is how many runs are sent to the server at once
// while the next one is being filled: two keep both cores of a small
// machine busy (docs/clickhouse.md measured ~600k rows/s).
const snapshotInserters = 2

// A snapshot is sent in runs (findingRun) of up to Config.BatchSize rows,
// one INSERT each, which the server writes as one part. A run is held as
// runBuckets batches whose finding keys lie in consecutive ranges: each is
// sorted and sent as a block on its own, so that the client's sort and
// gathers work over a batch that fits the processor's cache, and the
// blocks one after the other are the run in the table's order, which the
// server then has no need to sort again. Five 100k-row blocks each sorted
// on their own (what the client sent before) cost the server ~5 s more CPU
// per 10M findings to sort, and one 500k-row batch sorted whole ~8 s more
// of the client's to gather (docs/design/bulk-write.md; measured in the issue 2
// sessions of `git show 77779a1^:docs/benchmarks.md`).
const runBuckets = 5

// maxBuckets bounds the buckets of one snapshot write: those of one run
// being filled and one being sent. A sender gives its run's buckets back as
// it sends them and holds none while the server writes its INSERT; when
// both senders are sending, the next run waits for buckets. (Without the
// bound up to three runs' worth exist; the audits measured did not show
// the difference beyond their spread: issue 2 in
// `git show 77779a1^:docs/benchmarks.md`.)
const maxBuckets = snapshotInserters * runBuckets

// maxBatchBytes bounds the size of one bucket of a run, whose text makes
// rows wide: a run is handed to a sender as soon as one of its buckets
// has its share of Config.BatchSize rows or this many bytes of row data.
// The client holds up to maxBuckets buckets.
const maxBatchBytes = 16 << 20

// maxCountGroups bounds the per-snapshot counts kept in memory while a
// snapshot streams in; past it the counts are aggregated by the server.
const maxCountGroups = 250_000

// WriteSnapshot streams the finding set of an audit into snapshot_findings in
// runs of up to Config.BatchSize rows (at most maxBuckets buckets of a run
// in memory), then writes the snapshot's counts and the marker that makes it
// complete. It returns the number of findings written.
//
// Errors: validation_failed for a bad tenant or audit id or a finding the
// table cannot hold (nothing of the snapshot stays readable); conflict when
// the snapshot was already written; the iterator's own error as it is; an
// internal error for anything the server says. A snapshot whose write failed
// half-way is deleted (asynchronously) and cleaned up before a retry.
func (s *Store) WriteSnapshot(ctx context.Context, tenantID, auditID string, findings iter.Seq2[engine.Finding, error]) (n int64, err error) {
	defer s.metrics.Observe("findings", "WriteSnapshot", time.Now(), &err)
	defer wrap(&err, "WriteSnapshot(%q, %q)", tenantID, auditID)
	ctx = s.scoped(ctx, tenantID, auditID)
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
		err = s.awaitReplicas(ctx, tenantID, auditID, n)
	}
	if err == nil {
		err = s.writeCounts(ctx, tenantID, auditID, writtenAt, counts)
	}
	if err == nil {
		err = s.writeFirstSeen(ctx, tenantID, auditID, writtenAt, counts.firstSeen)
	}
	if err == nil {
		err = s.awaitCounts(ctx, tenantID, auditID, uint64(n))
	}
	if err == nil {
		err = s.insertSnapshotMarker(ctx, tenantID, auditID, uint64(n), writtenAt)
	}
	if err == nil {
		err = s.awaitComplete(ctx, tenantID, auditID, uint64(n))
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
	if err := s.checkSnapshotKey(ctx, tenantID, auditID); err != nil {
		return err
	}
	var done uint64
	if err := s.conn.QueryRow(ctx, `SELECT count() FROM finding_snapshots WHERE tenant_id = ? AND audit_id = ?`,
		tenantID, auditID).Scan(&done); err != nil {
		return err
	}
	if done > 0 {
		return engine.Errorf(engine.CodeConflict, "the findings of audit %s are already written", auditID)
	}
	var left uint64
	if err := s.conn.QueryRow(ctx, `SELECT count() FROM snapshot_findings WHERE snapshot = ?`,
		snapshotKey(tenantID, auditID)).Scan(&left); err != nil {
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

// checkSnapshotKey refuses to write into a snapshot whose key
// (snapshotKey) a complete snapshot of another tenant or audit has:
// snapshot_findings and the resource index know a snapshot by its key alone,
// and its readers by the tenant and audit they ask for. Two snapshots
// share a key with a chance of 2^-64 a pair; this makes sure that they
// never share rows.
func (s *Store) checkSnapshotKey(ctx context.Context, tenantID, auditID string) error {
	taken, err := s.snapshotKeyTaken(ctx, tenantID, auditID)
	if err != nil {
		return err
	}
	if taken {
		return fmt.Errorf("the snapshot key of audit %s is another snapshot's: not written", auditID)
	}
	return nil
}

// snapshotKeyTaken reports whether a complete snapshot of another tenant or
// audit has the key of this one.
func (s *Store) snapshotKeyTaken(ctx context.Context, tenantID, auditID string) (bool, error) {
	var other uint64
	err := s.conn.QueryRow(ctx, `SELECT count() FROM finding_snapshots
WHERE cityHash64(concat(tenant_id, '\0', audit_id)) = ? AND (tenant_id != ? OR audit_id != ?)`,
		snapshotKey(tenantID, auditID), tenantID, auditID).Scan(&other)
	return other > 0, err
}

// insertFindings validates the findings into runs in this goroutine and
// sends full runs on snapshotInserters goroutines. The first error stops
// everything and is returned once every send has finished, so that a
// cleanup afterwards sees every row that reached the server. (Sends are not
// canceled: the server may still commit a block whose client went away.)
// counts, when not nil, gathers the snapshot's counts.
func (s *Store) insertFindings(ctx context.Context, tenantID, auditID string, writtenAt time.Time,
	findings iter.Seq2[engine.Finding, error], counts *snapshotCounts) (int64, error) {
	if err := s.checkSnapshotKey(ctx, tenantID, auditID); err != nil {
		return 0, err
	}
	select {
	case s.snapshotSlots <- struct{}{}:
		defer func() { <-s.snapshotSlots }()
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	ctx = snapshotWriteCtx(ctx)
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
	full := make(chan *findingRun)
	// A sender gives each bucket back once it is sent, to be filled again
	// (fillRuns makes at most maxBuckets), and the garbage collector sees
	// none of them churn.
	free := make(chan *findingBatch, maxBuckets)
	var wg sync.WaitGroup
	consts := snapshotConsts{tenantID, auditID, writtenAt.Unix()}
	for range snapshotInserters {
		wg.Go(func() {
			var sc columnScratch
			for r := range full {
				select {
				case <-failed:
					r.giveBack(0, len(r.buckets), free)
				default:
					if err := s.sendRun(ctx, &sc, consts, r, free); err != nil {
						fail(err)
					}
				}
			}
		})
	}
	dicts := new(snapshotDicts)
	if counts != nil {
		counts.dicts = dicts
	}
	n, err := s.fillRuns(ctx, findings, &batchAppender{dicts: dicts}, counts, full, free, failed)
	if err != nil {
		fail(err) // queued runs are dropped, not sent
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

// fillRuns reads and validates the iterator's findings and hands each full
// run to the senders until they fail.
func (s *Store) fillRuns(ctx context.Context, findings iter.Seq2[engine.Finding, error], app *batchAppender,
	counts *snapshotCounts, full chan<- *findingRun, free <-chan *findingBatch, failed <-chan struct{}) (n int64, err error) {
	var (
		r          *findingRun
		splitters  []uint64 // learned from the first run
		bucketRows int      // a bucket's share of the run's rows
	)
	errStopped := errors.New("stopped after a failed send")
	made := 0
	getBucket := func() (*findingBatch, error) {
		if made < maxBuckets {
			select {
			case b := <-free:
				return b, nil
			default:
				made++
				return new(findingBatch), nil
			}
		}
		select {
		case b := <-free:
			return b, nil
		case <-failed:
			return nil, errStopped
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	handOff := func() error {
		if splitters == nil {
			splitters = r.learnSplitters()
		}
		for _, b := range r.buckets {
			for i := range b.dict {
				b.dict[i] = app.dicts[i].values
			}
		}
		r.texts = app.texts.takePending()
		select {
		case full <- r:
			r = nil
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
		if r == nil {
			if r, err = newFindingRun(splitters, getBucket); err != nil {
				return n, err
			}
			bucketRows = max(1, s.cfg.BatchSize/len(r.buckets))
		}
		b, cc, err := app.add(r, &f)
		if err != nil {
			return n, err
		}
		if counts != nil {
			counts.add(cc)
			counts.firstSeen.add(b.firstSeen[len(b.firstSeen)-1])
		}
		n++
		if b.len() >= bucketRows || b.bytes >= maxBatchBytes {
			if err := handOff(); err != nil {
				return n, err
			}
		}
	}
	if r != nil && r.len() > 0 {
		if err := handOff(); err != nil {
			return n, err
		}
	}
	return n, nil
}

// sendRun sends one run of a snapshot into snapshot_findings and its keys into
// snapshot_finding_index, one INSERT each: bucket by bucket, each sorted
// by its table's order key first and sent as a block. The findings' blocks
// follow one another in the table's order (the buckets' key ranges do), so
// the server finds the run sorted; the index's are sorted runs, which the
// server sorts fast: unsorted, the server's INSERTs of a 10M snapshot cost
// 65 s of CPU instead of 25 s (docs/design/bulk-write.md; measured in the issue 2
// sessions of `git show 77779a1^:docs/benchmarks.md`).
// Each bucket goes back to free once sent (all of them after a failure).
func (s *Store) sendRun(ctx context.Context, sc *columnScratch, consts snapshotConsts, r *findingRun,
	free chan<- *findingBatch) (err error) {
	defer r.giveBack(0, len(r.buckets), free)
	sc.reserve = r.sizes()
	if len(r.texts) > 0 {
		if err := s.insertTexts(ctx, consts.tenantID, consts.writtenAt, r.texts); err != nil {
			return fmt.Errorf("send finding texts: %w", err)
		}
	}
	defer func() {
		// Ended even after a failure: the server writes an open INSERT's
		// blocks when it ends, and a failed snapshot's cleanup (before a
		// retry) must come after that.
		err = errors.Join(err, sc.findings.end(), sc.index.end())
	}()
	for i, b := range r.buckets {
		if b.len() > 0 {
			if err := s.sendBucket(ctx, sc, consts, b); err != nil {
				return err
			}
		}
		// The driver let go of the bucket when it encoded it.
		r.giveBack(i, i+1, free)
	}
	return nil
}

// sendBucket sends one bucket of a run as a block of each of the sender's
// open INSERTs.
func (s *Store) sendBucket(ctx context.Context, sc *columnScratch, consts snapshotConsts, b *findingBatch) error {
	n := b.len()
	sc.order = slices.Grow(sc.order[:0], n)[:n]
	sc.tmp = slices.Grow(sc.tmp[:0], n)[:n]
	for i := range n {
		sc.order[i] = sortEntry{key: b.key(i), row: int32(i)}
	}
	order := sortBy(sc.order, sc.tmp, b.compareFindings)
	w, err := s.newColumnWriter(ctx, sc, &sc.findings, insertFindingsSQL, order)
	if err != nil {
		return fmt.Errorf("send findings: %w", err)
	}
	constant(w, &sc.u64, snapshotKey(consts.tenantID, consts.auditID))
	gather(w, &sc.u8, b.sevOrder)
	w.fixed(b.id)
	gather(w, &sc.i8, b.severity)
	gather(w, &sc.i8, b.dimension)
	gather(w, &sc.i8, b.status)
	z := &sc.reserve
	w.coded(b.codes[dictResolution], b.dict[dictResolution], z.coded[dictResolution])
	w.strings(&b.resourceID, z.resourceID)
	w.coded(b.codes[dictRule], b.dict[dictRule], z.coded[dictRule])
	w.coded(b.codes[dictResourceType], b.dict[dictResourceType], z.coded[dictResourceType])
	w.coded(b.codes[dictProvider], b.dict[dictProvider], z.coded[dictProvider])
	w.coded(b.codes[dictAccount], b.dict[dictAccount], z.coded[dictAccount])
	w.coded(b.codes[dictRegion], b.dict[dictRegion], z.coded[dictRegion])
	gather(w, &sc.u64, b.textID)
	w.strings(&b.evidence, z.evidence)
	seconds(w, &sc.i64, b.firstSeen)
	seconds(w, &sc.i64, b.lastSeen)
	seconds(w, &sc.i64, b.resolved)
	constant(w, &sc.i64, consts.writtenAt)
	if err := w.send(); err != nil {
		return fmt.Errorf("send findings: %w", err)
	}

	// From finding order, a stable sort by resource hash leaves each
	// resource's findings in finding order, as the index wants.
	sc.hashes = slices.Grow(sc.hashes[:0], n)[:n]
	for i := range n {
		sc.hashes[i] = city.CH64(b.resourceID.at(i)) // resourceHash
	}
	for i := range order {
		order[i].key = sc.hashes[order[i].row]
	}
	if &order[0] == &sc.tmp[0] {
		sc.order, sc.tmp = sc.tmp, sc.order
	}
	order = sortBy(order, sc.tmp, b.compareResources(sc.hashes))
	if w, err = s.newColumnWriter(ctx, sc, &sc.index, insertFindingResourcesSQL, order); err != nil {
		return fmt.Errorf("send finding resources: %w", err)
	}
	constant(w, &sc.u64, snapshotKey(consts.tenantID, consts.auditID))
	gather(w, &sc.u64, sc.hashes)
	gather(w, &sc.u8, b.sevOrder)
	w.fixed(b.id)
	constant(w, &sc.i64, consts.writtenAt)
	if err := w.send(); err != nil {
		return fmt.Errorf("send finding resources: %w", err)
	}
	return nil
}

const insertFindingResourcesSQL = "INSERT INTO snapshot_finding_index (snapshot, resource_hash, sev_order, id, written_at)"

// insertFindingsSQL writes a snapshot's rows, their rule texts by text_id.
const insertFindingsSQL = `INSERT INTO snapshot_findings (snapshot, sev_order, id, severity, dimension, status, resolution,
resource_id, rule_id, resource_type, provider, account, region, text_id, evidence, first_seen_at, last_seen_at,
resolved_at, written_at)`

// insertSnapshotMarker records that the snapshot is complete. Not
// deduplicated (snapshotInsertSettings), as the counts.
func (s *Store) insertSnapshotMarker(ctx context.Context, tenantID, auditID string, n uint64, writtenAt time.Time) error {
	ctx = snapshotWriteCtx(ctx)
	b, err := s.prepareBatch(ctx, "INSERT INTO finding_snapshots (tenant_id, audit_id, findings, written_at)")
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
	ctx = s.scoped(ctx, tenantID, auditID)
	ctx, cancel := s.writeCtx(ctx)
	defer cancel()
	s.written.forget(snapshotKey(tenantID, auditID))
	return s.deleteSnapshotRows(ctx, tenantID, auditID)
}

// deleteSnapshotRows starts the mutations that delete a snapshot, marker
// first so that it is never complete with rows missing.
func (s *Store) deleteSnapshotRows(ctx context.Context, tenantID, auditID string) error {
	s.totals.Purge()
	s.ranges.Purge()
	s.memo.purge()
	// Rows under a key that another snapshot has are that snapshot's:
	// this one was refused before it wrote any (checkSnapshotKey).
	taken, err := s.snapshotKeyTaken(ctx, tenantID, auditID)
	if err != nil {
		return err
	}
	var errs []error
	for _, table := range snapshotTables {
		if slices.Contains(legacyTables, table) {
			// Not read since the migration that copied it: a mutation would
			// only rewrite its parts (and keep waitForMutations waiting).
			continue
		}
		where, args := "tenant_id = ? AND audit_id = ?", []any{tenantID, auditID}
		if table == "snapshot_finding_index" || table == "snapshot_findings" || table == "mute_matches" ||
			table == "mute_sets" || table == "mute_set_counts" || table == "snapshot_first_seen" {
			if taken {
				continue
			}
			where, args = "snapshot = ?", []any{snapshotKey(tenantID, auditID)}
		}
		if err := s.alterLocal(ctx, table, "DELETE WHERE "+where, args...); err != nil {
			errs = append(errs, fmt.Errorf("delete from %s: %w", table, err))
		}
	}
	return errors.Join(errs...)
}

// waitForMutations waits until the database's mutations are done.
func (s *Store) waitForMutations(ctx context.Context) error {
	for {
		var pending uint64
		if err := s.conn.QueryRow(ctx, "SELECT count() FROM "+s.systemTable("mutations")+" WHERE database = ? AND is_done = 0",
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
