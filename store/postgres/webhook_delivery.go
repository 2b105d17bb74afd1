package postgres

import (
	"context"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fourd-dev/fourd/engine"
)

// ListEvents returns up to q.Limit events of a tenant, newest first,
// strictly before q.BeforeID, of type q.Type or all: the rows of events
// and the events of batches merged in id order (batches never overlap, so
// the q.Limit newest batches before the cursor hold enough of them; only
// the data of the events listed is read from the batches).
func (s *Store) ListEvents(ctx context.Context, q engine.EventQuery) (_ []engine.Event, err error) {
	defer wrap(&err, "ListEvents")
	if err := checkLimit(q.Limit); err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `SELECT id, tenant_id, type, created_at, data FROM events
		WHERE tenant_id = $1 AND ($2 = '' OR type = $2) AND ($3 = '' OR id < $3)
		ORDER BY id DESC LIMIT $4`, q.TenantID, q.Type, q.BeforeID, q.Limit)
	if err != nil {
		return nil, err
	}
	singles, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (engine.Event, error) { return scanEvent(r) })
	if err != nil {
		return nil, err
	}
	rows, err = s.pool.Query(ctx, `SELECT id, last_id, type, created_at, count FROM event_batches
		WHERE tenant_id = $1 AND ($2 = '' OR type = $2) AND ($3 = '' OR id < $3)
		ORDER BY id DESC LIMIT $4`, q.TenantID, q.Type, q.BeforeID, q.Limit)
	if err != nil {
		return nil, err
	}
	metas, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (batchMeta, error) {
		var b batchMeta
		err := r.Scan(&b.id, &b.lastID, &b.typ, &b.createdAt, &b.count)
		b.createdAt = utc(b.createdAt)
		return b, err
	})
	if err != nil || len(metas) == 0 {
		return singles, err
	}
	// The batches' events before the cursor, newest first, as many as a
	// page can take.
	type ref struct{ batch, offset int }
	var batched []engine.Event
	var refs []ref
	for bi, b := range metas {
		for i := b.count - 1; i >= 0 && len(batched) < q.Limit; i-- {
			e := b.eventAt(q.TenantID, i)
			if q.BeforeID != "" && e.ID >= q.BeforeID {
				continue
			}
			batched = append(batched, e)
			refs = append(refs, ref{bi, i})
		}
	}
	out := make([]engine.Event, 0, q.Limit)
	var used []ref // of out's events, {-1, 0} for a row
	for len(out) < q.Limit && (len(singles) > 0 || len(batched) > 0) {
		if len(batched) == 0 || len(singles) > 0 && singles[0].ID > batched[0].ID {
			out, singles, used = append(out, singles[0]), singles[1:], append(used, ref{-1, 0})
			continue
		}
		used = append(used, refs[0])
		out, batched, refs = append(out, batched[0]), batched[1:], refs[1:]
	}
	spans := map[int]*batchSpan{}
	var list []batchSpan
	for _, r := range used {
		if r.batch < 0 {
			continue
		}
		sp := spans[r.batch]
		if sp == nil {
			sp = &batchSpan{id: metas[r.batch].id, lo: r.offset, hi: r.offset}
			spans[r.batch] = sp
		}
		sp.lo, sp.hi = min(sp.lo, r.offset), max(sp.hi, r.offset)
	}
	if len(spans) == 0 {
		return out, nil
	}
	for _, sp := range spans {
		list = append(list, *sp)
	}
	data, err := batchData(ctx, s.pool, q.TenantID, list)
	if err != nil {
		return nil, err
	}
	for i, r := range used {
		if r.batch >= 0 {
			out[i].Data = data[metas[r.batch].id][r.offset-spans[r.batch].lo]
		}
	}
	return out, nil
}

// GetEvent returns one event of a tenant: its row, or its place in the
// batch that holds it.
func (s *Store) GetEvent(ctx context.Context, tenantID, id string) (_ engine.Event, err error) {
	defer wrap(&err, "GetEvent(%s)", id)
	if !lookupKey(id) {
		return engine.Event{}, engine.ErrNotFound("event", id)
	}
	e, err := scanEvent(s.pool.QueryRow(ctx, `SELECT id, tenant_id, type, created_at, data FROM events
		WHERE tenant_id = $1 AND id = $2`, tenantID, id))
	if err != pgx.ErrNoRows {
		return e, err
	}
	b, i, ok, err := findBatch(ctx, s.pool, tenantID, id)
	if err != nil {
		return engine.Event{}, err
	}
	if !ok {
		return engine.Event{}, engine.ErrNotFound("event", id)
	}
	data, err := batchData(ctx, s.pool, tenantID, []batchSpan{{id: b.id, lo: i, hi: i}})
	if err != nil {
		return engine.Event{}, err
	}
	e = b.eventAt(tenantID, i)
	e.Data = data[b.id][0]
	return e, nil
}

