package rest

import (
	"context"
	"net/http"

	"github.com/fourd-dev/fourd/engine"
)

// resourceFilterParams are the filters of the resources list.
var resourceFilterParams = []string{"type", "provider", "account", "region"}

// listResources serves GET /v1/resources, in id order.
func (a *api) listResources(w http.ResponseWriter, r *http.Request) error {
	q, err := parseQuery(r, params(pageParams, resourceFilterParams)...)
	if err != nil {
		return err
	}
	pr, err := q.page()
	if err != nil {
		return err
	}
	f := engine.ResourceFilter{Type: q["type"], Provider: q["provider"], Account: q["account"], Region: q["region"]}
	page, err := a.svc.ListResources(r.Context(), principal(r), f, pr)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, newListBody(page))
	return nil
}

// listOf returns the handler of a list without filters (audits, policies,
// reports: newest first).
func listOf[T any](list func(context.Context, engine.Principal, engine.PageRequest) (engine.Page[T], error)) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		q, err := parseQuery(r, pageParams...)
		if err != nil {
			return err
		}
		pr, err := q.page()
		if err != nil {
			return err
		}
		page, err := list(r.Context(), principal(r), pr)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, newListBody(page))
		return nil
	}
}

// getOf returns the handler of GET /v1/{collection}/{id}. The Service
// answers not_found alike for a malformed id, a wrong prefix, a missing id
// and another tenant's id.
func getOf[T any](get func(context.Context, engine.Principal, string) (T, error)) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		if _, err := parseQuery(r); err != nil {
			return err
		}
		v, err := get(r.Context(), principal(r), r.PathValue("id"))
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, v)
		return nil
	}
}
