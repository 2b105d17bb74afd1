package webhooks

import (
	"context"
	"slices"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// ListEvents returns a page of the tenant's events, newest first, of type
// typ or all (typ empty). validation_failed for an unknown type.
func (s *Service) ListEvents(ctx context.Context, p engine.Principal, typ string, pr engine.PageRequest) (engine.Page[engine.Event], error) {
	w, err := s.config(p, engine.ScopeWebhooksRead)
	if err != nil {
		return engine.Page[engine.Event]{}, err
	}
	if typ != "" && !slices.Contains(engine.SubscribableEventTypes, typ) && typ != engine.EventWebhookTest {
		return engine.Page[engine.Event]{}, engine.FieldErrorf("type", "unknown event type %s", engine.Quote(typ))
	}
	return engine.IDPage(s.cursors, p, "events|"+engine.Fingerprint(typ), pr, func(e engine.Event) string { return e.ID },
		func(before string, limit int) ([]engine.Event, error) {
			return w.Store.ListEvents(ctx, engine.EventQuery{TenantID: p.TenantID, Type: typ, BeforeID: before, Limit: limit})
		})
}

// GetEvent returns one event of the tenant.
func (s *Service) GetEvent(ctx context.Context, p engine.Principal, id string) (engine.Event, error) {
	w, err := s.config(p, engine.ScopeWebhooksRead)
	if err != nil {
		return engine.Event{}, err
	}
	if !engine.ValidID(engine.PrefixEvent, id) {
		return engine.Event{}, engine.ErrNotFound("event", id)
	}
	return w.Store.GetEvent(ctx, p.TenantID, id)
}

// ListEventDeliveries returns a page of an event's deliveries with their
// attempt logs, newest first; not_found when the event does not exist.
func (s *Service) ListEventDeliveries(ctx context.Context, p engine.Principal, eventID string, pr engine.PageRequest) (engine.Page[engine.Delivery], error) {
	w, err := s.config(p, engine.ScopeWebhooksRead)
	if err != nil {
		return engine.Page[engine.Delivery]{}, err
	}
	if _, err := s.GetEvent(ctx, p, eventID); err != nil {
		return engine.Page[engine.Delivery]{}, err
	}
	return engine.IDPage(s.cursors, p, "deliveries|"+eventID, pr, func(d engine.Delivery) string { return d.ID },
		func(before string, limit int) ([]engine.Delivery, error) {
			return w.Store.ListDeliveries(ctx, engine.DeliveryQuery{TenantID: p.TenantID, EventID: eventID, BeforeID: before, Limit: limit})
		})
}

// ListEndpointDeliveries returns a page of an endpoint's deliveries with
// their attempt logs, newest first; not_found when the endpoint does not
// exist.
func (s *Service) ListEndpointDeliveries(ctx context.Context, p engine.Principal, endpointID string, pr engine.PageRequest) (engine.Page[engine.Delivery], error) {
	w, err := s.config(p, engine.ScopeWebhooksRead)
	if err != nil {
		return engine.Page[engine.Delivery]{}, err
	}
	if _, err := getEndpoint(ctx, w, p, endpointID); err != nil {
		return engine.Page[engine.Delivery]{}, err
	}
	return engine.IDPage(s.cursors, p, "deliveries|"+endpointID, pr, func(d engine.Delivery) string { return d.ID },
		func(before string, limit int) ([]engine.Delivery, error) {
			return w.Store.ListDeliveries(ctx, engine.DeliveryQuery{TenantID: p.TenantID, EndpointID: endpointID, BeforeID: before, Limit: limit})
		})
}

// RedeliverEvent sends an event again as a new delivery: to endpointID, or
// with endpointID empty to every enabled endpoint subscribed to its type.
// not_found for a missing event or endpoint; conflict for a disabled
// endpoint.
func (s *Service) RedeliverEvent(ctx context.Context, p engine.Principal, eventID, endpointID string) ([]engine.Delivery, error) {
	w, err := s.config(p, engine.ScopeWebhooksWrite)
	if err != nil {
		return nil, err
	}
	if !engine.ValidID(engine.PrefixEvent, eventID) {
		return nil, engine.ErrNotFound("event", eventID)
	}
	if endpointID != "" && !engine.ValidID(engine.PrefixWebhook, endpointID) {
		return nil, &engine.Error{Code: engine.CodeValidationFailed, Field: "endpoint_id", Message: "endpoint_id must be a webhook endpoint id (whe_…)"}
	}
	ds, err := w.Store.RedeliverEvent(ctx, p.TenantID, eventID, endpointID, s.now().UTC())
	if ds == nil && err == nil {
		ds = []engine.Delivery{}
	}
	return ds, err
}

// RecoverFailedDeliveries redelivers the endpoint's deliveries that failed
// and were created at or after since (within the last 30 days), each once.
// It returns how many were queued; conflict when the endpoint is disabled.
func (s *Service) RecoverFailedDeliveries(ctx context.Context, p engine.Principal, endpointID string, since time.Time) (int, error) {
	w, err := s.config(p, engine.ScopeWebhooksWrite)
	if err != nil {
		return 0, err
	}
	now := s.now().UTC()
	switch {
	case since.IsZero():
		return 0, engine.FieldErrorf("since", "since is required (RFC 3339)")
	case since.After(now):
		return 0, engine.FieldErrorf("since", "since must not be in the future")
	case since.Before(now.Add(-30 * 24 * time.Hour)):
		return 0, engine.FieldErrorf("since", "since must be within the last 30 days")
	}
	if !engine.ValidID(engine.PrefixWebhook, endpointID) {
		return 0, engine.ErrNotFound("webhook endpoint", endpointID)
	}
	return w.Store.RecoverFailedDeliveries(ctx, p.TenantID, endpointID, since, now)
}
