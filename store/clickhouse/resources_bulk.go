package clickhouse

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"iter"
	"slices"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/ClickHouse/ch-go/proto"
	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"

	"github.com/fourd-dev/fourd/engine"
)

// A bulk write of resource observations (WriteResourcesNotify: `fourd
// import`, POST /v1/resources) runs as a pipeline, so that decoding,
// looking up first sightings, inserting and announcing new resources
// overlap instead of taking turns:
//
//	caller ──batches──▶ dispatcher ──▶ 2 inserters ──▶ notifier
//	(validate rows)     (first seen,   (sort, insert)   (onNew, in
//	                     new ids)                        batch order)
//
// The dispatcher alone decides which ids are new, in batch order, so an id
// met twice is new once; the notifier announces a batch only after its rows
// are written. The first error stops every stage; what was written before
// it stays written and is counted.

// A bulk batch holds up to bulkResourceBatchRows rows or
// bulkResourceBatchBytes of row data (attributes make resource rows wide).
// About six batches are in flight, each taking in memory about twice its
// row data (decoded resources, tags maps, the announcement's events), so
// these bound an import's memory to a few hundred MiB whatever its size.
const (
	bulkResourceBatchRows  = 10_000
	bulkResourceBatchBytes = 8 << 20
)

// resourceBatch is one batch of a bulk write on its way through the stages.
type resourceBatch struct {
	seq       int
	rows      []resourceRow
	firstSeen []time.Time
	newIDs    []tenantIDs
}

// resourcePipeline runs the stages of one bulk write.
type resourcePipeline struct {
	s     *Store
	ctx   context.Context
	onNew func(tenantID string, rs []engine.Resource) error

	mu       sync.Mutex
	firstErr error
	failed   chan struct{}
	written  int64
	newIDs   []string

	batches  chan *resourceBatch // caller → dispatcher
	prepared chan *resourceBatch // dispatcher → inserters
	inserted chan *resourceBatch // inserters → notifier
	free     chan []resourceRow  // notifier → caller: row slices to refill
	wg       sync.WaitGroup      // dispatcher and inserters
	notified chan struct{}       // closed when the notifier is done

	// Owned by the dispatcher: the ids of tenants read whole (see
	// knownIDsThreshold), and the ids this write found new when not.
	known map[string]*tenantKnown
	mine  map[string]time.Time

	// sightings gathers the inserters' sightings into large INSERTs.
	sightings sightingBuffer
}

func (s *Store) newResourcePipeline(ctx context.Context, onNew func(string, []engine.Resource) error) *resourcePipeline {
	p := &resourcePipeline{s: s, ctx: ctx, onNew: onNew, failed: make(chan struct{}),
		// Unbuffered stages: at most one batch filling, one being decided,
		// one per inserter and one being announced exist at a time.
		batches: make(chan *resourceBatch), prepared: make(chan *resourceBatch),
		inserted: make(chan *resourceBatch), free: make(chan []resourceRow, snapshotInserters+3),
		notified: make(chan struct{}), known: map[string]*tenantKnown{}, mine: map[string]time.Time{}}
	p.wg.Add(1)
	go p.dispatch()
	var inserters sync.WaitGroup
	for range snapshotInserters {
		inserters.Add(1)
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			defer inserters.Done()
			p.insert()
		}()
	}
	go func() {
		inserters.Wait()
		// The last sightings are written even after a failure: they are
		// observations read before it, like the batches already sent.
		if sr := p.sightings.take(); sr != nil && p.ctx.Err() == nil {
			ctx, cancel := p.s.writeCtx(p.ctx)
			err := p.s.insertSightings(ctx, sr)
			cancel()
			if err != nil {
				p.fail(err)
			} else {
				p.mu.Lock()
				p.written += int64(sr.len())
				p.mu.Unlock()
			}
		}
		close(p.inserted)
	}()
	go p.notify()
	return p
}

