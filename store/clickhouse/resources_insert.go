package clickhouse

// The inserters' side of a bulk resource write (resources_bulk.go): each
// batch's rows sorted by key and split into whole rows (new or changed
// resources, into resources) and sightings (unchanged ones, gathered into
// large INSERTs of resource_sightings).

import (
	"bytes"
	"cmp"
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse/internal/bulk"
)

// resourceScratch is one inserter's reusable buffers.
type resourceScratch struct {
	order []sortEntry
	seen  []sortEntry
	strs  []string
	u64   []uint64
	times []time.Time
	// arrays appends the tag columns (bulk.StringArrays).
	arrays bulk.StringArrays
	// cols are the whole rows' strings gathered in key order.
	cols rowColumns
	// announced is the last batch's new resources (newResources).
	announced []engine.Resource
	// tags are the tag index rows of a batch written at once.
	tags tagRows
}

// insertResourceRows inserts rows, with their decided first sightings, in
// one INSERT sorted by the table's key (tenant_id, id) so that the server
// does not sort the block, appended column by column. Rows unchanged from
// their id's stored latest row are written as sightings instead
// (insertSightings), unless the batch also holds a changed observation of
// the same id: then all of them are written whole, as before there were
// sightings, so that a sighting never stands for content the batch replaces.
//
// With a sink, sightings are added to it and written when it is full
// (sightingBuffer); without, at once. With an open INSERT, whole rows are
// appended to it (wholeInsert), else written at once. It returns how many
// observations it wrote: the whole rows written at once, and the
// sightings of the INSERT it made if any. size bounds the rows' size
// (resourceRow.size), for the open INSERT's.
func (s *Store) insertResourceRows(ctx context.Context, sc *resourceScratch, rows []resourceRow, size int, firstSeen []time.Time,
	sink *sightingBuffer, open *wholeInsert) (int, error) {
	oneTenant := true
	order := sc.order[:0]
	for i := range rows {
		r := &rows[i].r
		oneTenant = oneTenant && r.TenantID == rows[0].r.TenantID
		order = append(order, sortEntry{key: keyPrefix(r.ID, strings.IndexByte(r.ID, '_')+1, 8), row: int32(i)})
	}
	sc.order = order
	slices.SortFunc(order, func(a, b sortEntry) int {
		x, y := &rows[a.row].r, &rows[b.row].r
		if !oneTenant {
			if c := strings.Compare(x.TenantID, y.TenantID); c != 0 {
				return c
			}
		}
		if a.key != b.key {
			if a.key < b.key {
				return -1
			}
			return 1
		}
		return strings.Compare(x.ID, y.ID)
	})
	whole, seen := splitSightings(rows, order, sc.seen[:0])
	sc.seen = seen
	written := 0
	if len(seen) > 0 {
		var sr *sightingRows
		if sink != nil {
			sr = sink.add(rows, seen)
		} else {
			sr = new(sightingRows)
			sr.add(rows, seen)
		}
		if sr != nil {
			if err := s.insertSightings(ctx, sr); err != nil {
				return written, err
			}
			written += sr.len()
		}
	}
	if len(whole) == 0 {
		return written, nil
	}
	if open != nil {
		return written, open.append(s, sc, rows, whole, size, firstSeen)
	}
	// The tag index's rows first (resource_tags.go).
	sc.cols.gather(rows, whole, firstSeen)
	sc.tags.add(&sc.cols)
	if err := s.insertTagRows(ctx, &sc.tags); err != nil {
		return written, err
	}
	b, err := s.prepareBatch(ctx, "INSERT INTO resources ("+resourceInsertColumns+")")
	if err != nil {
		return written, err
	}
	if err := appendWholeRows(b, sc); err != nil {
		b.Abort()
		return written, err
	}
	if err := b.Send(); err != nil {
		return written, err
	}
	return written + len(whole), nil
}

// wholeRowFlushRows and wholeRowFlushBytes bound the whole rows a bulk
// write's inserter gathers in one INSERT, over several batches. Each INSERT
// makes a part, and the server merges parts of 10k rows (a batch's) about
// three times over: a first import of 1M resources cost ClickHouse 8–10 s
// as 100 INSERTs, 5–6 s as 10 (docs/design/bulk-write.md;
// issue 5 in `git show 77779a1^:docs/benchmarks.md`). Each batch is
// sent as a block of the INSERT at once, and the server gathers the blocks
// into one part, so the client holds no more rows for it.
// wholeRowFlushIdle ends an INSERT when no batch came for that long, so
// that a slow producer (a POST body trickling in) neither holds its rows
// back nor keeps an INSERT open on the server.
var (
	wholeRowFlushRows  = 100_000 // variables for tests
	wholeRowFlushBytes = 64 << 20
	wholeRowFlushIdle  = time.Second
)

