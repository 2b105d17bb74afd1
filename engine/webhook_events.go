package engine

import (
	"context"
	"slices"
	"time"
)

// ListEvents returns a page of the tenant's events, newest first, of type
// typ or all (typ empty). validation_failed for an unknown type.
func (s *Service) ListEvents(ctx context.Context, p Principal, typ string, pr PageRequest) (Page[Event], error) {
	w, err := s.webhooks(p, ScopeWebhooksRead)
	if err != nil {
		return Page[Event]{}, err
	}
	if typ != "" && !slices.Contains(SubscribableEventTypes, typ) && typ != EventWebhookTest {
		return Page[Event]{}, FieldErrorf("type", "unknown event type %s", quote(typ))
	}
	return idPage(s, p, "events|"+fingerprint(typ), pr, func(e Event) string { return e.ID },
		func(before string, limit int) ([]Event, error) {
			return w.Store.ListEvents(ctx, EventQuery{TenantID: p.TenantID, Type: typ, BeforeID: before, Limit: limit})
		})
}

// GetEvent returns one event of the tenant.
func (s *Service) GetEvent(ctx context.Context, p Principal, id string) (Event, error) {
	w, err := s.webhooks(p, ScopeWebhooksRead)
	if err != nil {
		return Event{}, err
	}
	if !ValidID(PrefixEvent, id) {
		return Event{}, ErrNotFound("event", id)
	}
	return w.Store.GetEvent(ctx, p.TenantID, id)
}

// ListEventDeliveries returns a page of an event's deliveries with their
// attempt logs, newest first; not_found when the event does not exist.
func (s *Service) ListEventDeliveries(ctx context.Context, p Principal, eventID string, pr PageRequest) (Page[Delivery], error) {
	w, err := s.webhooks(p, ScopeWebhooksRead)
	if err != nil {
		return Page[Delivery]{}, err
	}
	if _, err := s.GetEvent(ctx, p, eventID); err != nil {
		return Page[Delivery]{}, err
	}
	return idPage(s, p, "deliveries|"+eventID, pr, func(d Delivery) string { return d.ID },
		func(before string, limit int) ([]Delivery, error) {
			return w.Store.ListDeliveries(ctx, DeliveryQuery{TenantID: p.TenantID, EventID: eventID, BeforeID: before, Limit: limit})
		})
}

// ListEndpointDeliveries returns a page of an endpoint's deliveries with
// their attempt logs, newest first; not_found when the endpoint does not
// exist.
func (s *Service) ListEndpointDeliveries(ctx context.Context, p Principal, endpointID string, pr PageRequest) (Page[Delivery], error) {
	w, err := s.webhooks(p, ScopeWebhooksRead)
	if err != nil {
		return Page[Delivery]{}, err
	}
	if _, err := getEndpoint(ctx, w, p, endpointID); err != nil {
		return Page[Delivery]{}, err
	}
	return idPage(s, p, "deliveries|"+endpointID, pr, func(d Delivery) string { return d.ID },
		func(before string, limit int) ([]Delivery, error) {
			return w.Store.ListDeliveries(ctx, DeliveryQuery{TenantID: p.TenantID, EndpointID: endpointID, BeforeID: before, Limit: limit})
		})
}

// RedeliverEvent sends an event again as a new delivery: to endpointID, or
// with endpointID empty to every enabled endpoint subscribed to its type.
// not_found for a missing event or endpoint; conflict for a disabled
// endpoint.
func (s *Service) RedeliverEvent(ctx context.Context, p Principal, eventID, endpointID string) ([]Delivery, error) {
	w, err := s.webhooks(p, ScopeWebhooksWrite)
	if err != nil {
		return nil, err
	}
	if !ValidID(PrefixEvent, eventID) {
		return nil, ErrNotFound("event", eventID)
	}
	if endpointID != "" && !ValidID(PrefixWebhook, endpointID) {
		return nil, &Error{Code: CodeValidationFailed, Field: "endpoint_id", Message: "endpoint_id must be a webhook endpoint id (whe_…)"}
	}
	ds, err := w.Store.RedeliverEvent(ctx, p.TenantID, eventID, endpointID, s.now().UTC())
	if ds == nil && err == nil {
		ds = []Delivery{}
	}
	return ds, err
}

// RecoverFailedDeliveries redelivers the endpoint's deliveries that failed
// and were created at or after since (within the last 30 days), each once.
// It returns how many were queued; conflict when the endpoint is disabled.
func (s *Service) RecoverFailedDeliveries(ctx context.Context, p Principal, endpointID string, since time.Time) (int, error) {
	w, err := s.webhooks(p, ScopeWebhooksWrite)
	if err != nil {
		return 0, err
	}
	now := s.now().UTC()
	switch {
	case since.IsZero():
		return 0, FieldErrorf("since", "since is required (RFC 3339)")
	case since.After(now):
		return 0, FieldErrorf("since", "since must not be in the future")
	case since.Before(now.Add(-30 * 24 * time.Hour)):
		return 0, FieldErrorf("since", "since must be within the last 30 days")
	}
	if !ValidID(PrefixWebhook, endpointID) {
		return 0, ErrNotFound("webhook endpoint", endpointID)
	}
	return w.Store.RecoverFailedDeliveries(ctx, p.TenantID, endpointID, since, now)
}