func (p *resourcePipeline) fail(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.firstErr == nil {
		p.firstErr = err
		close(p.failed)
	}
}

func (p *resourcePipeline) stopped() bool {
	select {
	case <-p.failed:
		return true
	default:
		return false
	}
}

// errPipelineStopped is what the caller sees when a stage failed; the
// stage's own error is returned by close.
var errPipelineStopped = errors.New("clickhouse: resource write stopped")

// send hands a full batch to the dispatcher.
func (p *resourcePipeline) send(b *resourceBatch) error {
	select {
	case p.batches <- b:
		return nil
	case <-p.failed:
		return errPipelineStopped
	case <-p.ctx.Done():
		return p.ctx.Err()
	}
}

// rowsBuffer returns an empty row slice, recycled when one is free.
func (p *resourcePipeline) rowsBuffer() []resourceRow {
	select {
	case rows := <-p.free:
		return rows
	default:
		return make([]resourceRow, 0, 4096)
	}
}

// close waits for every stage and returns the first error.
func (p *resourcePipeline) close() error {
	close(p.batches)
	p.wg.Wait()
	<-p.notified
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.firstErr
}

// dispatch decides the first sightings and new ids of each batch in order.
func (p *resourcePipeline) dispatch() {
	defer p.wg.Done()
	defer close(p.prepared)
	for b := range p.batches {
		if p.stopped() {
			continue
		}
		ctx, cancel := p.s.writeCtx(p.ctx)
		firstSeen, newIDs, err := p.s.firstSeen(ctx, b.rows, p.known)
		cancel()
		if err != nil {
			p.fail(err)
			continue
		}
		// A tenant read whole learns the batch's new ids and new contents
		// (it knew the rest).
		for i := range b.rows {
			if row := &b.rows[i]; !row.unchanged {
				if k := p.known[row.r.TenantID]; k != nil {
					k.record(row.r.ID, firstSeen[i].Unix(), row.hash)
				}
			}
		}
		// An id new in an earlier batch of this write may not be stored
		// yet when this batch looks it up: the earlier sighting decides.
		// (Tenants read whole have them all: see above.)
		allKnown := len(b.rows) > 0 && oneTenant(b.rows) && p.known[b.rows[0].r.TenantID] != nil
		for i := range b.rows {
			r := &b.rows[i].r
			if allKnown {
				break
			}
			if p.known[r.TenantID] != nil {
				continue
			}
			if t, ok := p.mine[r.TenantID+"\x00"+r.ID]; ok && t.Before(firstSeen[i]) {
				firstSeen[i] = t
			}
		}
		for j := range newIDs {
			t := &newIDs[j]
			if p.known[t.tenantID] != nil {
				continue
			}
			ids := t.ids[:0]
			for _, id := range t.ids {
				if _, ok := p.mine[t.tenantID+"\x00"+id]; !ok {
					ids = append(ids, id)
				}
			}
			t.ids = ids
		}
		for i := range b.rows {
			r := &b.rows[i].r
			if !allKnown && p.known[r.TenantID] == nil {
				if _, ok := p.mine[r.TenantID+"\x00"+r.ID]; !ok {
					p.mine[r.TenantID+"\x00"+r.ID] = firstSeen[i]
				}
			}
		}
		b.firstSeen, b.newIDs = firstSeen, newIDs
		select {
		case p.prepared <- b:
		case <-p.failed:
		}
	}
}

// insert writes prepared batches.
func (p *resourcePipeline) insert() {
	var sc resourceScratch
	for b := range p.prepared {
		if p.stopped() {
			continue
		}
		ctx, cancel := p.s.writeCtx(p.ctx)
		n, err := p.s.insertResourceRows(ctx, &sc, b.rows, b.firstSeen, &p.sightings)
		cancel()
		p.mu.Lock()
		p.written += int64(n)
		p.mu.Unlock()
		if err != nil {
			p.fail(err)
			continue
		}
		select {
		case p.inserted <- b:
		case <-p.failed:
		}
	}
}

