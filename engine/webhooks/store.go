package webhooks

import (
	"context"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// Store holds webhook endpoints, the events API's view of the outbox
// and the deliveries (PostgreSQL). Codes as the other stores: not_found for
// a missing record (also another tenant's, or a deleted endpoint),
// validation_failed for values the schema refuses.
type Store interface {
	CreateWebhookEndpoint(ctx context.Context, e engine.WebhookEndpoint) error
	GetWebhookEndpoint(ctx context.Context, tenantID, id string) (engine.WebhookEndpoint, error)
	// ListWebhookEndpoints returns up to q.Limit live endpoints, newest
	// first, strictly before q.BeforeID.
	ListWebhookEndpoints(ctx context.Context, q engine.WebhookEndpointQuery) ([]engine.WebhookEndpoint, error)
	// UpdateWebhookEndpoint overwrites url, event types, description and
	// enabled; enabling clears the disabled reason and the failing streak.
	// It returns the stored endpoint.
	UpdateWebhookEndpoint(ctx context.Context, e engine.WebhookEndpoint) (engine.WebhookEndpoint, error)
	// DeleteWebhookEndpoint marks an endpoint deleted (its deliveries stay
	// readable); its pending deliveries end failed.
	DeleteWebhookEndpoint(ctx context.Context, tenantID, id string, at time.Time) error
	// RotateWebhookSecret makes sealed the current secret and keeps the
	// one it replaces as the previous secret until previousUntil.
	RotateWebhookSecret(ctx context.Context, tenantID, id, sealed string, previousUntil, at time.Time) (engine.WebhookEndpoint, error)

	// ListEvents returns up to q.Limit events, newest first, strictly
	// before q.BeforeID.
	ListEvents(ctx context.Context, q engine.EventQuery) ([]engine.Event, error)
	GetEvent(ctx context.Context, tenantID, id string) (engine.Event, error)
	// ListDeliveries returns up to q.Limit deliveries with their attempt
	// logs, newest first, strictly before q.BeforeID.
	ListDeliveries(ctx context.Context, q engine.DeliveryQuery) ([]engine.Delivery, error)

	// AppendDirectedEvent stores an event for one endpoint only (a test
	// event): the event and its delivery, not fanned out to others.
	AppendDirectedEvent(ctx context.Context, ev engine.Event, endpointID string) (engine.Delivery, error)
	// RedeliverEvent creates a new delivery of an event to the endpoint,
	// or with endpointID empty to every enabled endpoint subscribed to
	// its type. conflict when the named endpoint is disabled.
	RedeliverEvent(ctx context.Context, tenantID, eventID, endpointID string, at time.Time) ([]engine.Delivery, error)
	// RecoverFailedDeliveries creates a new delivery for each failed
	// delivery of the endpoint created at or after since that has no later
	// delivery of the same event to it; it returns how many. conflict when
	// the endpoint is disabled.
	RecoverFailedDeliveries(ctx context.Context, tenantID, endpointID string, since, at time.Time) (int, error)
}
