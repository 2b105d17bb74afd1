package clickhouse

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"github.com/fourd-dev/fourd/engine"
)

// Hooks for the external tests of this package.

// PrepareBatch prepares an INSERT on the store's connection.
func (s *Store) PrepareBatch(ctx context.Context, insert string) (driver.Batch, error) {
	return s.conn.PrepareBatch(ctx, insert)
}

// Exec runs one statement on the store's connection.
func (s *Store) Exec(ctx context.Context, stmt string) error { return s.conn.Exec(ctx, stmt) }

// QueryStrings returns the first column of a query's rows.
func (s *Store) QueryStrings(ctx context.Context, query string) ([]string, error) {
	rows, err := s.conn.Query(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// TextID is textID of a finding's text.
func TextID(f engine.Finding) uint64 { return textID(textOf(&f)) }

// WaitForMutations waits until the database's mutations are done.
func (s *Store) WaitForMutations(ctx context.Context) error { return s.waitForMutations(ctx) }

// ResourceHash is resourceHash.
var ResourceHash = resourceHash

// SnapshotKey is snapshotKey.
var SnapshotKey = snapshotKey

// PrepareWriteBatch is prepareBatch, the writers' INSERT.
func (s *Store) PrepareWriteBatch(ctx context.Context, insert string) (driver.Batch, error) {
	return s.prepareBatch(ctx, insert)
}

// SetWholeRowFlush sets how many whole rows a bulk write's inserter
// gathers per INSERT, and how long it waits for the next batch before
// sending them, until the test ends.
func SetWholeRowFlush(t interface{ Cleanup(func()) }, rows int, idle time.Duration) {
	oldRows, oldIdle := wholeRowFlushRows, wholeRowFlushIdle
	wholeRowFlushRows, wholeRowFlushIdle = rows, idle
	t.Cleanup(func() { wholeRowFlushRows, wholeRowFlushIdle = oldRows, oldIdle })
}

// SetInsertFault makes the insert of a bulk write's batch seq (0 for the
// first) fail with fault's error until the test ends.
func SetInsertFault(t interface{ Cleanup(func()) }, fault func(seq int) error) {
	insertFault = fault
	t.Cleanup(func() { insertFault = nil })
}

// SetFinalizeFault makes FinalizeSnapshot call fault with "counts" just
// before it inserts the counts and "marker" right after (on the way to the
// marker), until the test ends.
func SetFinalizeFault(t interface{ Cleanup(func()) }, fault func(stage string)) {
	finalizeFault = fault
	t.Cleanup(func() { finalizeFault = nil })
}

// SetSightingFlushRows sets how many sightings a bulk write gathers per
// INSERT until the test ends.
func SetSightingFlushRows(t interface{ Cleanup(func()) }, n int) {
	old := sightingFlushRows
	sightingFlushRows = n
	t.Cleanup(func() { sightingFlushRows = old })
}

// ResourceScratch is an inserter's resourceScratch.
type ResourceScratch struct{ sc resourceScratch }

// InsertResources inserts rs of one tenant, first seen when observed, in
// one INSERT of whole rows through sc, as an inserter of a bulk write does.
func (s *Store) InsertResources(ctx context.Context, sc *ResourceScratch, tenantID string, rs []engine.Resource) error {
	rows := make([]resourceRow, len(rs))
	firstSeen := make([]time.Time, len(rs))
	for i, r := range rs {
		row, err := newResourceRow(tenantID, r, s.cfg.Now())
		if err != nil {
			return err
		}
		rows[i], firstSeen[i] = row, row.lastSeen
	}
	_, err := s.insertResourceRows(ctx, &sc.sc, rows, 0, firstSeen, nil, nil)
	return err
}

// ShareSnapshotKey makes every snapshot's key that of (tenantID, auditID)
// until the test ends.
func ShareSnapshotKey(t interface{ Cleanup(func()) }, tenantID, auditID string) {
	orig := snapshotKey
	key := orig(tenantID, auditID)
	snapshotKey = func(string, string) uint64 { return key }
	t.Cleanup(func() { snapshotKey = orig })
}

// SetEventStreamRows sets how many rows an event log stream's INSERT
// holds before an append sends it, until the test ends.
func SetEventStreamRows(t interface{ Cleanup(func()) }, n int) {
	old := eventStreamRows
	eventStreamRows = n
	t.Cleanup(func() { eventStreamRows = old })
}

// LocalTable is the table holding table's rows on a node (table itself on
// one server, its replicated local table in cluster mode).
func (s *Store) LocalTable(table string) string { return s.localTable(table) }

// AlterLocal runs "ALTER TABLE <table> <clause>" on the table's rows, in
// either mode (a mutation of a Distributed table is refused).
func (s *Store) AlterLocal(ctx context.Context, table, clause string) error {
	return s.alterLocal(ctx, table, clause)
}

// ShardOf is the index (from 0) of the shard that holds tenant's own rows
// (audit empty) or the snapshot of audit, in cluster mode; -1 on one server.
func (s *Store) ShardOf(tenant, audit string) int {
	if s.router == nil {
		return -1
	}
	if audit == "" {
		return s.router.shardOf(tenantKey(tenant))
	}
	return s.router.shardOf(snapshotKey(tenant, audit))
}

// SystemTable is the system table name read on the node, or on one replica
// of every shard in cluster mode.
func (s *Store) SystemTable(name string) string { return s.systemTable(name) }

// SetMaxSelectiveResources sets maxSelectiveResources and
// maxSelectiveTitles until the returned function restores them.
func SetMaxSelectiveResources(n int) (restore func()) {
	old, oldTitles := maxSelectiveResources, maxSelectiveTitles
	maxSelectiveResources, maxSelectiveTitles = n, n
	memoGen.Add(1)
	return func() { maxSelectiveResources, maxSelectiveTitles = old, oldTitles; memoGen.Add(1) }
}

// setForMemo sets *p to v until the returned function restores it; the
// filter memo forgets what it holds at both (memoGen).
func setForMemo[T any](p *T, v T) (restore func()) {
	old := *p
	*p = v
	memoGen.Add(1)
	return func() { *p = old; memoGen.Add(1) }
}

// SetMaxSelectiveResourcesOnly sets maxSelectiveResources (not the
// titles' bound) until the returned function restores it.
func SetMaxSelectiveResourcesOnly(n int) (restore func()) {
	return setForMemo(&maxSelectiveResources, n)
}

// SetTagIndex sets useTagIndex until the returned function restores it.
func SetTagIndex(on bool) (restore func()) {
	return setForMemo(&useTagIndex, on)
}

// SetRangeProbes sets useRangeProbes until the returned function restores
// it.
func SetRangeProbes(on bool) (restore func()) {
	old := useRangeProbes
	useRangeProbes = on
	return func() { useRangeProbes = old }
}

// SetRowFilterReadLimit sets the most rows one query of a row-filtered
// page may read (0: no limit) until the returned function restores it.
func SetRowFilterReadLimit(n int) (restore func()) {
	old := rowFilterReadLimit
	rowFilterReadLimit = n
	return func() { rowFilterReadLimit = old }
}

// RowFilterPasses is how many unbounded passes row-filtered pages have
// read so far.
func RowFilterPasses() int64 { return rowFilterPasses.Load() }

// TagMatchingIDs returns, sorted, the ids of the tenant's resources the tag
// filter tags (key=value lines) matches through the tag index.
func TagMatchingIDs(t *testing.T, s *Store, tenantID, tags string) []string {
	t.Helper()
	restore := SetTagIndex(true)
	defer restore()
	sub, args := tagMatching(tenantID, engine.FindingFilter{Tags: tags})
	var ids []string
	err := s.each(context.Background(), rawQuery{sql: "SELECT id FROM " + sub + " ORDER BY id", args: args}, func(sc scanner) error {
		var id string
		err := sc.Scan(&id)
		ids = append(ids, id)
		return err
	})
	if err != nil {
		t.Fatalf("tag %q: %v", tags, err)
	}
	return ids
}

// RowFilterProbes is how many bounded probes row-filtered pages have read
// so far.
func RowFilterProbes() int64 { return rowFilterProbes.Load() }

// SetFirstSeenRanges sets useFirstSeenRanges until the returned function
// restores it.
func SetFirstSeenRanges(on bool) (restore func()) {
	old := useFirstSeenRanges
	useFirstSeenRanges = on
	return func() { useFirstSeenRanges = old }
}

// FirstSeenRange returns the recorded range of first_seen_at of a
// snapshot (not cached), and whether there is one.
func (s *Store) FirstSeenRange(ctx context.Context, tenantID, auditID string) (lo, hi time.Time, ok bool, err error) {
	s.ranges.Purge()
	r, err := s.firstSeenRangeOf(ctx, tenantID, auditID)
	s.ranges.Purge()
	return time.Unix(int64(r.lo), 0).UTC(), time.Unix(int64(r.hi), 0).UTC(), r.known, err
}

// SetKeyedReads sets useKeyedReads until the returned function restores
// it.
func SetKeyedReads(on bool) (restore func()) {
	old := useKeyedReads
	useKeyedReads = on
	return func() { useKeyedReads = old }
}

// RowFilterKeyedReads is how many key reads pages by key have made so far.
func RowFilterKeyedReads() int64 { return rowFilterKeyedReads.Load() }

// SelectedMarks runs read with the queries of row-filtered pages logged
// and returns the granules (SelectedMarks) that its queries naming the
// snapshot of tenantID and auditID read, subqueries included (their rows
// are not in read_rows on 18.16).
func SelectedMarks(t *testing.T, s *Store, tenantID, auditID string, read func()) uint64 {
	t.Helper()
	return queryLogSum(t, s, tenantID, auditID, "", "ProfileEvents.Values[indexOf(ProfileEvents.Names, 'SelectedMarks')]", read)
}

// KeysReadBytes runs read as SelectedMarks does and returns the bytes that
// its reads of the snapshot's keys from the resource index read
// (read_bytes of the queries from snapshot_finding_index).
func KeysReadBytes(t *testing.T, s *Store, tenantID, auditID string, read func()) uint64 {
	t.Helper()
	return queryLogSum(t, s, tenantID, auditID, "FROM snapshot_finding_index", "read_bytes", read)
}

// SetPrewhereHashes sets usePrewhereHashes until the returned function
// restores it.
func SetPrewhereHashes(on bool) (restore func()) {
	old := usePrewhereHashes
	usePrewhereHashes = on
	return func() { usePrewhereHashes = old }
}

// StopMerges stops the server's merges of table in the store's database
// for the rest of the test (its parts stay as they were written).
func StopMerges(t *testing.T, s *Store, table string) {
	t.Helper()
	if err := s.conn.Exec(context.Background(), "SYSTEM STOP MERGES "+table); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.conn.Exec(context.Background(), "SYSTEM START MERGES "+table) })
}

