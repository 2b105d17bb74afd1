package webhooks

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// Limits of webhook endpoint fields.
const (
	maxEndpointDescription = 500
	maxGracePeriod         = 7 * 24 * time.Hour
	defaultGracePeriod     = 24 * time.Hour
)

// CreateWebhookEndpointInput is the body of POST /v1/webhook_endpoints.
type CreateWebhookEndpointInput struct {
	URL         string   `json:"url"`
	EventTypes  []string `json:"event_types"`
	Description string   `json:"description"`
	// Enabled defaults to true.
	Enabled *bool `json:"enabled"`
}

// UpdateWebhookEndpointInput is the body of PATCH
// /v1/webhook_endpoints/{id}; absent fields keep their values.
type UpdateWebhookEndpointInput struct {
	URL         *string   `json:"url"`
	EventTypes  *[]string `json:"event_types"`
	Description *string   `json:"description"`
	Enabled     *bool     `json:"enabled"`
}

// normalizeEventTypes validates a subscription: at least one type, each one
// of engine.SubscribableEventTypes or "*" alone. It returns them sorted without
// duplicates.
func normalizeEventTypes(types []string) ([]string, error) {
	if len(types) == 0 {
		return nil, engine.FieldErrorf("event_types", `event_types must list at least one event type, or ["*"] for all`)
	}
	out := make([]string, 0, len(types))
	for _, t := range types {
		if t == engine.AllEventTypes {
			if len(types) != 1 {
				return nil, engine.FieldErrorf("event_types", `"*" subscribes to every event type and must be alone`)
			}
			return []string{engine.AllEventTypes}, nil
		}
		if !slices.Contains(engine.SubscribableEventTypes, t) {
			return nil, engine.FieldErrorf("event_types", "unknown event type %s; allowed: %s or *", engine.Quote(t), strings.Join(engine.SubscribableEventTypes, ", "))
		}
		out = append(out, t)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

func checkDescription(d string) error {
	if len(d) > maxEndpointDescription {
		return engine.FieldErrorf("description", "description must be at most %d bytes", maxEndpointDescription)
	}
	return nil
}

// MaxWebhookEndpoints is how many live webhook endpoints a tenant may have.
const MaxWebhookEndpoints = 50

// CreateWebhookEndpoint registers an endpoint and returns it with its
// signing secret, which is shown this once. validation_failed for a bad
// URL, event type or description; conflict when the tenant has
// MaxWebhookEndpoints already.
func (s *Service) CreateWebhookEndpoint(ctx context.Context, p engine.Principal, in CreateWebhookEndpointInput) (engine.WebhookEndpoint, error) {
	w, err := s.config(p, engine.ScopeWebhooksWrite)
	if err != nil {
		return engine.WebhookEndpoint{}, err
	}
	if err := w.CheckURL(in.URL); err != nil {
		return engine.WebhookEndpoint{}, err
	}
	types, err := normalizeEventTypes(in.EventTypes)
	if err != nil {
		return engine.WebhookEndpoint{}, err
	}
	if err := checkDescription(in.Description); err != nil {
		return engine.WebhookEndpoint{}, err
	}
	// A bound on what one event fans out to. (Two creations racing at the
	// limit may both pass; the bound is about scale, not exactness.)
	live, err := w.Store.ListWebhookEndpoints(ctx, engine.WebhookEndpointQuery{TenantID: p.TenantID, Limit: MaxWebhookEndpoints})
	if err != nil {
		return engine.WebhookEndpoint{}, err
	}
	if len(live) >= MaxWebhookEndpoints {
		return engine.WebhookEndpoint{}, engine.Errorf(engine.CodeConflict, "a tenant has at most %d webhook endpoints; delete one first", MaxWebhookEndpoints)
	}
	secret := w.NewSecret()
	sealed, err := w.Seal(secret)
	if err != nil {
		return engine.WebhookEndpoint{}, err
	}
	now := s.now().UTC().Truncate(time.Microsecond)
	e := engine.WebhookEndpoint{ID: engine.NewID(engine.PrefixWebhook, now), TenantID: p.TenantID, URL: in.URL, EventTypes: types,
		Description: in.Description, Enabled: in.Enabled == nil || *in.Enabled, SealedSecret: sealed,
		CreatedAt: now, UpdatedAt: now}
	if err := w.Store.CreateWebhookEndpoint(ctx, e); err != nil {
		return engine.WebhookEndpoint{}, err
	}
	e.Secret = secret
	return e, nil
}

// ListWebhookEndpoints returns a page of the tenant's endpoints, newest
// first.
func (s *Service) ListWebhookEndpoints(ctx context.Context, p engine.Principal, pr engine.PageRequest) (engine.Page[engine.WebhookEndpoint], error) {
	w, err := s.config(p, engine.ScopeWebhooksRead)
	if err != nil {
		return engine.Page[engine.WebhookEndpoint]{}, err
	}
	return engine.IDPage(s.cursors, p, "webhook_endpoints", pr, func(e engine.WebhookEndpoint) string { return e.ID },
		func(before string, limit int) ([]engine.WebhookEndpoint, error) {
			return w.Store.ListWebhookEndpoints(ctx, engine.WebhookEndpointQuery{TenantID: p.TenantID, BeforeID: before, Limit: limit})
		})
}

// GetWebhookEndpoint returns one endpoint (without its secret).
func (s *Service) GetWebhookEndpoint(ctx context.Context, p engine.Principal, id string) (engine.WebhookEndpoint, error) {
	w, err := s.config(p, engine.ScopeWebhooksRead)
	if err != nil {
		return engine.WebhookEndpoint{}, err
	}
	return getEndpoint(ctx, w, p, id)
}

func getEndpoint(ctx context.Context, w Config, p engine.Principal, id string) (engine.WebhookEndpoint, error) {
	if !engine.ValidID(engine.PrefixWebhook, id) {
		return engine.WebhookEndpoint{}, engine.ErrNotFound("webhook endpoint", id)
	}
	return w.Store.GetWebhookEndpoint(ctx, p.TenantID, id)
}

// UpdateWebhookEndpoint changes the fields in, validated as on create.
// Enabling an endpoint that fourd disabled clears the reason.
func (s *Service) UpdateWebhookEndpoint(ctx context.Context, p engine.Principal, id string, in UpdateWebhookEndpointInput) (engine.WebhookEndpoint, error) {
	w, err := s.config(p, engine.ScopeWebhooksWrite)
	if err != nil {
		return engine.WebhookEndpoint{}, err
	}
	e, err := getEndpoint(ctx, w, p, id)
	if err != nil {
		return engine.WebhookEndpoint{}, err
	}
	if in.URL != nil {
		if err := w.CheckURL(*in.URL); err != nil {
			return engine.WebhookEndpoint{}, err
		}
		e.URL = *in.URL
	}
	if in.EventTypes != nil {
		if e.EventTypes, err = normalizeEventTypes(*in.EventTypes); err != nil {
			return engine.WebhookEndpoint{}, err
		}
	}
	if in.Description != nil {
		if err := checkDescription(*in.Description); err != nil {
			return engine.WebhookEndpoint{}, err
		}
		e.Description = *in.Description
	}
	if in.Enabled != nil {
		e.Enabled = *in.Enabled
	}
	e.UpdatedAt = s.now().UTC().Truncate(time.Microsecond)
	return w.Store.UpdateWebhookEndpoint(ctx, e)
}

// DeleteWebhookEndpoint deletes an endpoint; its deliveries stay readable.
func (s *Service) DeleteWebhookEndpoint(ctx context.Context, p engine.Principal, id string) error {
	w, err := s.config(p, engine.ScopeWebhooksWrite)
	if err != nil {
		return err
	}
	if !engine.ValidID(engine.PrefixWebhook, id) {
		return engine.ErrNotFound("webhook endpoint", id)
	}
	return w.Store.DeleteWebhookEndpoint(ctx, p.TenantID, id, s.now().UTC())
}

// RotateWebhookSecret issues a new signing secret, shown this once. The
// replaced secret keeps signing X-Service-Signature-Previous for the grace
// period (0: the configured default; at most 7 days).
func (s *Service) RotateWebhookSecret(ctx context.Context, p engine.Principal, id string, grace time.Duration) (engine.WebhookEndpoint, error) {
	w, err := s.config(p, engine.ScopeWebhooksWrite)
	if err != nil {
		return engine.WebhookEndpoint{}, err
	}
	if grace < 0 || grace > maxGracePeriod {
		return engine.WebhookEndpoint{}, engine.FieldErrorf("grace_period_seconds", "grace period must be from 0 to %d seconds", int(maxGracePeriod.Seconds()))
	}
	if grace == 0 {
		grace = w.GracePeriod
	}
	if !engine.ValidID(engine.PrefixWebhook, id) {
		return engine.WebhookEndpoint{}, engine.ErrNotFound("webhook endpoint", id)
	}
	secret := w.NewSecret()
	sealed, err := w.Seal(secret)
	if err != nil {
		return engine.WebhookEndpoint{}, err
	}
	now := s.now().UTC().Truncate(time.Microsecond)
	e, err := w.Store.RotateWebhookSecret(ctx, p.TenantID, id, sealed, now.Add(grace), now)
	if err != nil {
		return engine.WebhookEndpoint{}, err
	}
	e.Secret = secret
	return e, nil
}

// TestWebhookEndpoint sends the endpoint a webhook_endpoint.test event,
// whatever its subscription; conflict when it is disabled.
func (s *Service) TestWebhookEndpoint(ctx context.Context, p engine.Principal, id string) (engine.Delivery, error) {
	w, err := s.config(p, engine.ScopeWebhooksWrite)
	if err != nil {
		return engine.Delivery{}, err
	}
	e, err := getEndpoint(ctx, w, p, id)
	if err != nil {
		return engine.Delivery{}, err
	}
	if !e.Enabled {
		return engine.Delivery{}, engine.Errorf(engine.CodeConflict, "webhook endpoint %s is disabled; enable it first", id)
	}
	ev, err := engine.NewEvent(p.TenantID, engine.EventWebhookTest, map[string]any{"endpoint_id": e.ID,
		"message": "This is a test event sent from the fourd API."}, s.now())
	if err != nil {
		return engine.Delivery{}, err
	}
	return w.Store.AppendDirectedEvent(ctx, ev, e.ID)
}
