package postgres

import (
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/jsonvalid"
)

// Batched outbox rows (migration 00080): events appended together in
// large numbers are stored as one event_batches row per run of up to
// batchMax events of one tenant and type, made at one time, whose ids
// follow one another (engine.IDRun). Event i of a batch has id = the
// batch's id + i and data = element i of its data array. Small appends,
// and events that follow no other in a large one, keep a row each in
// events. Every read (lists, lookups by id, fan-out, deliveries) sees both
// tables as one outbox.

// batchMax bounds the events of one batch.
const batchMax = 1000

// u128 is an event id's 128 bits, for id arithmetic.
type u128 struct{ hi, lo uint64 }

func parseEventID(id string) (u128, bool) {
	b, ok := engine.ParseID(engine.PrefixEvent, id)
	return u128{binary.BigEndian.Uint64(b[:8]), binary.BigEndian.Uint64(b[8:])}, ok
}

func (u u128) String() string {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], u.hi)
	binary.BigEndian.PutUint64(b[8:], u.lo)
	return engine.FormatID(engine.PrefixEvent, b)
}

func (u u128) add(n uint64) u128 {
	lo := u.lo + n
	hi := u.hi
	if lo < u.lo {
		hi++
	}
	return u128{hi, lo}
}

// sub is u - n, or 0 below 0.
func (u u128) sub(n uint64) u128 {
	if u.hi == 0 && u.lo < n {
		return u128{}
	}
	lo := u.lo - n
	hi := u.hi
	if lo > u.lo {
		hi--
	}
	return u128{hi, lo}
}

// offset returns v - u when v >= u and the difference is below batchMax.
func (u u128) offset(v u128) (int, bool) {
	switch {
	case v.hi == u.hi && v.lo >= u.lo && v.lo-u.lo < batchMax:
		return int(v.lo - u.lo), true
	case v.hi == u.hi+1 && v.lo < u.lo && v.lo-u.lo < batchMax: // across a carry
		return int(v.lo - u.lo), true
	}
	return 0, false
}

// batchRow is a batch being built or read: events of one tenant and type,
// made at one time, with consecutive ids.
type batchRow struct {
	tenantID, typ string
	first, next   u128 // next: the id that would extend it
	createdAt     time.Time
	events        []engine.Event
	row           bool // its one event's id is no event id: stored as a row
}

func (b *batchRow) firstID() string { return b.events[0].ID }
func (b *batchRow) lastID() string  { return b.events[len(b.events)-1].ID }

// dataSize is the length of the batch's data (appendData).
func (b *batchRow) dataSize() int {
	n := 1 + len(b.events) // the brackets and commas
	for _, e := range b.events {
		if len(e.Data) == 0 {
			n += len("{}")
		} else {
			n += len(e.Data)
		}
	}
	return n
}

// appendData appends the batch's data: the JSON array of its events' data.
func (b *batchRow) appendData(buf []byte) []byte {
	buf = append(buf, '[')
	for i, e := range b.events {
		if i > 0 {
			buf = append(buf, ',')
		}
		if len(e.Data) == 0 {
			buf = append(buf, "{}"...)
		} else {
			buf = append(buf, e.Data...)
		}
	}
	return append(buf, ']')
}

// batchable reports whether an event's data can go into a batch's json
// array: one valid JSON value (so that element i is event i), which jsonb
// accepts too (so that reading the batch, which turns its events into
// jsonb, cannot fail). jsonb refuses what json accepts in three ways: the
// escape \u0000, lone surrogates, and numbers beyond numeric's range; data
// with any surrogate escape, \u0000, an exponent of more than 4 digits or
// a run of more than 1,000 digits (jsonvalid.Strict) goes to a row, where
// jsonb decides as before. The engine's data never has them (encoding/json
// writes no surrogate escapes, float64 exponents have 3 digits).
func batchable(data []byte) bool {
	return len(data) == 0 || jsonvalid.Strict(data) // empty is stored as {}
}