// ActiveParts is the number of active parts of table in the store's
// database.
func ActiveParts(t *testing.T, s *Store, table string) uint64 {
	t.Helper()
	var n uint64
	err := s.each(context.Background(), rawQuery{sql: "SELECT count() FROM system.parts WHERE database = currentDatabase() AND table = ? AND active",
		args: []any{table}}, func(sc scanner) error { return sc.Scan(&n) })
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// queryLogSum runs read with the queries of row-filtered pages logged and
// returns the sum of expr over its queries that name the snapshot of
// tenantID and auditID and hold also (when not empty).
func queryLogSum(t *testing.T, s *Store, tenantID, auditID, also, expr string, read func()) uint64 {
	t.Helper()
	// A window of whole seconds of its own (event_time has seconds): the
	// queries before it are not counted.
	time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(1100 * time.Millisecond)))
	start := time.Now().Truncate(time.Second)
	old := logRowFilterQueries
	logRowFilterQueries = true
	read()
	logRowFilterQueries = old
	ctx := context.Background()
	// Under load a query's log entry may come after its answer and a
	// flush right after it: read until the read's queries (one at least)
	// are there and their count holds for a flush more.
	var marks, queries, seen uint64
	for try := 0; try < 50; try++ {
		if err := s.conn.Exec(ctx, "SYSTEM FLUSH LOGS"); err != nil {
			t.Fatal(err)
		}
		q := rawQuery{sql: "SELECT count(), sum(" + expr + ") FROM " + s.systemTable("query_log") +
			" WHERE type = 2 AND event_time >= toDateTime(?) AND position(query, ?) > 0",
			args: []any{start.Unix(), "snapshot = " + strconv.FormatUint(snapshotKey(tenantID, auditID), 10)}}
		if also != "" {
			q.sql += " AND position(query, ?) > 0"
			q.args = append(q.args, also)
		}
		err := s.each(ctx, q,
			func(sc scanner) error { return sc.Scan(&queries, &marks) })
		if err != nil {
			t.Fatal(err)
		}
		if queries > 0 && queries == seen {
			return marks
		}
		seen = queries
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("the read's queries are not in the query log after 10 s (%d seen)", seen)
	return 0
}

