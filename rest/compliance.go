package rest

import (
	"net/http"

	"github.com/fourd-dev/fourd/engine"
)

// ComplianceFrameworkBody is the answer of GET
// /v1/compliance/frameworks/{id}: the framework's posture and a page of its
// controls in the pagination envelope.
type ComplianceFrameworkBody struct {
	Framework engine.CompliancePosture `json:"framework"`
	listBody[engine.ControlPosture]
}

// complianceRoutes registers the compliance posture API (issue 33 §4).
func (a *api) complianceRoutes() {
	a.get("/v1/compliance/frameworks", a.authenticated(a.listComplianceFrameworks))
	a.get("/v1/compliance/frameworks/{id}", a.authenticated(a.getComplianceFramework))
	a.get("/v1/compliance/frameworks/{id}/trend", a.authenticated(a.complianceTrend))
}

// listComplianceFrameworks serves GET /v1/compliance/frameworks?audit_id:
// every framework, in one page.
func (a *api) listComplianceFrameworks(w http.ResponseWriter, r *http.Request) error {
	q, err := parseQuery(r, "audit_id")
	if err != nil {
		return err
	}
	got, err := a.posture.ComplianceFrameworks(r.Context(), principal(r), engine.ComplianceQuery{AuditID: q["audit_id"]})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, newListBody(engine.Page[engine.CompliancePosture]{Items: got}))
	return nil
}

// getComplianceFramework serves GET
// /v1/compliance/frameworks/{id}?audit_id&status&limit&cursor.
func (a *api) getComplianceFramework(w http.ResponseWriter, r *http.Request) error {
	q, err := parseQuery(r, params(pageParams, []string{"audit_id", "status"})...)
	if err != nil {
		return err
	}
	pr, err := q.page()
	if err != nil {
		return err
	}
	got, err := a.posture.ComplianceFramework(r.Context(), principal(r), r.PathValue("id"),
		engine.ComplianceControlQuery{AuditID: q["audit_id"], Status: engine.ControlStatus(q["status"]), Page: pr})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, ComplianceFrameworkBody{Framework: got.Framework, listBody: newListBody(got.Controls)})
	return nil
}

// complianceTrend serves GET /v1/compliance/frameworks/{id}/trend?limit&cursor.
func (a *api) complianceTrend(w http.ResponseWriter, r *http.Request) error {
	q, err := parseQuery(r, pageParams...)
	if err != nil {
		return err
	}
	pr, err := q.page()
	if err != nil {
		return err
	}
	got, err := a.posture.ComplianceTrend(r.Context(), principal(r), r.PathValue("id"), pr)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, newListBody(got))
	return nil
}