// wholeInsert is an INSERT into resources that a bulk write's inserter
// keeps open across batches, sending each batch's whole rows as a block
// (sorted runs: the server sorts the block it gathers them into). It
// gathers their tag index rows too, written just before it is sent.
type wholeInsert struct {
	ctx   context.Context // of the write, for the INSERTs it opens
	s     *Store          // set with b
	b     driver.Batch
	rows  int // rows appended to b
	bytes int // their size (resourceRow.size)
	tags  tagRows
}

// append appends the rows at order, of size bytes (resourceRow.size; a
// bound will do), to the open INSERT, opening one if none is; after an
// error the INSERT is aborted.
func (w *wholeInsert) append(s *Store, sc *resourceScratch, rows []resourceRow, order []sortEntry, size int, firstSeen []time.Time) error {
	sc.cols.gather(rows, order, firstSeen)
	if w.b == nil {
		ctx, cancel := s.writeCtx(w.ctx)
		b, err := s.prepareBatch(ctx, "INSERT INTO resources ("+resourceInsertColumns+")")
		cancel() // prepareBatch keeps only the deadline
		if err != nil {
			return err
		}
		w.b, w.s = b, s
		if err := sc.cols.reserve(b.Columns()); err != nil {
			w.abort()
			return err
		}
	}
	err := appendWholeRows(w.b, sc)
	if err == nil {
		// Sent as a block of the INSERT at once: the server gathers the
		// blocks into one part (min_insert_block_size_rows), and the
		// client holds no more than a batch's columns.
		err = w.b.Flush()
	}
	if err != nil {
		w.abort()
		return err
	}
	w.tags.add(&sc.cols)
	w.rows += len(order)
	w.bytes += size
	return nil
}

// full reports whether the open INSERT should be sent now.
func (w *wholeInsert) full() bool {
	return w.rows >= wholeRowFlushRows || w.bytes >= wholeRowFlushBytes
}

// send sends the open INSERT, if any, after its rows' tag index rows, and
// returns how many rows it wrote.
func (w *wholeInsert) send() (int, error) {
	if w.b == nil {
		return 0, nil
	}
	ctx, cancel := w.s.writeCtx(w.ctx)
	err := w.s.insertTagRows(ctx, &w.tags)
	cancel()
	if err != nil {
		w.abort()
		return 0, err
	}
	b, n := w.b, w.rows
	err = b.Send()
	w.done()
	return n, err
}

// abort drops the open INSERT, if any.
func (w *wholeInsert) abort() {
	if w.b != nil {
		w.b.Abort()
		w.done()
	}
}

func (w *wholeInsert) done() {
	w.b, w.rows, w.bytes = nil, 0, 0
	w.tags.reset()
}

// splitSightings divides rows in sorted order into those written whole and
// those written as sightings (appended to seen), both still sorted. A run of
// observations of one id is written whole if any of it changed.
func splitSightings(rows []resourceRow, order, seen []sortEntry) (whole, _ []sortEntry) {
	anyUnchanged := false
	for i := range rows {
		anyUnchanged = anyUnchanged || rows[i].unchanged
	}
	if !anyUnchanged {
		return order, seen // all new or changed, as in a first import
	}
	whole = order[:0] // filled behind the reads
	for i := 0; i < len(order); {
		j, changed := i, false
		for ; j < len(order) && sameResource(&rows[order[i].row].r, &rows[order[j].row].r); j++ {
			changed = changed || !rows[order[j].row].unchanged
		}
		for _, e := range order[i:j] {
			if changed {
				whole = append(whole, e)
			} else {
				seen = append(seen, e)
			}
		}
		i = j
	}
	return whole, seen
}

func sameResource(a, b *engine.Resource) bool { return a.ID == b.ID && a.TenantID == b.TenantID }

// sightingFlushRows is how many sightings a bulk write gathers per INSERT.
// Each INSERT makes a part, and a part of a batch's 10k narrow rows costs
// the server more to write and merge than its rows do: 1M sightings took
// 1.8 s of server CPU as 10k-row INSERTs, 0.9 s as 200k-row ones.
var sightingFlushRows = 200_000 // a variable for tests

