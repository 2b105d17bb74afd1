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
	"unsafe"

	"github.com/ClickHouse/ch-go/proto"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"github.com/fourd-dev/fourd/engine"
)

// resourceScratch is one inserter's reusable buffers.
type resourceScratch struct {
	order []sortEntry
	seen  []sortEntry
	strs  []string
	u64   []uint64
	times []time.Time
	// cols are the String column buffers of the last INSERT of whole rows,
	// lent to the next (columnBuffers): a batch's text, held as long as
	// the scratch (an inserter's bulk write, or a ResourceWriter).
	cols columnBuffers
	// announced is the last batch's new resources (newResources).
	announced []engine.Resource
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
	b, err := s.prepareBatch(ctx, "INSERT INTO resources ("+resourceInsertColumns+")")
	if err != nil {
		return written, err
	}
	// The String columns' buffers are lent by the last INSERT, and taken
	// back once the batch is sent or aborted.
	defer sc.cols.takeBack()
	if err := appendWholeRows(b, sc, true, rows, whole, firstSeen); err != nil {
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
// as 100 INSERTs, 5–6 s as 10 (docs/benchmarks.md, issue 5). Each batch is
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
// (sorted runs: the server sorts the block it gathers them into).
type wholeInsert struct {
	ctx   context.Context // of the write, for the INSERTs it opens
	b     driver.Batch
	rows  int // rows appended to b
	bytes int // their size (resourceRow.size)
	sc    *resourceScratch
}

// append appends the rows at order, of size bytes (resourceRow.size; a
// bound will do), to the open INSERT, opening one if none is; after an
// error the INSERT is aborted.
func (w *wholeInsert) append(s *Store, sc *resourceScratch, rows []resourceRow, order []sortEntry, size int, firstSeen []time.Time) error {
	fresh := w.b == nil
	if fresh {
		ctx, cancel := s.writeCtx(w.ctx)
		b, err := s.prepareBatch(ctx, "INSERT INTO resources ("+resourceInsertColumns+")")
		cancel() // prepareBatch keeps only the deadline
		if err != nil {
			return err
		}
		w.b, w.sc = b, sc
	}
	err := appendWholeRows(w.b, sc, fresh, rows, order, firstSeen)
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
	w.rows += len(order)
	w.bytes += size
	return nil
}

// full reports whether the open INSERT should be sent now.
func (w *wholeInsert) full() bool {
	return w.rows >= wholeRowFlushRows || w.bytes >= wholeRowFlushBytes
}

// send sends the open INSERT, if any, and returns how many rows it wrote.
func (w *wholeInsert) send() (int, error) {
	if w.b == nil {
		return 0, nil
	}
	b, n := w.b, w.rows
	err := b.Send()
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
	w.sc.cols.takeBack()
	w.b, w.rows, w.bytes, w.sc = nil, 0, 0, nil
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
		order[i] = sortEntry{key: keyPrefix(unsafe.String(unsafe.SliceData(id), len(id)), len("res_"), 8), row: int32(i)}
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
		tenants[j], ids[j], times[j] = sr.tenants[e.row], unsafe.String(unsafe.SliceData(id), len(id)), sr.seen[e.row]
	}
	presizeStrings(b, 1, n, len(sr.ids.data))
	for i, col := range []any{tenants, ids, times} {
		if err := b.Column(i).Append(col); err != nil {
			b.Abort()
			return err
		}
	}
	return b.Send()
}

// appendWholeRows appends the rows at order (sorted by tenant and id) to b,
// an INSERT into resources; fresh says that b is new (nothing appended
// yet). The String columns are filled a row at a time when the driver's
// buffers are at hand, in buffers lent by sc (see columnBuffers): the
// caller takes them back once b is sent or aborted.
func appendWholeRows(b driver.Batch, sc *resourceScratch, fresh bool, rows []resourceRow, order []sortEntry, firstSeen []time.Time) error {
	n := len(order)
	byRow := sc.appendStringsByRow(b, fresh, rows, order)
	strCol := func(i int, get func(*resourceRow) string) error {
		if byRow {
			return nil
		}
		sc.strs = slices.Grow(sc.strs[:0], n)[:n]
		size := 0
		for j, e := range order {
			sc.strs[j] = get(&rows[e.row])
			size += len(sc.strs[j])
		}
		presizeStrings(b, i, n, size)
		return b.Column(i).Append(sc.strs)
	}
	// arrCol appends the tags' keys (or values) as column i.
	arrCol := func(i int, keys bool) error {
		if byRow {
			return nil
		}
		if raw, ok := rawStringArrayColumn(b, i); ok {
			m, size := 0, 0
			for _, e := range order {
				for _, t := range rows[e.row].r.Tags {
					m, size = m+1, size+len(tagPart(t, keys))
				}
			}
			raw.grow(n, m, size)
			for _, e := range order {
				raw.appendTags(rows[e.row].r.Tags, keys)
			}
			return nil
		}
		for _, e := range order {
			tags := rows[e.row].r.Tags
			vals := make([]string, len(tags))
			for j, t := range tags {
				vals[j] = tagPart(t, keys)
			}
			if err := b.Column(i).AppendRow(vals); err != nil {
				return err
			}
		}
		return nil
	}
	timeCol := func(i int, get func(int32) time.Time) error {
		sc.times = slices.Grow(sc.times[:0], n)[:n]
		for j, e := range order {
			sc.times[j] = get(e.row)
		}
		return b.Column(i).Append(sc.times)
	}
	sc.u64 = slices.Grow(sc.u64[:0], 2*n)[:2*n]
	versions, hashes := sc.u64[:n], sc.u64[n:]
	for j, e := range order {
		versions[j], hashes[j] = rows[e.row].version, rows[e.row].hash
	}
	// Columns in resourceInsertColumns order.
	for _, step := range []func() error{
		func() error { return strCol(0, func(r *resourceRow) string { return r.r.TenantID }) },
		func() error { return strCol(1, func(r *resourceRow) string { return r.r.ID }) },
		func() error { return b.Column(2).Append(versions) },
		func() error { return strCol(3, func(r *resourceRow) string { return r.r.Provider }) },
		func() error { return strCol(4, func(r *resourceRow) string { return r.r.Account }) },
		func() error { return strCol(5, func(r *resourceRow) string { return r.r.Region }) },
		func() error { return strCol(6, func(r *resourceRow) string { return r.r.Type }) },
		func() error { return strCol(7, func(r *resourceRow) string { return r.r.NativeID }) },
		func() error { return strCol(8, func(r *resourceRow) string { return r.r.Name }) },
		func() error { return arrCol(9, true) },
		func() error { return arrCol(10, false) },
		// The attributes' bytes are only read, and copied by the driver.
		func() error {
			return strCol(11, func(r *resourceRow) string {
				return unsafe.String(unsafe.SliceData(r.r.Attributes), len(r.r.Attributes))
			})
		},
		func() error { return timeCol(12, func(i int32) time.Time { return firstSeen[i] }) },
		func() error { return timeCol(13, func(i int32) time.Time { return rows[i].lastSeen }) },
		func() error { return b.Column(14).Append(hashes) },
	} {
		if err := step(); err != nil {
			return err
		}
	}
	clear(sc.strs)
	return nil
}

// wholeRowStrings are the String columns of resourceInsertColumns, in
// order, and its Array(String) ones, tags.key and tags.value.
var (
	wholeRowStrings = [...]int{0, 1, 3, 4, 5, 6, 7, 8, 11}
	wholeRowTags    = [...]int{9, 10}
)

// appendStringsByRow appends the String and Array(String) columns of the
// rows at order straight into b's buffers, lent by sc.cols, a row at a
// time: a row's fields lie together in the line the decoder copied
// (inventory.fastLine), so that a row is read from memory once, where a
// column at a time read the batch in key order, far apart, once per
// column. It appends nothing and returns false when the driver's buffers
// are not at hand (canPresize, canRawArray). A fresh INSERT's columns get
// the buffers sc lends; those of an open one grow.
func (sc *resourceScratch) appendStringsByRow(b driver.Batch, fresh bool, rows []resourceRow, order []sortEntry) bool {
	var strs [len(wholeRowStrings)]*proto.ColStr
	var tags [len(wholeRowTags)]rawStringArray
	for k, i := range wholeRowStrings {
		if strs[k] = rawStringColumn(b, i); strs[k] == nil {
			return false
		}
	}
	for k, i := range wholeRowTags {
		var ok bool
		if tags[k], ok = rawStringArrayColumn(b, i); !ok {
			return false
		}
	}
	// Room for every row of the batch (those written as sightings too: an
	// upper bound, read in memory order).
	var size [len(wholeRowStrings)]int
	var tagCount, tagSize [len(wholeRowTags)]int
	for i := range rows {
		row := &rows[i]
		r := &row.r
		for k, v := range [...]string{r.TenantID, r.ID, r.Provider, r.Account, r.Region, r.Type, r.NativeID, r.Name} {
			size[k] += len(v)
		}
		size[8] += len(r.Attributes)
		tagCount[0] += len(r.Tags)
		tagCount[1] += len(r.Tags)
		for _, t := range r.Tags {
			tagSize[0] += len(t.Key)
			tagSize[1] += len(t.Value)
		}
	}
	n := len(rows)
	for k, i := range wholeRowStrings {
		if fresh {
			sc.cols.lend(i, strs[k], nil, n, n, size[k])
		} else {
			strs[k].Buf, strs[k].Pos = slices.Grow(strs[k].Buf, size[k]), slices.Grow(strs[k].Pos, n)
		}
	}
	for k, i := range wholeRowTags {
		if fresh {
			sc.cols.lend(i, tags[k].values, tags[k].offsets, n, tagCount[k], tagSize[k])
		} else {
			tags[k].grow(n, tagCount[k], tagSize[k])
		}
	}
	for _, e := range order {
		row := &rows[e.row]
		r := &row.r
		strs[0].Append(r.TenantID)
		strs[1].Append(r.ID)
		strs[2].Append(r.Provider)
		strs[3].Append(r.Account)
		strs[4].Append(r.Region)
		strs[5].Append(r.Type)
		strs[6].Append(r.NativeID)
		strs[7].Append(r.Name)
		strs[8].AppendBytes(r.Attributes)
		tags[0].appendTags(r.Tags, true)
		tags[1].appendTags(r.Tags, false)
	}
	return true
}
