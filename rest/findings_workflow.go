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
	IDs    []string          `json:"ids"`
	Filter map[string]string `json:"filter"`
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
		q := query{}
		for k, v := range b.Filter {
			if v != "" {
				q[k] = v
			}
		}
		sev, ok := b.Filter["severity"]
		f, err := q.findingFilterOf(ok && sev == "")
		if err != nil {
			return err
		}
		in.Filter = &f
	}
	res, err := a.svc.BulkUpdateFindings(r.Context(), principal(r), in)
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
	page, _, err := a.svc.ListFindingActivity(r.Context(), p, r.PathValue("id"), pr)
	if err != nil {
		return err
	}
	writeList(a, w, r, p.TenantID, page)
	return nil
}
