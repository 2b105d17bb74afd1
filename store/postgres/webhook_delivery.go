package postgres

import (
	"context"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fourd-dev/fourd/engine"
)

// ListEvents returns up to q.Limit events of a tenant, newest first,
// strictly before q.BeforeID, of type q.Type or all.
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
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (engine.Event, error) { return scanEvent(r) })
}

// GetEvent returns one event of a tenant.
func (s *Store) GetEvent(ctx context.Context, tenantID, id string) (_ engine.Event, err error) {
	defer wrap(&err, "GetEvent(%s)", id)
	if !lookupKey(id) {
		return engine.Event{}, engine.ErrNotFound("event", id)
	}
	e, err := scanEvent(s.pool.QueryRow(ctx, `SELECT id, tenant_id, type, created_at, data FROM events
		WHERE tenant_id = $1 AND id = $2`, tenantID, id))
	return e, notFound(err, "event", id)
}

func scanEvent(row pgx.Row) (engine.Event, error) {
	var e engine.Event
	var data []byte
	err := row.Scan(&e.ID, &e.TenantID, &e.Type, &e.CreatedAt, &data)
	e.CreatedAt, e.Data = utc(e.CreatedAt), data
	return e, err
}

const deliveryColumns = `d.id, d.tenant_id, d.event_id, ev.type, d.endpoint_id, d.origin, d.status, d.attempts,
	d.next_attempt_at, d.last_status_code, d.last_error, d.created_at, d.updated_at, d.delivered_at`

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
			JOIN events ev ON ev.tenant_id = d.tenant_id AND ev.id = d.event_id
			WHERE d.tenant_id = $1 AND d.event_id = $2 AND ($3 = '' OR d.id < $3)
			ORDER BY d.id DESC LIMIT $4`, q.TenantID, q.EventID, q.BeforeID, q.Limit)
	} else {
		rows, err = s.pool.Query(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries d
			JOIN events ev ON ev.tenant_id = d.tenant_id AND ev.id = d.event_id
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

// newDeliveryRow is a delivery about to be inserted.
type newDeliveryRow struct {
	id, tenantID, eventID, endpointID, origin string
}

// insertDeliveries inserts pending deliveries due at now in one statement
// (fan-out duplicates are skipped) and returns the ids inserted.
func insertDeliveries(ctx context.Context, db querier, rows []newDeliveryRow, now time.Time) ([]string, error) {
	if len(rows) == 0 {
		return nil, nil
	}
	ids := make([]string, len(rows))
	tenants := make([]string, len(rows))
	events := make([]string, len(rows))
	endpoints := make([]string, len(rows))
	origins := make([]string, len(rows))
	for i, r := range rows {
		ids[i], tenants[i], events[i], endpoints[i], origins[i] = r.id, r.tenantID, r.eventID, r.endpointID, r.origin
	}
	out, err := db.Query(ctx, `INSERT INTO webhook_deliveries (id, tenant_id, event_id, endpoint_id, origin, status,
			next_attempt_at, created_at, updated_at)
		SELECT id, tenant_id, event_id, endpoint_id, origin, 'pending', $6, $6, $6
		FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS r(id, tenant_id, event_id, endpoint_id, origin)
		ON CONFLICT DO NOTHING RETURNING id`, ids, tenants, events, endpoints, origins, now)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(out, pgx.RowTo[string])
}

// getDeliveries reads deliveries by id, newest first, without attempts
// (new deliveries have none).
func getDeliveries(ctx context.Context, db querier, tenantID string, ids []string) ([]engine.Delivery, error) {
	rows, err := db.Query(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries d
		JOIN events ev ON ev.tenant_id = d.tenant_id AND ev.id = d.event_id
		WHERE d.tenant_id = $1 AND d.id = ANY($2) ORDER BY d.id DESC`, tenantID, ids)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (engine.Delivery, error) { return scanDelivery(r) })
}