func scanEvent(row pgx.Row) (engine.Event, error) {
	var e engine.Event
	var data []byte
	err := row.Scan(&e.ID, &e.TenantID, &e.Type, &e.CreatedAt, &data)
	e.CreatedAt, e.Data = utc(e.CreatedAt), data
	return e, err
}

const deliveryColumns = `d.id, d.tenant_id, d.event_id, coalesce(ev.type, eb.type, ''), d.endpoint_id, d.origin, d.status, d.attempts,
	d.next_attempt_at, d.last_status_code, d.last_error, d.created_at, d.updated_at, d.delivered_at`

// deliveryEvents joins a delivery (d) to its event: a row (ev) or a batch
// (eb).
const deliveryEvents = `LEFT JOIN events ev ON d.batch_id IS NULL AND ev.tenant_id = d.tenant_id AND ev.id = d.event_id
	LEFT JOIN event_batches eb ON eb.tenant_id = d.tenant_id AND eb.id = d.batch_id`

func scanDelivery(row pgx.Row) (engine.Delivery, error) {
	var d engine.Delivery
	var status string
	err := row.Scan(&d.ID, &d.TenantID, &d.EventID, &d.EventType, &d.EndpointID, &d.Origin, &status, &d.Attempts,
		&d.NextAttemptAt, &d.LastStatusCode, &d.LastError, &d.CreatedAt, &d.UpdatedAt, &d.DeliveredAt)
	d.Status = engine.DeliveryStatus(status)
	if d.Status != engine.DeliveryPending {
		// While delivering, next_attempt_at is the lease's end, not an
		// attempt the caller should expect.
		d.NextAttemptAt = nil
	}
	d.NextAttemptAt, d.DeliveredAt = utcp(d.NextAttemptAt), utcp(d.DeliveredAt)
	d.CreatedAt, d.UpdatedAt = utc(d.CreatedAt), utc(d.UpdatedAt)
	d.AttemptLog = []engine.DeliveryAttempt{}
	return d, err
}

// ListDeliveries returns up to q.Limit deliveries of an event or an
// endpoint, newest first, strictly before q.BeforeID, with their attempt
// logs.
func (s *Store) ListDeliveries(ctx context.Context, q engine.DeliveryQuery) (_ []engine.Delivery, err error) {
	defer wrap(&err, "ListDeliveries")
	if err := checkLimit(q.Limit); err != nil {
		return nil, err
	}
	var rows pgx.Rows
	if q.EventID != "" {
		rows, err = s.pool.Query(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries d
			`+deliveryEvents+`
			WHERE d.tenant_id = $1 AND d.event_id = $2 AND ($3 = '' OR d.id < $3)
			ORDER BY d.id DESC LIMIT $4`, q.TenantID, q.EventID, q.BeforeID, q.Limit)
	} else {
		rows, err = s.pool.Query(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries d
			`+deliveryEvents+`
			WHERE d.tenant_id = $1 AND d.endpoint_id = $2 AND ($3 = '' OR d.id < $3)
			ORDER BY d.id DESC LIMIT $4`, q.TenantID, q.EndpointID, q.BeforeID, q.Limit)
	}
	if err != nil {
		return nil, err
	}
	ds, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (engine.Delivery, error) { return scanDelivery(r) })
	if err != nil || len(ds) == 0 {
		return ds, err
	}
	return ds, s.fillAttempts(ctx, ds)
}

