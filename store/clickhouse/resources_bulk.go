package clickhouse

import (
	"context"
	"errors"
	"iter"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// A bulk write of resource observations (WriteResourceBatches: `fourd
// import`, POST /v1/resources) runs as a pipeline, so that decoding,
// looking up first sightings, inserting and announcing new resources
// overlap instead of taking turns:
//
//	feeder ──batches──▶ dispatcher ──▶ 2 inserters ───▶ notifier ──▶ caller
//	(validate rows)     (first seen,   (sort, insert,    (batch      (publishes
//	                     new ids)       pack added)       order)      resource.added)
//
// The dispatcher alone decides which ids are new, in batch order, so an id
// met twice is new once. An inserter gathers the whole rows of several
// batches into one INSERT (wholeInsert), packs each batch's new resources
// (engine.PackAddedResources) as it appends the batch's rows, and lets go
// of the rows; the notifier hands a batch to the caller only after its
// INSERT was sent. The first error stops every stage; what was written
// before it stays written and is counted.

// A bulk batch holds up to bulkResourceBatchRows rows or
// bulkResourceBatchBytes of row data (attributes make resource rows wide).
// About six batches are in flight as decoded resources, each taking in
// memory about twice its row data; each inserter also holds the packed
// announcements of the batches of its open INSERT (wholeRowFlushRows
// bounds them). So an import's memory stays a few hundred MiB whatever its
// size.
const (
	bulkResourceBatchRows  = 10_000
	bulkResourceBatchBytes = 8 << 20
)

// resourceBatch is one batch of a bulk write on its way through the stages.
type resourceBatch struct {
	seq       int
	rows      []resourceRow
	size      int // of the rows (resourceRow.size)
	firstSeen []time.Time
	newIDs    []tenantIDs
	// added is the resource.added data of the batch's new resources,
	// packed by its inserter (WriteResourceBatches only).
	added engine.AddedResources
}

// resourcePipeline runs the stages of one bulk write.
type resourcePipeline struct {
	s   *Store
	ctx context.Context
	// pack says to pack each batch's new resources (engine.ResourceBatch);
	// deliver, when set, hands each stored batch over, in batch order.
	pack    bool
	deliver func(engine.ResourceBatch) error

	mu       sync.Mutex
	firstErr error
	failed   chan struct{}
	written  int64
	newIDs   []string

	batches  chan *resourceBatch // caller → dispatcher
	prepared chan *resourceBatch // dispatcher → inserters
	inserted chan *resourceBatch // inserters → notifier
	free     chan []resourceRow  // inserters → caller: row slices to refill
	wg       sync.WaitGroup      // dispatcher and inserters
	notified chan struct{}       // closed when the notifier is done

	// Owned by the dispatcher: the ids of tenants read whole (see
	// knownIDsThreshold), and the ids this write found new when not.
	known map[string]*tenantKnown
	mine  map[string]time.Time

	// sightings gathers the inserters' sightings into large INSERTs.
	sightings sightingBuffer
}

func (s *Store) newResourcePipeline(ctx context.Context, pack bool, deliver func(engine.ResourceBatch) error) *resourcePipeline {
	p := &resourcePipeline{s: s, ctx: ctx, pack: pack, deliver: deliver, failed: make(chan struct{}),
		// Unbuffered stages: at most one batch filling, one being decided
		// and one per inserter exist at a time as decoded rows.
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
					k.recordRow(row, firstSeen[i].Unix())
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

// insert writes prepared batches: their sightings gathered across the
// write (sightingBuffer), their whole rows gathered into an INSERT kept
// open across batches (wholeInsert). Once a batch's rows are appended and
// its new resources packed, its rows go back to the caller; the batch
// goes to the notifier once its INSERT is sent: when it is full, when no
// batch came for wholeRowFlushIdle, or when the write ends.
func (p *resourcePipeline) insert() {
	var sc resourceScratch
	open := wholeInsert{ctx: p.ctx}
	var pending []*resourceBatch // batches appended to open, or with no whole rows, in order
	flush := func() {
		n, err := open.send()
		if err != nil {
			p.fail(err)
			pending = pending[:0]
			return
		}
		p.mu.Lock()
		p.written += int64(n)
		p.mu.Unlock()
		// The batches are stored: they go to the notifier even if the
		// write failed meanwhile (it reads until the inserters end).
		for _, b := range pending {
			p.inserted <- b
		}
		clear(pending)
		pending = pending[:0]
	}
	defer open.abort() // after a failure: see below
	for {
		var b *resourceBatch
		var ok bool
		if open.b != nil {
			select {
			case b, ok = <-p.prepared:
			case <-time.After(wholeRowFlushIdle):
				if p.stopped() {
					open.abort()
				} else {
					flush()
				}
				continue
			}
		} else {
			b, ok = <-p.prepared
		}
		if !ok {
			break
		}
		if p.stopped() {
			// Rows appended but not sent are dropped: their announcements
			// will not be handed over.
			open.abort()
			continue
		}
		if insertFault != nil {
			if err := insertFault(b.seq); err != nil {
				p.fail(err)
				continue
			}
		}
		ctx, cancel := p.s.writeCtx(p.ctx)
		n, err := p.s.insertResourceRows(ctx, &sc, b.rows, b.size, b.firstSeen, &p.sightings, &open)
		cancel()
		p.mu.Lock()
		p.written += int64(n)
		p.mu.Unlock()
		if err != nil {
			p.fail(err)
			continue
		}
		p.packAdded(b, &sc)
		clear(b.rows)
		select {
		case p.free <- b.rows[:0]:
		default:
		}
		b.rows, b.firstSeen = nil, nil
		pending = append(pending, b)
		if open.b == nil || open.full() {
			flush()
		}
	}
	if !p.stopped() {
		flush()
	}
}

// insertFault, set by tests only, fails the insert of a bulk write's batch
// (by its place in the write) when it returns an error.
var insertFault func(seq int) error

// packAdded packs the resource.added data of a batch's new resources.
func (p *resourcePipeline) packAdded(b *resourceBatch, sc *resourceScratch) {
	if !p.pack || len(b.newIDs) == 0 {
		return
	}
	order, byTenant := newResources(b.rows, b.firstSeen, b.newIDs, &sc.announced)
	rs := byTenant[order[0]] // a write is of one tenant
	for _, t := range order[1:] {
		rs = append(slices.Clip(rs), byTenant[t]...)
	}
	b.added = engine.PackAddedResources(rs)
}

// notify hands written batches over (deliver), in batch order. A batch
// whose rows are stored is handed over even when the write failed
// elsewhere (a later batch, the caller's context): a retry would find its
// resources known and announce nothing. A batch that failed never comes;
// the stored ones after it are handed over at the end, in order. After a
// delivery fails (the caller stopped), none is tried.
func (p *resourcePipeline) notify() {
	defer close(p.notified)
	committing := true
	announce := func(b *resourceBatch) {
		if !committing {
			return
		}
		if err := p.announce(b); err != nil {
			p.fail(err)
			committing = false
		}
	}
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
			announce(b)
		}
	}
	for _, seq := range slices.Sorted(maps.Keys(waiting)) {
		announce(waiting[seq])
	}
}

// announce records a batch's new ids and hands the batch over.
func (p *resourcePipeline) announce(b *resourceBatch) error {
	start := len(p.newIDs)
	for _, t := range b.newIDs {
		p.newIDs = append(p.newIDs, t.ids...)
	}
	if p.deliver == nil {
		return nil
	}
	return p.deliver(engine.ResourceBatch{NewIDs: p.newIDs[start:len(p.newIDs):len(p.newIDs)], Added: b.added})
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
//
// The resources are laid out in *scratch when given (grown as needed), for
// a caller done with them before the next call: a bulk write's announcement
// packs what it needs of them at once (packAdded), and a new
// slice for each batch was 200 MB of allocations in a first import of 1M
// resources.
func newResources(rows []resourceRow, firstSeen []time.Time, newIDs []tenantIDs, scratch *[]engine.Resource) (order []string, byTenant map[string][]engine.Resource) {
	index := make(map[string]int, len(newIDs)) // tenant → its place in newIDs
	rest := make([][]string, len(newIDs))      // each tenant's new ids not met yet
	byTenant = make(map[string][]engine.Resource, len(newIDs))
	n := 0
	for _, t := range newIDs {
		n += len(t.ids)
	}
	var all []engine.Resource
	if scratch != nil {
		clear(*scratch) // the last call's resources, to the collector
		*scratch = slices.Grow((*scratch)[:0], n)[:n]
		all = *scratch
	} else {
		all = make([]engine.Resource, n)
	}
	for j, t := range newIDs {
		index[t.tenantID], rest[j] = j, t.ids
		byTenant[t.tenantID], all = all[:0:len(t.ids)], all[len(t.ids):]
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

// writeBulk streams resources of one tenant through a pipeline; see
// resourcePipeline for pack and deliver.
func (s *Store) writeBulk(ctx context.Context, tenantID string, resources iter.Seq2[engine.Resource, error],
	pack bool, deliver func(engine.ResourceBatch) error) (written int64, newIDs []string, err error) {
	// No deadline on the whole write (it lasts as long as its input); each
	// query of a stage has the store's write timeout.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	p := s.newResourcePipeline(ctx, pack, deliver)
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
			if err = p.send(&resourceBatch{seq: seq, rows: rows, size: bytes}); err != nil {
				break
			}
			seq, bytes, rows = seq+1, 0, p.rowsBuffer()
		}
	}
	// What was read before an error is written all the same: observations
	// are independent, and the new ids among them are reported.
	if len(rows) > 0 && !errors.Is(err, errPipelineStopped) {
		if serr := p.send(&resourceBatch{seq: seq, rows: rows, size: bytes}); serr != nil && err == nil {
			err = serr
		}
	}
	perr := p.close()
	if perr != nil && (err == nil || errors.Is(err, errPipelineStopped)) {
		err = perr
	}
	if p.written >= qIndexBuildAfter {
		// The q index of what it wrote, on the server (resource_tokens.go).
		s.startQIndexBuild(ctx, tenantID, false)
	}
	return p.written, p.newIDs, err
}

// size estimates the bytes the row takes in a batch.
func (row *resourceRow) size() int {
	r := &row.r
	n := 64 + len(r.TenantID) + len(r.ID) + len(r.Provider) + len(r.Account) + len(r.Region) + len(r.Type) +
		len(r.NativeID) + len(r.Name) + len(r.Attributes)
	for _, t := range r.Tags {
		n += 16 + len(t.Key) + len(t.Value)
	}
	return n
}