// grouper sorts events into batches: an event extends the open batch of
// its tenant and type when its id is the next one, it was made at the
// same time and the batch is not full; otherwise that batch is closed
// (ready) and the event opens the next.
type grouper struct {
	open  map[[2]string]*batchRow
	ready []*batchRow
}

func newGrouper() *grouper { return &grouper{open: map[[2]string]*batchRow{}} }

// add adds the next event; more is how many events follow it in the
// append, when known (0 otherwise): a batch it opens is made room for as
// many as may join it, where growing it from a few cost a first import of
// 1M resources 170 MB of copies.
func (g *grouper) add(e engine.Event, more int) {
	key := [2]string{e.TenantID, e.Type}
	id, ok := parseEventID(e.ID)
	ok = ok && (e.Strict || batchable(e.Data))
	b := g.open[key]
	if b != nil && ok && id == b.next && e.CreatedAt.Equal(b.createdAt) && len(b.events) < batchMax {
		b.events = append(b.events, e)
		b.next = id.add(1)
		return
	}
	if b != nil {
		g.ready = append(g.ready, b)
		delete(g.open, key)
	}
	nb := &batchRow{tenantID: e.TenantID, typ: e.Type, first: id, next: id.add(1), createdAt: e.CreatedAt,
		events: make([]engine.Event, 1, max(8, min(batchMax, 1+more)))}
	nb.events[0] = e
	if !ok { // no event id, or data for a row: a row of its own
		nb.row = true
		g.ready = append(g.ready, nb)
		return
	}
	g.open[key] = nb
}

// close closes every open batch, in id order.
func (g *grouper) close() {
	start := len(g.ready)
	for k, b := range g.open {
		g.ready = append(g.ready, b)
		delete(g.open, k)
	}
	slices.SortFunc(g.ready[start:], func(a, b *batchRow) int { return cmp.Compare(a.firstID(), b.firstID()) })
}

// batchColumns are the columns batchSource fills.
var batchColumns = []string{"tenant_id", "id", "last_id", "type", "created_at", "count", "data", "dispatched_at"}

// batchSource feeds batches to COPY.
type batchSource struct {
	next func() (*batchRow, bool)
	subs subscriptions
	cur  *batchRow
	buf  []byte
	row  []any
	err  error
}

func (s *batchSource) Next() bool {
	var ok bool
	s.cur, ok = s.next()
	return ok && s.err == nil
}

func (s *batchSource) Values() ([]any, error) {
	b := s.cur
	s.buf = b.appendData(slices.Grow(s.buf[:0], b.dataSize()))
	var dispatched any
	if t := s.subs.dispatchedAt(&b.events[0]); t != nil {
		dispatched = *t
	}
	s.row = append(s.row[:0], b.tenantID, b.firstID(), b.lastID(), b.typ, b.createdAt, int32(len(b.events)),
		json.RawMessage(s.buf), dispatched)
	return s.row, nil
}

func (s *batchSource) Err() error { return s.err }

// copyBatches stores batches with one COPY in the transaction.
func copyBatches(ctx context.Context, tx pgx.Tx, src *batchSource) error {
	_, err := tx.CopyFrom(ctx, pgx.Identifier{"event_batches"}, batchColumns, src)
	if err == nil {
		err = src.err
	}
	return err
}

