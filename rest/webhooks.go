package rest

import (
	"context"
	"net/http"
	"slices"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/webhooks"
)

// webhookRoutes registers the webhook endpoints API and the events API
// (issue 7): endpoint CRUD, secret rotation, test events, delivery logs,
// redelivery and recovery.
func (a *api) webhookRoutes() {
	s := a.hooks
	a.get("/v1/webhook_endpoints", a.authenticated(listOf(s.ListWebhookEndpoints)))
	a.route(http.MethodPost, "/v1/webhook_endpoints", a.authenticated(a.createWebhookEndpoint))
	a.get("/v1/webhook_endpoints/{id}", a.authenticated(getOf(s.GetWebhookEndpoint)))
	a.route(http.MethodPatch, "/v1/webhook_endpoints/{id}", a.authenticated(a.updateWebhookEndpoint))
	a.route(http.MethodDelete, "/v1/webhook_endpoints/{id}", a.authenticated(a.deleteWebhookEndpoint))
	a.route(http.MethodPost, "/v1/webhook_endpoints/{id}/rotate_secret", a.authenticated(a.rotateWebhookSecret))
	a.route(http.MethodPost, "/v1/webhook_endpoints/{id}/test", a.authenticated(a.testWebhookEndpoint))
	a.get("/v1/webhook_endpoints/{id}/deliveries", a.authenticated(deliveriesOf(s.ListEndpointDeliveries)))
	a.route(http.MethodPost, "/v1/webhook_endpoints/{id}/recover", a.authenticated(a.recoverDeliveries))
	a.get("/v1/events", a.authenticated(a.listEvents))
	a.get("/v1/events/{id}", a.authenticated(getOf(func(ctx context.Context, p engine.Principal, id string) (apiEvent, error) {
		ev, err := s.GetEvent(ctx, p, id)
		return apiEvent{ID: ev.ID, Event: ev}, err
	})))
	a.get("/v1/events/{id}/deliveries", a.authenticated(deliveriesOf(s.ListEventDeliveries)))
	a.route(http.MethodPost, "/v1/events/{id}/redeliver", a.authenticated(a.redeliverEvent))
}

// route registers a handler for a method other than GET. The path joins
// the documented patterns once, whatever methods it serves.
func (a *api) route(method, pattern string, h handlerFunc) {
	if !slices.Contains(a.patterns, pattern) {
		a.patterns = append(a.patterns, pattern)
	}
	a.mux.Handle(method+" "+pattern, a.handle(h))
}

// decodeOptionalJSON is decodeJSON for bodies that may be absent.
func decodeOptionalJSON(r *http.Request, v any) error {
	if r.ContentLength == 0 {
		return nil
	}
	return decodeJSON(r, v)
}

// createWebhookEndpoint serves POST /v1/webhook_endpoints: 201 with the
// endpoint and its secret, shown this once.
func (a *api) createWebhookEndpoint(w http.ResponseWriter, r *http.Request) error {
	if _, err := parseQuery(r); err != nil {
		return err
	}
	var in webhooks.CreateWebhookEndpointInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	e, err := a.hooks.CreateWebhookEndpoint(r.Context(), principal(r), in)
	if err != nil {
		return err
	}
	w.Header().Set("Location", "/v1/webhook_endpoints/"+e.ID)
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusCreated, e)
	return nil
}

// updateWebhookEndpoint serves PATCH /v1/webhook_endpoints/{id}.
func (a *api) updateWebhookEndpoint(w http.ResponseWriter, r *http.Request) error {
	if _, err := parseQuery(r); err != nil {
		return err
	}
	var in webhooks.UpdateWebhookEndpointInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	e, err := a.hooks.UpdateWebhookEndpoint(r.Context(), principal(r), r.PathValue("id"), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, e)
	return nil
}

