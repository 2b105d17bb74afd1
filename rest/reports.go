package rest

import (
	"mime"
	"net/http"
	"strconv"

	"github.com/fourd-dev/fourd/engine"
)

// reportRoutes registers report generation and downloads (issue 8); the
// report list and get are in routes.
func (a *api) reportRoutes() {
	a.route(http.MethodPost, "/v1/reports", a.authenticated(a.generateReport))
	a.route(http.MethodGet, "/v1/reports/{id}/download", a.authenticated(a.downloadReport))
}

// generateReport serves POST /v1/reports: 202 with the pending report,
// which a worker turns ready or failed.
func (a *api) generateReport(w http.ResponseWriter, r *http.Request) error {
	if _, err := parseQuery(r); err != nil {
		return err
	}
	var in engine.GenerateReportInput
	if err := decodeJSON(r, &in); err != nil {
		return err
	}
	rep, err := a.reports.GenerateReport(r.Context(), principal(r), in)
	if err != nil {
		return err
	}
	w.Header().Set("Location", "/v1/reports/"+rep.ID)
	writeJSON(w, http.StatusAccepted, rep)
	return nil
}

// reportHTMLPolicy is the Content-Security-Policy of an HTML report.
const reportHTMLPolicy = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; sandbox allow-scripts"

// downloadReport serves GET /v1/reports/{id}/download?format=pdf|json|html: the
// stored content as an attachment, 304 when If-None-Match names its ETag
// (a ready report never changes), 409 while the report is not ready.
func (a *api) downloadReport(w http.ResponseWriter, r *http.Request) error {
	q, err := parseQuery(r, "format")
	if err != nil {
		return err
	}
	format := q["format"]
	if format == "" {
		format = "json"
	}
	d, err := a.reports.DownloadReport(r.Context(), principal(r), r.PathValue("id"), format)
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("ETag", d.ETag)
	h.Set("Cache-Control", "private, max-age=0, must-revalidate")
	if match := r.Header.Get("If-None-Match"); match != "" && (match == d.ETag || match == "*") {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	h.Set("Content-Type", d.ContentType)
	if format == "html" {
		// The page is the tenant's data in markup: it may run only its own
		// inline style and filter script, load nothing, and is sandboxed
		// when a browser opens it from this origin.
		h.Set("Content-Security-Policy", reportHTMLPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
	}
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": d.Filename}))
	h.Set("Content-Length", strconv.Itoa(len(d.Content)))
	w.WriteHeader(http.StatusOK)
	_, err = w.Write(d.Content)
	return err
}