// appendBatched stores a large append in the transaction: batches of the
// runs of two or more events, a row in events for each other event. Events
// stored already (a retried append), in either table, are skipped: while
// the tenants' batch writers are held off (lockBatchWriters), the stored
// events within the new batches' id ranges are read and the batches split
// around them.
func appendBatched(ctx context.Context, tx pgx.Tx, events []engine.Event) error {
	tenants := eventTenants(events)
	if err := lockTenants(ctx, tx, tenants); err != nil {
		return err
	}
	if err := lockBatchWriters(ctx, tx, tenants); err != nil {
		return err
	}
	subs, err := loadSubscriptions(ctx, tx, tenants)
	if err != nil {
		return err
	}
	g := groupEvents(events)
	if overlapping(g.ready) {
		// The append holds some event twice: once each.
		seen := make(map[string]bool, len(events))
		unique := make([]engine.Event, 0, len(events))
		for _, e := range events {
			if !seen[e.TenantID+" "+e.ID] {
				seen[e.TenantID+" "+e.ID] = true
				unique = append(unique, e)
			}
		}
		g = groupEvents(unique)
	}
	var batches []*batchRow
	var singles []engine.Event
	for _, b := range g.ready {
		if len(b.events) == 1 {
			singles = append(singles, b.events[0])
		} else {
			batches = append(batches, b)
		}
	}
	if batches, err = dropStored(ctx, tx, batches); err != nil {
		return err
	}
	src := &batchSource{subs: subs}
	src.next = func() (*batchRow, bool) {
		if len(batches) == 0 {
			return nil, false
		}
		b := batches[0]
		batches = batches[1:]
		return b, true
	}
	if err := copyBatches(ctx, tx, src); err != nil {
		return err
	}
	return insertEventRows(ctx, tx, singles, subs)
}

func groupEvents(events []engine.Event) *grouper {
	g := newGrouper()
	for i, e := range events {
		g.add(e, len(events)-1-i)
	}
	g.close()
	return g
}

// overlapping reports whether two of the batches share an event id.
func overlapping(batches []*batchRow) bool {
	sorted := slices.Clone(batches)
	slices.SortFunc(sorted, func(a, b *batchRow) int {
		return cmp.Or(cmp.Compare(a.tenantID, b.tenantID), cmp.Compare(a.firstID(), b.firstID()))
	})
	for i := 1; i < len(sorted); i++ {
		if sorted[i].tenantID == sorted[i-1].tenantID && sorted[i].firstID() <= sorted[i-1].lastID() {
			return true
		}
	}
	return false
}