// deleteWebhookEndpoint serves DELETE /v1/webhook_endpoints/{id}: 204.
func (a *api) deleteWebhookEndpoint(w http.ResponseWriter, r *http.Request) error {
	if _, err := parseQuery(r); err != nil {
		return err
	}
	if err := a.hooks.DeleteWebhookEndpoint(r.Context(), principal(r), r.PathValue("id")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// rotateWebhookSecret serves POST /v1/webhook_endpoints/{id}/rotate_secret
// with an optional body {"grace_period_seconds": n}.
func (a *api) rotateWebhookSecret(w http.ResponseWriter, r *http.Request) error {
	if _, err := parseQuery(r); err != nil {
		return err
	}
	var in struct {
		GracePeriodSeconds int64 `json:"grace_period_seconds"`
	}
	if err := decodeOptionalJSON(r, &in); err != nil {
		return err
	}
	if in.GracePeriodSeconds < 0 || in.GracePeriodSeconds > int64(7*24*time.Hour/time.Second) {
		return engine.FieldErrorf("grace_period_seconds", "grace_period_seconds must be from 0 to 604800")
	}
	e, err := a.hooks.RotateWebhookSecret(r.Context(), principal(r), r.PathValue("id"), time.Duration(in.GracePeriodSeconds)*time.Second)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, e)
	return nil
}

// testWebhookEndpoint serves POST /v1/webhook_endpoints/{id}/test: 202
// with the test event's delivery.
func (a *api) testWebhookEndpoint(w http.ResponseWriter, r *http.Request) error {
	if _, err := parseQuery(r); err != nil {
		return err
	}
	d, err := a.hooks.TestWebhookEndpoint(r.Context(), principal(r), r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusAccepted, d)
	return nil
}

// recoverDeliveries serves POST /v1/webhook_endpoints/{id}/recover with
// {"since": RFC 3339 time}: 202 with how many deliveries were queued.
func (a *api) recoverDeliveries(w http.ResponseWriter, r *http.Request) error {
	if _, err := parseQuery(r); err != nil {
		return err
	}
	var in struct {
		Since time.Time `json:"since"`
	}
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	n, err := a.hooks.RecoverFailedDeliveries(r.Context(), principal(r), r.PathValue("id"), in.Since)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusAccepted, map[string]int{"recovered": n})
	return nil
}

// listEvents serves GET /v1/events, newest first, filtered by type.
func (a *api) listEvents(w http.ResponseWriter, r *http.Request) error {
	q, err := parseQuery(r, params(pageParams, []string{"type"})...)
	if err != nil {
		return err
	}
	pr, err := q.page()
	if err != nil {
		return err
	}
	page, err := a.hooks.ListEvents(r.Context(), principal(r), q["type"], pr)
	if err != nil {
		return err
	}
	out := engine.Page[apiEvent]{Items: make([]apiEvent, len(page.Items)), NextCursor: page.NextCursor, HasMore: page.HasMore}
	for i, ev := range page.Items {
		out.Items[i] = apiEvent{ID: ev.ID, Event: ev}
	}
	writeJSON(w, http.StatusOK, newListBody(out))
	return nil
}

// apiEvent is an event as /v1/events answers it: with id, the name every
// other resource's id has, beside event_id, the name the webhook envelope
// keeps (the spec's), equal to it.
type apiEvent struct {
	ID string `json:"id"`
	engine.Event
}

// redeliverEvent serves POST /v1/events/{id}/redeliver with an optional
// body {"endpoint_id": "whe_…"} (absent: every subscribed endpoint): 202
// with the new deliveries.
func (a *api) redeliverEvent(w http.ResponseWriter, r *http.Request) error {
	if _, err := parseQuery(r); err != nil {
		return err
	}
	var in struct {
		EndpointID string `json:"endpoint_id"`
	}
	if err := decodeOptionalJSON(r, &in); err != nil {
		return err
	}
	ds, err := a.hooks.RedeliverEvent(r.Context(), principal(r), r.PathValue("id"), in.EndpointID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusAccepted, map[string][]engine.Delivery{"data": ds})
	return nil
}

// deliveriesOf returns the handler of a delivery log list (of an event or
// an endpoint named by the path's id).
func deliveriesOf(list func(ctx context.Context, p engine.Principal, id string, pr engine.PageRequest) (engine.Page[engine.Delivery], error)) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		q, err := parseQuery(r, pageParams...)
		if err != nil {
			return err
		}
		pr, err := q.page()
		if err != nil {
			return err
		}
		page, err := list(r.Context(), principal(r), r.PathValue("id"), pr)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, newListBody(page))
		return nil
	}
}