// notify reports the new resources of written batches, in batch order.
func (p *resourcePipeline) notify() {
	defer close(p.notified)
	next, waiting := 0, map[int]*resourceBatch{}
	for b := range p.inserted {
		waiting[b.seq] = b
		for {
			b, ok := waiting[next]
			if !ok {
				break
			}
			delete(waiting, next)
			next++
			if !p.stopped() {
				if err := p.announce(b); err != nil {
					p.fail(err)
				}
			}
			clear(b.rows)
			select {
			case p.free <- b.rows[:0]:
			default:
			}
		}
	}
}

// announce records a batch's new ids and passes its new resources to onNew.
func (p *resourcePipeline) announce(b *resourceBatch) error {
	for _, t := range b.newIDs {
		p.newIDs = append(p.newIDs, t.ids...)
	}
	if p.onNew == nil || len(b.newIDs) == 0 {
		return nil
	}
	order, byTenant := newResources(b.rows, b.firstSeen, b.newIDs)
	for _, t := range order {
		if err := p.onNew(t, byTenant[t]); err != nil {
			return err
		}
	}
	return nil
}

// newResources picks out of rows the observations of the new ids, once
// each (also when a batch observes one twice), with their decided first
// sighting, grouped by tenant in the order tenants were first met.
//
// A tenant's new ids are in the order rows first observe them (firstSeen
// lists them so, and the dispatcher only leaves some out), so a row is the
// first observation of a new id exactly when its id is the next of its
// tenant's not met yet: no set of the batch's ids is needed (a map of
// them, keyed by tenant and id, cost a first import of 1M resources about
// 0.4 s of client CPU).
func newResources(rows []resourceRow, firstSeen []time.Time, newIDs []tenantIDs) (order []string, byTenant map[string][]engine.Resource) {
	index := make(map[string]int, len(newIDs)) // tenant → its place in newIDs
	rest := make([][]string, len(newIDs))      // each tenant's new ids not met yet
	byTenant = make(map[string][]engine.Resource, len(newIDs))
	for j, t := range newIDs {
		index[t.tenantID], rest[j] = j, t.ids
		byTenant[t.tenantID] = make([]engine.Resource, 0, len(t.ids))
	}
	j := -1 // the place of the last row's tenant (rows mostly share one)
	for i := range rows {
		r := &rows[i].r
		if j < 0 || newIDs[j].tenantID != r.TenantID {
			var ok bool
			if j, ok = index[r.TenantID]; !ok {
				j = -1
				continue
			}
		}
		if len(rest[j]) == 0 || rest[j][0] != r.ID {
			continue
		}
		rest[j] = rest[j][1:]
		if len(byTenant[r.TenantID]) == 0 {
			order = append(order, r.TenantID)
		}
		nr := *r
		nr.FirstSeenAt = firstSeen[i]
		byTenant[r.TenantID] = append(byTenant[r.TenantID], nr)
	}
	return order, byTenant
}

// writeBulk streams resources of one tenant through a pipeline.
func (s *Store) writeBulk(ctx context.Context, tenantID string, resources iter.Seq2[engine.Resource, error],
	onNew func(string, []engine.Resource) error) (written int64, newIDs []string, err error) {
	// No deadline on the whole write (it lasts as long as its input); each
	// query of a stage has the store's write timeout.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	p := s.newResourcePipeline(ctx, onNew)
	seq, bytes := 0, 0
	rows := p.rowsBuffer()
	now := s.cfg.Now()
	for r, ierr := range resources {
		if ierr != nil {
			err = ierr
			break
		}
		row, rerr := newResourceRow(tenantID, r, now)
		if rerr != nil {
			err = rerr
			break
		}
		rows = append(rows, row)
		bytes += row.size()
		if len(rows) >= bulkResourceBatchRows || bytes >= bulkResourceBatchBytes {
			if err = p.send(&resourceBatch{seq: seq, rows: rows}); err != nil {
				break
			}
			seq, bytes, rows = seq+1, 0, p.rowsBuffer()
		}
	}
	// What was read before an error is written all the same: observations
	// are independent, and the new ids among them are reported.
	if len(rows) > 0 && !errors.Is(err, errPipelineStopped) {
		if serr := p.send(&resourceBatch{seq: seq, rows: rows}); serr != nil && err == nil {
			err = serr
		}
	}
	perr := p.close()
	if perr != nil && (err == nil || errors.Is(err, errPipelineStopped)) {
		err = perr
	}
	return p.written, p.newIDs, err
}

