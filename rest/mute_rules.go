package rest

import (
	"net/http"

	"github.com/fourd-dev/fourd/engine"
)

// muteRuleRoutes registers the mute rules API (issue 33 §1): CRUD, a dry
// run and each rule's history.
func (a *api) muteRuleRoutes() {
	s := a.mutes
	a.get("/v1/mute_rules", a.authenticated(listOf(s.ListMuteRules)))
	a.route(http.MethodPost, "/v1/mute_rules", a.authenticated(a.createMuteRule))
	a.route(http.MethodPost, "/v1/mute_rules/dry_run", a.authenticated(a.dryRunMuteRule))
	a.get("/v1/mute_rules/{id}", a.authenticated(getOf(s.GetMuteRule)))
	a.route(http.MethodPatch, "/v1/mute_rules/{id}", a.authenticated(a.updateMuteRule))
	a.route(http.MethodDelete, "/v1/mute_rules/{id}", a.authenticated(a.deleteMuteRule))
	a.get("/v1/mute_rules/{id}/history", a.authenticated(a.muteRuleHistory))
}

// createMuteRule serves POST /v1/mute_rules: 201 with the rule, already
// applied to the latest snapshot.
func (a *api) createMuteRule(w http.ResponseWriter, r *http.Request) error {
	if _, err := parseQuery(r); err != nil {
		return err
	}
	var in engine.MuteRuleInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	m, err := a.mutes.CreateMuteRule(r.Context(), principal(r), in)
	if err != nil {
		return err
	}
	w.Header().Set("Location", "/v1/mute_rules/"+m.ID)
	writeJSON(w, http.StatusCreated, m)
	return nil
}

// updateMuteRule serves PATCH /v1/mute_rules/{id}.
func (a *api) updateMuteRule(w http.ResponseWriter, r *http.Request) error {
	if _, err := parseQuery(r); err != nil {
		return err
	}
	var in engine.MuteRuleInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	m, err := a.mutes.UpdateMuteRule(r.Context(), principal(r), r.PathValue("id"), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, m)
	return nil
}

// deleteMuteRule serves DELETE /v1/mute_rules/{id}: 204.
func (a *api) deleteMuteRule(w http.ResponseWriter, r *http.Request) error {
	if _, err := parseQuery(r); err != nil {
		return err
	}
	if err := a.mutes.DeleteMuteRule(r.Context(), principal(r), r.PathValue("id")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// dryRunMuteRule serves POST /v1/mute_rules/dry_run with
// {"expression": "…", "limit": n}.
func (a *api) dryRunMuteRule(w http.ResponseWriter, r *http.Request) error {
	if _, err := parseQuery(r); err != nil {
		return err
	}
	var in struct {
		Expression string `json:"expression"`
		Limit      *int   `json:"limit"`
	}
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	// Absent: the default sample (the engine's 0). A limit given is 1–200,
	// as documented and as GraphQL's dryRunMuteRule takes it: an explicit 0
	// is out of range, not the default.
	limit := 0
	if in.Limit != nil {
		limit = *in.Limit
		if limit == 0 {
			limit = -1
		}
	}
	out, err := a.mutes.DryRunMuteRule(r.Context(), principal(r), in.Expression, limit)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// muteRuleHistory serves GET /v1/mute_rules/{id}/history, oldest first.
func (a *api) muteRuleHistory(w http.ResponseWriter, r *http.Request) error {
	q, err := parseQuery(r, pageParams...)
	if err != nil {
		return err
	}
	pr, err := q.page()
	if err != nil {
		return err
	}
	page, err := a.mutes.ListMuteRuleHistory(r.Context(), principal(r), r.PathValue("id"), pr)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, newListBody(page))
	return nil
}
