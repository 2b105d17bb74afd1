package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fourd-dev/fourd/engine"
)

// AppendDirectedEvent stores an event already marked fanned out, with one
// delivery to the endpoint, in one transaction (a test event).
func (s *Store) AppendDirectedEvent(ctx context.Context, ev engine.Event, endpointID string) (_ engine.Delivery, err error) {
	defer wrap(&err, "AppendDirectedEvent(%s)", ev.ID)
	var out engine.Delivery
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := liveEndpoint(ctx, tx, ev.TenantID, endpointID); err != nil {
			return err
		}
		if err := appendEvents(ctx, tx, []engine.Event{ev}); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE events SET dispatched_at = $2, fanout_count = 1 WHERE tenant_id = $3 AND id = $1`, ev.ID, ev.CreatedAt, ev.TenantID); err != nil {
			return err
		}
		ids, err := insertDeliveries(ctx, tx, []newDeliveryRow{{id: engine.NewID(engine.PrefixDelivery, ev.CreatedAt),
			tenantID: ev.TenantID, eventID: ev.ID, endpointID: endpointID, origin: "test"}}, ev.CreatedAt)
		if err != nil {
			return err
		}
		ds, err := getDeliveries(ctx, tx, ev.TenantID, ids)
		if err != nil || len(ds) != 1 {
			return errOr(err, "the test delivery was not stored")
		}
		out = ds[0]
		return nil
	})
	return out, err
}

// liveEndpoint checks that an endpoint exists, is not deleted and is
// enabled (conflict otherwise). It locks the row against a concurrent
// delete.
func liveEndpoint(ctx context.Context, tx pgx.Tx, tenantID, id string) error {
	var enabled bool
	err := tx.QueryRow(ctx, `SELECT enabled FROM webhook_endpoints WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL
		FOR SHARE`, tenantID, id).Scan(&enabled)
	if err != nil {
		return notFound(err, "webhook endpoint", id)
	}
	if !enabled {
		return engine.Errorf(engine.CodeConflict, "webhook endpoint %s is disabled; enable it first", id)
	}
	return nil
}

// RedeliverEvent creates a delivery of the event to the endpoint, or to
// every enabled endpoint subscribed to the event's type.
func (s *Store) RedeliverEvent(ctx context.Context, tenantID, eventID, endpointID string, at time.Time) (_ []engine.Delivery, err error) {
	defer wrap(&err, "RedeliverEvent(%s)", eventID)
	if !lookupKey(eventID) {
		return nil, engine.ErrNotFound("event", eventID)
	}
	var out []engine.Delivery
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		typ, batchID, err := eventType(ctx, tx, tenantID, eventID)
		if err != nil {
			return err
		}
		var targets []string
		if endpointID != "" {
			if err := liveEndpoint(ctx, tx, tenantID, endpointID); err != nil {
				return err
			}
			targets = []string{endpointID}
		} else {
			rows, err := tx.Query(ctx, `SELECT id FROM webhook_endpoints WHERE tenant_id = $1 AND enabled
				AND deleted_at IS NULL AND ($2 = ANY(event_types) OR '*' = ANY(event_types)) ORDER BY id`, tenantID, typ)
			if err != nil {
				return err
			}
			if targets, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
				return err
			}
		}
		rows := make([]newDeliveryRow, len(targets))
		dids := newDeliveryIDs(len(targets), at)
		for i, id := range targets {
			rows[i] = newDeliveryRow{id: dids[i], tenantID: tenantID, eventID: eventID, batchID: batchID,
				endpointID: id, origin: "redeliver"}
		}
		ids, err := insertDeliveries(ctx, tx, rows, at)
		if err != nil || len(ids) == 0 {
			return err
		}
		out, err = getDeliveries(ctx, tx, tenantID, ids)
		return err
	})
	return out, err
}

// RecoverFailedDeliveries creates a new delivery for each failed delivery
// of the endpoint created at or after since that has no later delivery of
// the same event to the endpoint; running it twice recovers nothing more.
func (s *Store) RecoverFailedDeliveries(ctx context.Context, tenantID, endpointID string, since, at time.Time) (n int, err error) {
	defer wrap(&err, "RecoverFailedDeliveries(%s)", endpointID)
	if !lookupKey(endpointID) {
		return 0, engine.ErrNotFound("webhook endpoint", endpointID)
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := liveEndpoint(ctx, tx, tenantID, endpointID); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT DISTINCT d.event_id, coalesce(d.batch_id, '') FROM webhook_deliveries d
			WHERE d.tenant_id = $1 AND d.endpoint_id = $2 AND d.status = 'failed' AND d.created_at >= $3
			AND NOT EXISTS (SELECT 1 FROM webhook_deliveries l WHERE l.tenant_id = d.tenant_id
				AND l.endpoint_id = d.endpoint_id AND l.event_id = d.event_id AND l.created_at > d.created_at)
			ORDER BY d.event_id`, tenantID, endpointID, since)
		if err != nil {
			return err
		}
		events, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) ([2]string, error) {
			var ev [2]string
			err := r.Scan(&ev[0], &ev[1])
			return ev, err
		})
		if err != nil {
			return err
		}
		batch := make([]newDeliveryRow, len(events))
		dids := newDeliveryIDs(len(events), at)
		for i, ev := range events {
			batch[i] = newDeliveryRow{id: dids[i], tenantID: tenantID, eventID: ev[0], batchID: ev[1],
				endpointID: endpointID, origin: "recover"}
		}
		ids, err := insertDeliveries(ctx, tx, batch, at)
		n = len(ids)
		return err
	})
	return n, err
}

// errOr returns err, or an internal error saying what went wrong.
func errOr(err error, what string) error {
	if err != nil {
		return err
	}
	return engine.Errorf(engine.CodeInternal, "%s", what)
}

// eventType returns the type of an event of the tenant and the batch that
// holds it ("" for a row); not_found when the tenant has no such event.
func eventType(ctx context.Context, db querier, tenantID, eventID string) (typ, batchID string, err error) {
	err = db.QueryRow(ctx, `SELECT type FROM events WHERE tenant_id = $1 AND id = $2`, tenantID, eventID).Scan(&typ)
	if err != pgx.ErrNoRows {
		return typ, "", err
	}
	b, _, ok, err := findBatch(ctx, db, tenantID, eventID)
	if err != nil {
		return "", "", err
	}
	if !ok {
		return "", "", engine.ErrNotFound("event", eventID)
	}
	return b.typ, b.id, nil
}