// fillAttempts loads the attempt logs of deliveries in one query.
func (s *Store) fillAttempts(ctx context.Context, ds []engine.Delivery) error {
	ids := make([]string, len(ds))
	byID := make(map[string]*engine.Delivery, len(ds))
	for i := range ds {
		ids[i] = ds[i].ID
		byID[ds[i].ID] = &ds[i]
	}
	rows, err := s.pool.Query(ctx, `SELECT delivery_id, attempt, started_at, outcome, status_code, latency_us,
		error, next_attempt_at FROM webhook_delivery_attempts WHERE delivery_id = ANY($1)
		ORDER BY delivery_id, attempt`, ids)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			id string
			a  engine.DeliveryAttempt
			us int64
		)
		if err := rows.Scan(&id, &a.Attempt, &a.StartedAt, &a.Outcome, &a.StatusCode, &us, &a.Error, &a.NextAttemptAt); err != nil {
			return err
		}
		a.StartedAt, a.NextAttemptAt = utc(a.StartedAt), utcp(a.NextAttemptAt)
		a.LatencyMS = float64(us) / 1000
		d := byID[id]
		d.AttemptLog = append(d.AttemptLog, a)
	}
	return rows.Err()
}

// newDeliveryIDs returns n delivery ids made at now, in increasing order,
// so that deliveries created together list in the order they were made.
func newDeliveryIDs(n int, now time.Time) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = engine.NewID(engine.PrefixDelivery, now)
	}
	slices.Sort(ids)
	return ids
}

// newDeliveryRow is a delivery about to be inserted; batchID names the
// batch that holds its event, "" for an event stored as a row.
type newDeliveryRow struct {
	id, tenantID, eventID, batchID, endpointID, origin string
}

// insertDeliveries inserts pending deliveries due at now in one statement
// (fan-out duplicates are skipped) and returns the ids inserted. It stands
// for a foreign key to the events (migration 00080): validation_failed,
// and nothing inserted, when an event does not exist in the delivery's
// tenant (as a row, or in the batch named).
func insertDeliveries(ctx context.Context, db querier, rows []newDeliveryRow, now time.Time) ([]string, error) {
	if len(rows) == 0 {
		return nil, nil
	}
	ids := make([]string, len(rows))
	tenants := make([]string, len(rows))
	events := make([]string, len(rows))
	batches := make([]string, len(rows))
	endpoints := make([]string, len(rows))
	origins := make([]string, len(rows))
	for i, r := range rows {
		ids[i], tenants[i], events[i], batches[i], endpoints[i], origins[i] = r.id, r.tenantID, r.eventID, r.batchID, r.endpointID, r.origin
	}
	out, err := db.Query(ctx, `WITH r AS (
			SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
				AS r(id, tenant_id, event_id, batch_id, endpoint_id, origin)),
		missing AS (
			SELECT r.event_id FROM r WHERE NOT CASE WHEN r.batch_id = ''
				THEN EXISTS (SELECT 1 FROM events e WHERE e.tenant_id = r.tenant_id AND e.id = r.event_id)
				ELSE EXISTS (SELECT 1 FROM event_batches b WHERE b.tenant_id = r.tenant_id AND b.id = r.batch_id
					AND r.event_id BETWEEN b.id AND b.last_id) END),
		ins AS (
			INSERT INTO webhook_deliveries (id, tenant_id, event_id, batch_id, endpoint_id, origin, status,
				next_attempt_at, created_at, updated_at)
			SELECT id, tenant_id, event_id, nullif(batch_id, ''), endpoint_id, origin, 'pending', $7, $7, $7
			FROM r WHERE NOT EXISTS (SELECT 1 FROM missing)
			ON CONFLICT DO NOTHING RETURNING id)
		SELECT id, false FROM ins UNION ALL SELECT event_id, true FROM missing`,
		ids, tenants, events, batches, endpoints, origins, now)
	if err != nil {
		return nil, err
	}
	type result struct {
		id      string
		missing bool
	}
	res, err := pgx.CollectRows(out, func(r pgx.CollectableRow) (result, error) {
		var x result
		err := r.Scan(&x.id, &x.missing)
		return x, err
	})
	if err != nil {
		return nil, err
	}
	inserted := make([]string, 0, len(res))
	for _, x := range res {
		if x.missing {
			return nil, engine.Errorf(engine.CodeValidationFailed, "event %s does not exist", x.id)
		}
		inserted = append(inserted, x.id)
	}
	return inserted, nil
}

// getDeliveries reads deliveries by id, newest first, without attempts
// (new deliveries have none).
func getDeliveries(ctx context.Context, db querier, tenantID string, ids []string) ([]engine.Delivery, error) {
	rows, err := db.Query(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries d
		`+deliveryEvents+`
		WHERE d.tenant_id = $1 AND d.id = ANY($2) ORDER BY d.id DESC`, tenantID, ids)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (engine.Delivery, error) { return scanDelivery(r) })
}
