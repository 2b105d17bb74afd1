package rest

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/fourd-dev/fourd/engine"
)

// optString is a JSON string field that tells absent (set false) from null
// or a string (set true; null is "").
type optString struct {
	set bool
	val string
}

// UnmarshalJSON implements json.Unmarshaler.
func (o *optString) UnmarshalJSON(b []byte) error {
	o.set = true
	if bytes.Equal(b, []byte("null")) {
		o.val = ""
		return nil
	}
	return json.Unmarshal(b, &o.val)
}

// bulkUpdateBody is POST /v1/findings/bulk_update's body: the findings
// (ids, or a filter with the list's filter names) and the update.
type bulkUpdateBody struct {
	IDs []string `json:"ids"`
	// Filter's values are strings; tag's may also be an array of them.
	Filter map[string]json.RawMessage `json:"filter"`
	findingUpdateBody
}

// bulkUpdateFindings serves POST /v1/findings/bulk_update: 200 with one
// result per finding, whether or not each succeeded.
func (a *api) bulkUpdateFindings(w http.ResponseWriter, r *http.Request) error {
	if _, err := parseQuery(r); err != nil {
		return err
	}
	var b bulkUpdateBody
	if err := decodeJSON(r, &b); err != nil {
		return err
	}
	in := engine.BulkFindingUpdate{IDs: b.IDs, Update: b.update()}
	if b.Filter != nil {
		for k := range b.Filter {
			if !isFindingFilterParam(k) {
				return engine.FieldErrorf("filter", "unknown filter %q; filters are those of GET /v1/findings", k)
			}
		}
		f, err := bulkFilter(b.Filter)
		if err != nil {
			return err
		}
		in.Filter = &f
	}
	res, err := a.triage.BulkUpdateFindings(r.Context(), principal(r), in)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, res)
	return nil
}

// findingActivity serves GET /v1/findings/{id}/activity: the finding's
// history, newest first.
func (a *api) findingActivity(w http.ResponseWriter, r *http.Request) error {
	q, err := parseQuery(r, pageParams...)
	if err != nil {
		return err
	}
	pr, err := q.page()
	if err != nil {
		return err
	}
	p := principal(r)
	page, _, err := a.triage.ListFindingActivity(r.Context(), p, r.PathValue("id"), pr)
	if err != nil {
		return err
	}
	writeList(a, w, r, p.TenantID, page)
	return nil
}

// bulkFilter parses a bulk update's filter object: the list's filter names,
// each a string, tag a string or an array of strings (all must hold).
func bulkFilter(m map[string]json.RawMessage) (engine.FindingFilter, error) {
	q := query{}
	var tags []string
	emptySeverity := false
	for k, raw := range m {
		var v *string
		if err := json.Unmarshal(raw, &v); err != nil {
			if k == "tag" && json.Unmarshal(raw, &tags) == nil {
				continue
			}
			if k == "tag" {
				return engine.FindingFilter{}, engine.FieldErrorf("filter", "filter tag must be a key=value string or an array of them")
			}
			return engine.FindingFilter{}, engine.FieldErrorf("filter", "filter %s must be a string", quote(k))
		}
		switch {
		case k == "severity" && (v == nil || *v == ""):
			emptySeverity = true // refused, as severity= is by the list
		case v == nil: // null: absent
		case k == "tag":
			tags = append(tags, *v)
		case *v != "":
			q[k] = *v
		}
	}
	return q.findingFilterOf(emptySeverity, tags)
}