// lockBatchWriters serializes, per tenant, the appends that check which
// events are stored before writing batches, until commit.
func lockBatchWriters(ctx context.Context, tx pgx.Tx, tenantIDs []string) error {
	ids := slices.Sorted(slices.Values(tenantIDs)) // one order: no deadlock
	_, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('fourd.event_batches ' || t, 0))
		FROM unnest($1::text[]) WITH ORDINALITY AS u(t, n) ORDER BY n`, ids)
	return err
}

// dropStored removes from batches the events already stored, in batches
// or rows, splitting a batch where it loses events in its middle.
func dropStored(ctx context.Context, tx pgx.Tx, batches []*batchRow) ([]*batchRow, error) {
	if len(batches) == 0 {
		return nil, nil
	}
	tenants := make([]string, len(batches))
	from := make([]string, len(batches)) // batches starting from here may overlap
	lo := make([]string, len(batches))
	hi := make([]string, len(batches))
	for i, b := range batches {
		tenants[i], from[i], lo[i], hi[i] = b.tenantID, b.first.sub(batchMax-1).String(), b.firstID(), b.lastID()
	}
	rows, err := tx.Query(ctx, `SELECT r.n, greatest(b.id, r.lo), least(b.last_id, r.hi)
		FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS r(t, f, lo, hi, n)
		JOIN event_batches b ON b.tenant_id = r.t AND b.id BETWEEN r.f AND r.hi AND b.last_id >= r.lo
		UNION ALL
		SELECT r.n, e.id, e.id
		FROM unnest($1::text[], $3::text[], $4::text[]) WITH ORDINALITY AS r(t, lo, hi, n)
		JOIN events e ON e.tenant_id = r.t AND e.id BETWEEN r.lo AND r.hi`, tenants, from, lo, hi)
	if err != nil {
		return nil, err
	}
	type span struct {
		n        int
		from, to string
	}
	stored, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (span, error) {
		var s span
		err := r.Scan(&s.n, &s.from, &s.to)
		return s, err
	})
	if err != nil || len(stored) == 0 {
		return batches, err
	}
	gone := map[int][]span{}
	for _, s := range stored {
		gone[s.n-1] = append(gone[s.n-1], s)
	}
	var out []*batchRow
	for i, b := range batches {
		spans, ok := gone[i]
		if !ok {
			out = append(out, b)
			continue
		}
		var cur *batchRow
		for _, e := range b.events {
			if slices.ContainsFunc(spans, func(s span) bool { return e.ID >= s.from && e.ID <= s.to }) {
				cur = nil
				continue
			}
			if cur == nil {
				id, _ := parseEventID(e.ID)
				cur = &batchRow{tenantID: b.tenantID, typ: b.typ, first: id, createdAt: b.createdAt}
				out = append(out, cur)
			}
			cur.events = append(cur.events, e)
		}
	}
	return out, nil
}

// batchSpan asks for the data of events lo..hi (offsets) of a batch.
type batchSpan struct {
	id     string
	lo, hi int
}

// batchData reads the data of the spans' events from the tenant's
// batches: out[span.id][i] is the data of event lo+i. Each batch's array
// is read (and its json parsed) once.
func batchData(ctx context.Context, db querier, tenantID string, spans []batchSpan) (map[string][]json.RawMessage, error) {
	out := map[string][]json.RawMessage{}
	if len(spans) == 0 {
		return out, nil
	}
	ids := make([]string, len(spans))
	los := make([]int32, len(spans))
	his := make([]int32, len(spans))
	for i, s := range spans {
		ids[i], los[i], his[i] = s.id, int32(s.lo), int32(s.hi)
		out[s.id] = make([]json.RawMessage, s.hi-s.lo+1)
	}
	// The data array is stored as text (migration 00090; batchable made
	// sure it is JSON): the events read become jsonb, as stored rows are,
	// so that they read the same.
	rows, err := db.Query(ctx, `SELECT b.id, e.n - 1 - r.lo, e.value::jsonb
		FROM unnest($2::text[], $3::int[], $4::int[]) AS r(id, lo, hi)
		JOIN event_batches b ON b.tenant_id = $1 AND b.id = r.id,
		LATERAL json_array_elements(b.data::json) WITH ORDINALITY AS e(value, n)
		WHERE e.n - 1 BETWEEN r.lo AND r.hi`, tenantID, ids, los, his)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var i int
		var data []byte
		if err := rows.Scan(&id, &i, &data); err != nil {
			return nil, err
		}
		if d := out[id]; i >= 0 && i < len(d) {
			d[i] = data
		}
	}
	return out, rows.Err()
}

// batchMeta is a stored batch without its data.
type batchMeta struct {
	id, lastID, typ string
	createdAt       time.Time
	count           int
}

// findBatch returns the tenant's batch that holds the event id and the
// event's offset in it; ok is false when no batch holds it.
func findBatch(ctx context.Context, db querier, tenantID, id string) (b batchMeta, offset int, ok bool, err error) {
	want, valid := parseEventID(id)
	if !valid {
		return b, 0, false, nil
	}
	err = db.QueryRow(ctx, `SELECT id, last_id, type, created_at, count FROM event_batches
		WHERE tenant_id = $1 AND id <= $2 ORDER BY id DESC LIMIT 1`, tenantID, id).
		Scan(&b.id, &b.lastID, &b.typ, &b.createdAt, &b.count)
	if err == pgx.ErrNoRows {
		return b, 0, false, nil
	}
	if err != nil {
		return b, 0, false, err
	}
	b.createdAt = utc(b.createdAt)
	first, _ := parseEventID(b.id)
	offset, ok = first.offset(want)
	return b, offset, ok && offset < b.count, nil
}

// eventAt is event i of a batch, without its data.
func (b batchMeta) eventAt(tenantID string, i int) engine.Event {
	first, _ := parseEventID(b.id)
	return engine.Event{ID: first.add(uint64(i)).String(), TenantID: tenantID, Type: b.typ, CreatedAt: b.createdAt}
}
