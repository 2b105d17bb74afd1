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
// fanning out are skipped (SKIP LOCKED), not waited for.
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
		if err != nil || len(events) == 0 {
			return err
		}
		var tenantIDs []string
		for _, e := range events {
			if !tenants[e.tenant] {
				tenants[e.tenant] = true
				tenantIDs = append(tenantIDs, e.tenant)
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
		for i, id := range newDeliveryIDs(len(deliveries), now) {
			deliveries[i].id = id
		}
		if _, err := insertDeliveries(ctx, tx, deliveries, now); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE events SET dispatched_at = $3, fanout_count = c.n
			FROM unnest($1::text[], $2::int[], $4::text[]) AS c(id, n, tenant_id)
			WHERE events.tenant_id = c.tenant_id AND events.id = c.id`, ids, counts, now, evTenants)
		n = len(events)
		return err
	})
	return n, err
}