// size estimates the bytes the row takes in a batch.
func (row *resourceRow) size() int {
	r := &row.r
	n := 64 + len(r.TenantID) + len(r.ID) + len(r.Provider) + len(r.Account) + len(r.Region) + len(r.Type) +
		len(r.NativeID) + len(r.Name) + len(r.Attributes)
	for i := range row.tagKeys {
		n += 16 + len(row.tagKeys[i]) + len(row.tagValues[i])
	}
	return n
}

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
// (sightingBuffer); without, at once. It returns how many observations it
// wrote: the whole rows, and the sightings of the INSERT it made if any.
func (s *Store) insertResourceRows(ctx context.Context, sc *resourceScratch, rows []resourceRow, firstSeen []time.Time,
	sink *sightingBuffer) (int, error) {
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
	if err := s.insertWholeRows(ctx, sc, rows, whole, firstSeen); err != nil {
		return written, err
	}
	return written + len(whole), nil
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

// insertWholeRows inserts the rows at order (sorted by tenant and id) into
// resources.
func (s *Store) insertWholeRows(ctx context.Context, sc *resourceScratch, rows []resourceRow, order []sortEntry, firstSeen []time.Time) error {
	n := len(order)
	b, err := s.prepareBatch(ctx, "INSERT INTO resources ("+resourceInsertColumns+")")
	if err != nil {
		return err
	}
	// The String columns are filled a row at a time when the driver's
	// buffers are at hand, with buffers of the last INSERT, taken back once
	// the batch is sent or aborted.
	defer sc.cols.takeBack()
	byRow := sc.appendStringsByRow(b, rows, order)
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
	arrCol := func(i int, get func(*resourceRow) []string) error {
		if byRow {
			return nil
		}
		if raw, ok := rawStringArrayColumn(b, i); ok {
			m, size := 0, 0
			for _, e := range order {
				for _, v := range get(&rows[e.row]) {
					m, size = m+1, size+len(v)
				}
			}
			raw.grow(n, m, size)
			for _, e := range order {
				raw.appendRow(get(&rows[e.row]))
			}
			return nil
		}
		for _, e := range order {
			if err := b.Column(i).AppendRow(get(&rows[e.row])); err != nil {
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
		func() error { return arrCol(9, func(r *resourceRow) []string { return r.tagKeys }) },
		func() error { return arrCol(10, func(r *resourceRow) []string { return r.tagValues }) },
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
			b.Abort()
			return err
		}
	}
	clear(sc.strs)
	return b.Send()
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
// are not at hand (canPresize, canRawArray).
func (sc *resourceScratch) appendStringsByRow(b driver.Batch, rows []resourceRow, order []sortEntry) bool {
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
		for k, vals := range [...][]string{row.tagKeys, row.tagValues} {
			tagCount[k] += len(vals)
			for _, v := range vals {
				tagSize[k] += len(v)
			}
		}
	}
	n := len(rows)
	for k, i := range wholeRowStrings {
		sc.cols.lend(i, strs[k], nil, n, n, size[k])
	}
	for k, i := range wholeRowTags {
		sc.cols.lend(i, tags[k].values, tags[k].offsets, n, tagCount[k], tagSize[k])
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
		tags[0].appendRow(row.tagKeys)
		tags[1].appendRow(row.tagValues)
	}
	return true
}
