package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fourd-dev/fourd/engine"
)

// FanOutEvents turns up to limit undispatched events (oldest id first)
// into pending deliveries for the enabled endpoints subscribed to them and
// marks them dispatched, in one transaction. Events another dispatcher is
// fanning out are skipped (SKIP LOCKED), not waited for. When fewer than
// limit events are rows, batches follow, whole (the oldest first, at
// least one, up to a batch more than limit events in all): each of a
// batch's events gets a delivery per endpoint subscribed to its type.
func (s *Store) FanOutEvents(ctx context.Context, limit int, now time.Time) (n int, err error) {
	defer wrap(&err, "FanOutEvents")
	if err := checkLimit(limit); err != nil {
		return 0, err
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT id, tenant_id, type FROM events WHERE dispatched_at IS NULL
			ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`, limit)
		if err != nil {
			return err
		}
		type ev struct{ id, tenant, typ string }
		tenants := map[string]bool{}
		events, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (ev, error) {
			var e ev
			err := r.Scan(&e.id, &e.tenant, &e.typ)
			return e, err
		})
		if err != nil {
			return err
		}
		type batch struct {
			batchMeta
			tenant string
		}
		var batches []batch
		if len(events) < limit {
			rows, err := tx.Query(ctx, `SELECT tenant_id, id, last_id, type, count FROM event_batches
				WHERE dispatched_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
				(limit-len(events)+batchMax-1)/batchMax)
			if err != nil {
				return err
			}
			batches, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (batch, error) {
				var b batch
				err := r.Scan(&b.tenant, &b.id, &b.lastID, &b.typ, &b.count)
				return b, err
			})
			if err != nil {
				return err
			}
		}
		if len(events) == 0 && len(batches) == 0 {
			return nil
		}
		var tenantIDs []string
		for _, t := range append(pluck(events, func(e ev) string { return e.tenant }), pluck(batches, func(b batch) string { return b.tenant })...) {
			if !tenants[t] {
				tenants[t] = true
				tenantIDs = append(tenantIDs, t)
			}
		}
		rows, err = tx.Query(ctx, `SELECT id, tenant_id, event_types FROM webhook_endpoints
			WHERE tenant_id = ANY($1) AND enabled AND deleted_at IS NULL ORDER BY id`, tenantIDs)
		if err != nil {
			return err
		}
		endpoints, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (engine.WebhookEndpoint, error) {
			var e engine.WebhookEndpoint
			err := r.Scan(&e.ID, &e.TenantID, &e.EventTypes)
			return e, err
		})
		if err != nil {
			return err
		}
		byTenant := map[string][]engine.WebhookEndpoint{}
		for _, e := range endpoints {
			byTenant[e.TenantID] = append(byTenant[e.TenantID], e)
		}
		var deliveries []newDeliveryRow
		ids := make([]string, len(events))
		evTenants := make([]string, len(events))
		counts := make([]int32, len(events))
		for i, e := range events {
			ids[i], evTenants[i] = e.id, e.tenant
			for _, ep := range byTenant[e.tenant] {
				if ep.Subscribed(e.typ) {
					deliveries = append(deliveries, newDeliveryRow{
						tenantID: e.tenant, eventID: e.id, endpointID: ep.ID, origin: "fanout"})
					counts[i]++
				}
			}
		}
		batchIDs := make([]string, len(batches))
		batchTenants := make([]string, len(batches))
		batchCounts := make([]int32, len(batches))
		n = len(events)
		for i, b := range batches {
			batchIDs[i], batchTenants[i] = b.id, b.tenant
			var subscribed []string
			for _, ep := range byTenant[b.tenant] {
				if ep.Subscribed(b.typ) {
					subscribed = append(subscribed, ep.ID)
				}
			}
			first, _ := parseEventID(b.id)
			for j := range b.count {
				id := first.add(uint64(j)).String()
				for _, ep := range subscribed {
					deliveries = append(deliveries, newDeliveryRow{
						tenantID: b.tenant, eventID: id, batchID: b.id, endpointID: ep, origin: "fanout"})
				}
			}
			batchCounts[i] = int32(b.count * len(subscribed))
			n += b.count
		}
		for i, id := range newDeliveryIDs(len(deliveries), now) {
			deliveries[i].id = id
		}
		if _, err := insertDeliveries(ctx, tx, deliveries, now); err != nil {
			return err
		}
		if len(events) > 0 {
			if _, err := tx.Exec(ctx, `UPDATE events SET dispatched_at = $3, fanout_count = c.n
				FROM unnest($1::text[], $2::int[], $4::text[]) AS c(id, n, tenant_id)
				WHERE events.tenant_id = c.tenant_id AND events.id = c.id`, ids, counts, now, evTenants); err != nil {
				return err
			}
		}
		if len(batches) > 0 {
			_, err = tx.Exec(ctx, `UPDATE event_batches b SET dispatched_at = $3, fanout_count = c.n
				FROM unnest($1::text[], $2::int[], $4::text[]) AS c(id, n, tenant_id)
				WHERE b.tenant_id = c.tenant_id AND b.id = c.id`, batchIDs, batchCounts, now, batchTenants)
		}
		return err
	})
	return n, err
}

// pluck maps xs through f.
func pluck[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}