// SetFilterMemo sets useFilterMemo until the returned function restores
// it.
func SetFilterMemo(on bool) (restore func()) {
	old := useFilterMemo
	useFilterMemo = on
	return func() { useFilterMemo = old }
}

// SelectiveResolutions is how many times reads have resolved their tag, q
// and compliance filters without the memo so far.
func SelectiveResolutions() int64 { return selectiveResolutions.Load() }

// StreamBlockRows is the block size of a resource stream.
const StreamBlockRows = streamBlockRows

// AppendWholeRowsLoop appends rs (of one tenant, first seen when
// observed) n times to one open INSERT into resources as an inserter
// does (sorted by key, appendWholeRows), emptying the INSERT's columns
// after each pass instead of sending them, and aborts the INSERT.
func (s *Store) AppendWholeRowsLoop(ctx context.Context, tenantID string, rs []engine.Resource, n int) error {
	rows := make([]resourceRow, len(rs))
	firstSeen := make([]time.Time, len(rs))
	for i, r := range rs {
		row, err := newResourceRow(tenantID, r, s.cfg.Now())
		if err != nil {
			return err
		}
		rows[i], firstSeen[i] = row, row.lastSeen
	}
	order := make([]sortEntry, len(rows))
	for i := range rows {
		order[i] = sortEntry{key: keyPrefix(rows[i].r.ID, len("res_"), 8), row: int32(i)}
	}
	slices.SortFunc(order, func(a, b sortEntry) int { return cmp.Compare(a.key, b.key) })
	b, err := s.prepareBatch(ctx, "INSERT INTO resources ("+resourceInsertColumns+")")
	if err != nil {
		return err
	}
	defer b.Abort()
	var sc resourceScratch
	for range n {
		sc.cols.gather(rows, order, firstSeen)
		if err := appendWholeRows(b, &sc); err != nil {
			return err
		}
		for _, col := range b.Columns() {
			col.Reset()
		}
	}
	return nil
}

