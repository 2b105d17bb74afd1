package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fourd-dev/fourd/engine"
)

// An event that no live endpoint of its tenant subscribes to when it is
// committed is stored already fanned out (dispatched_at = its creation,
// fanout_count 0): its fan-out is done at commit, to nobody. A first
// import of a million resources into a tenant without webhooks then
// leaves the dispatcher nothing to claim, lock and update a million times
// over, and the rows skip the index of undispatched events. An event that
// some endpoint wants is fanned out by the dispatcher as before, to the
// endpoints subscribed when it runs.

// subscriptions holds, for the tenants loaded, their live endpoints'
// subscriptions; a tenant without live endpoints has an empty list.
type subscriptions map[string][]engine.WebhookEndpoint

// loadSubscriptions reads what the live endpoints of the tenants subscribe to.
func loadSubscriptions(ctx context.Context, db querier, tenantIDs []string) (subscriptions, error) {
	subs := subscriptions{}
	if len(tenantIDs) == 0 {
		return subs, nil
	}
	for _, t := range tenantIDs {
		subs[t] = []engine.WebhookEndpoint{}
	}
	rows, err := db.Query(ctx, `SELECT tenant_id, event_types FROM webhook_endpoints
		WHERE tenant_id = ANY($1) AND enabled AND deleted_at IS NULL`, tenantIDs)
	if err != nil {
		return nil, err
	}
	eps, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (engine.WebhookEndpoint, error) {
		var e engine.WebhookEndpoint
		err := r.Scan(&e.TenantID, &e.EventTypes)
		return e, err
	})
	if err != nil {
		return nil, err
	}
	for _, e := range eps {
		subs[e.TenantID] = append(subs[e.TenantID], e)
	}
	return subs, nil
}

// dispatchedAt is what an event's dispatched_at starts as: nil when an
// endpoint wants it (or its tenant was not loaded), else its creation.
func (s subscriptions) dispatchedAt(e *engine.Event) *time.Time {
	eps, ok := s[e.TenantID]
	if !ok {
		return nil
	}
	for _, ep := range eps {
		if ep.Subscribed(e.Type) {
			return nil
		}
	}
	return &e.CreatedAt
}