// sightingBuffer gathers sightings from the inserters of a bulk write.
type sightingBuffer struct {
	mu  sync.Mutex
	cur *sightingRows
}

// add appends the sightings of rows at order and returns the gathered
// rows, for the caller to write, once there are sightingFlushRows.
func (sb *sightingBuffer) add(rows []resourceRow, order []sortEntry) *sightingRows {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	if sb.cur == nil {
		sb.cur = new(sightingRows)
	}
	sb.cur.add(rows, order)
	if sb.cur.len() < sightingFlushRows {
		return nil
	}
	full := sb.cur
	sb.cur = nil
	return full
}

// take returns what is gathered (nil if nothing).
func (sb *sightingBuffer) take() *sightingRows {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	sr := sb.cur
	sb.cur = nil
	return sr
}

// sightingRows are sightings to write, ids copied (rows are recycled).
type sightingRows struct {
	tenants []string
	ids     byteColumn
	seen    []time.Time
}

func (sr *sightingRows) len() int { return len(sr.seen) }

func (sr *sightingRows) add(rows []resourceRow, order []sortEntry) {
	for _, e := range order {
		row := &rows[e.row]
		sr.tenants = append(sr.tenants, row.r.TenantID)
		sr.ids.add(row.r.ID)
		sr.seen = append(sr.seen, row.lastSeen)
	}
}

// insertSightings writes sightings into resource_sightings in one INSERT,
// sorted by tenant and id (the server then does not sort the block).
func (s *Store) insertSightings(ctx context.Context, sr *sightingRows) error {
	n := sr.len()
	order := make([]sortEntry, n)
	for i := range n {
		id := sr.ids.at(i)
		order[i] = sortEntry{key: keyPrefix(bulk.String(id), len("res_"), 8), row: int32(i)}
	}
	slices.SortFunc(order, func(a, b sortEntry) int {
		if c := strings.Compare(sr.tenants[a.row], sr.tenants[b.row]); c != 0 {
			return c
		}
		if a.key != b.key {
			return cmp.Compare(a.key, b.key)
		}
		return bytes.Compare(sr.ids.at(int(a.row)), sr.ids.at(int(b.row)))
	})
	b, err := s.prepareBatch(ctx, "INSERT INTO resource_sightings (tenant_id, id, last_seen_at)")
	if err != nil {
		return err
	}
	tenants, ids, times := make([]string, n), make([]string, n), make([]time.Time, n)
	for j, e := range order {
		id := sr.ids.at(int(e.row))
		// The driver copies the values before Append returns.
		tenants[j], ids[j], times[j] = sr.tenants[e.row], bulk.String(id), sr.seen[e.row]
	}
	for i, col := range []any{tenants, ids, times} {
		if err := b.Column(i).Append(col); err != nil {
			b.Abort()
			return err
		}
	}
	return b.Send()
}

// appendWholeRows appends the rows gathered in sc.cols (rowColumns; sorted
// by tenant and id) to b, an INSERT into resources, a column at a time
// through the public batch API (internal/bulk).
func appendWholeRows(b driver.Batch, sc *resourceScratch) error {
	c := &sc.cols
	strCol := func(i, k int) error { return c.appendStrings(b.Column(i), &sc.strs, k) }
	// Columns in resourceInsertColumns order.
	for _, step := range []func() error{
		func() error { return strCol(0, gatherTenant) },
		func() error { return strCol(1, gatherID) },
		func() error { return b.Column(2).Append(c.versions) },
		func() error { return strCol(3, gatherProvider) },
		func() error { return strCol(4, gatherAccount) },
		func() error { return strCol(5, gatherRegion) },
		func() error { return strCol(6, gatherType) },
		func() error { return strCol(7, gatherNativeID) },
		func() error { return strCol(8, gatherName) },
		func() error { return c.appendTags(b.Column(9), &sc.arrays, &sc.strs, true) },
		func() error { return c.appendTags(b.Column(10), &sc.arrays, &sc.strs, false) },
		func() error { return strCol(11, gatherAttributes) },
		func() error { return b.Column(12).Append(c.firstSeen) },
		func() error { return b.Column(13).Append(c.lastSeen) },
		func() error { return b.Column(14).Append(c.hashes) },
		func() error { return b.Column(15).Append(c.captured) },
	} {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}