// SetMemoRows sets useMemoRows until the returned function restores it.
func SetMemoRows(on bool) (restore func()) {
	old := useMemoRows
	useMemoRows = on
	return func() { useMemoRows = old }
}

// MemoRowFills is how many selective filters' rows the memo has read and
// kept so far; MemoRowReads how many pages and counts it answered.
func MemoRowFills() int64 { return memoRowFills.Load() }

// MemoRowReads: see MemoRowFills.
func MemoRowReads() int64 { return memoRowReads.Load() }

// WaitMemoFills waits until no read of a filter's rows is under way in
// the memo of s.
func (s *Store) WaitMemoFills(t *testing.T) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		s.memo.mu.Lock()
		n := len(s.memo.fills)
		s.memo.mu.Unlock()
		if n == 0 {
			return
		}
	}
	t.Fatal("the memo's reads of rows did not end in 30 s")
}

// SetMemoFillHook sets memoFillHook until the returned function restores
// it.
func SetMemoFillHook(hook func()) (restore func()) {
	old := memoFillHook
	memoFillHook = hook
	return func() { memoFillHook = old }
}

// QWindows is the q index's key ranges of q, as [lo, hi] pairs (nil for
// none).
func QWindows(q string) [][2]uint64 {
	var out [][2]uint64
	for _, w := range qWindows(q) {
		out = append(out, [2]uint64{w.lo, w.hi})
	}
	return out
}

// SetQIndex sets useQIndex until the returned function restores it.
func SetQIndex(on bool) (restore func()) {
	return setForMemo(&useQIndex, on)
}

// SetMaxQCandidates sets maxQCandidates until the returned function
// restores it.
func SetMaxQCandidates(n int) (restore func()) {
	return setForMemo(&maxQCandidates, n)
}

// SetQIndexBuildAfter sets how many resources a bulk write must write to
// start a build of the q index, until the test ends.
func SetQIndexBuildAfter(t interface{ Cleanup(func()) }, n int64) {
	old := qIndexBuildAfter
	qIndexBuildAfter = n
	t.Cleanup(func() { qIndexBuildAfter = old })
}

// BuildQIndex builds the tenant's q index now (what was written since its
// last build).
func (s *Store) BuildQIndex(ctx context.Context, tenantID string) error {
	return s.buildQIndex(ctx, tenantID)
}

// QIndexAnswers is how many q's took their candidates from the q index so
// far; QIndexBuilds how many builds of it were done.
func QIndexAnswers() int64 { return qIndexAnswers.Load() }

// QIndexBuilds is how many builds of the q index were done so far.
func QIndexBuilds() int64 { return qIndexBuilt.Load() }

// QIndexCandidates is what the q index and the scan of the parts it does
// not cover give as q's candidates, and whether the index answered.
func (s *Store) QIndexCandidates(ctx context.Context, tenantID, q string) ([]string, bool, error) {
	cands, _, indexed, err := s.qCandidates(ctx, tenantID, q, qWindows(q), qCandidateFactor*maxSelectiveResources)
	return cands, indexed, err
}

// QIndexBuildsIdle reports whether no build of the q index is under way.
func (s *Store) QIndexBuildsIdle() bool {
	s.qBuilds.mu.Lock()
	defer s.qBuilds.mu.Unlock()
	return len(s.qBuilds.running) == 0
}

// SetKeyedKeysHook sets keyedKeysHook until the returned function
// restores it.
func SetKeyedKeysHook(hook func()) (restore func()) {
	old := keyedKeysHook
	keyedKeysHook = hook
	return func() { keyedKeysHook = old }
}
