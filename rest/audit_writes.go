package rest

import (
	"mime"
	"net/http"
	"strconv"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/inventory"
)

// InventoryMaxBodyBytes bounds a POST /v1/resources body (an inventory
// batch streams; every other body is small).
const InventoryMaxBodyBytes int64 = 50 << 20

// auditRoutes registers the write side of the 4D audit (issue 5):
// inventory in, audits, decisions on findings, and custom policies.
func (a *api) auditRoutes() {
	a.route(http.MethodPost, "/v1/resources", a.authenticated(a.ingestResources))
	a.route(http.MethodPatch, "/v1/findings/{id}", a.authenticated(a.updateFinding))
	a.route(http.MethodPost, "/v1/findings/bulk_update", a.authenticated(a.bulkUpdateFindings))
	a.get("/v1/findings/{id}/activity", a.authenticated(a.findingActivity))
	a.route(http.MethodPost, "/v1/audits", a.authenticated(a.startAudit))
	a.route(http.MethodPost, "/v1/audits/{id}/reanalyze", a.authenticated(a.reanalyzeAudit))
	a.route(http.MethodPost, "/v1/audits/{id}/cancel", a.authenticated(a.cancelAudit))
	a.route(http.MethodDelete, "/v1/audits/{id}", a.authenticated(a.cancelAudit))
	a.route(http.MethodPost, "/v1/policies", a.authenticated(a.createPolicy))
	a.route(http.MethodPost, "/v1/policies/dry_run", a.authenticated(a.dryRunPolicy))
	a.route(http.MethodPatch, "/v1/policies/{id}", a.authenticated(a.updatePolicy))
	a.route(http.MethodDelete, "/v1/policies/{id}", a.authenticated(a.deletePolicy))
	a.route(http.MethodPost, "/v1/policies/{id}/test", a.authenticated(a.testPolicy))
}

// ingestResources serves POST /v1/resources: a JSON array of resources or
// NDJSON (one per line; also AWS Config and Terraform JSON, detected),
// streamed. Invalid items are reported by index; the valid ones are stored.
func (a *api) ingestResources(w http.ResponseWriter, r *http.Request) error {
	if _, err := parseQuery(r); err != nil {
		return err
	}
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || (mt != "application/json" && mt != "application/x-ndjson" && mt != "application/jsonl") {
			return engine.Errorf(engine.CodeInvalidRequest, "the body must be application/json (an array) or application/x-ndjson; got %q", truncate(ct, 60))
		}
	}
	// The format is detected when the engine starts reading, after it has
	// checked the caller's scope.
	items := func(yield func(engine.IngestItem) bool) {
		d, _, err := inventory.Open(r.Body)
		if err != nil {
			if isMaxBytes(err) {
				err = errTooLarge(err)
			}
			yield(engine.IngestItem{Index: -1, Err: err})
			return
		}
		for it := range inventory.Items(d) {
			if !yield(it) {
				return
			}
		}
	}
	res, err := a.ingest.IngestResources(r.Context(), principal(r), items)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, res)
	return nil
}

// findingUpdateBody is PATCH /v1/findings/{id}'s body (and the update of a
// bulk update).
type findingUpdateBody struct {
	Status     engine.FindingStatus `json:"status"`
	Resolution engine.Resolution    `json:"resolution"`
	Note       string               `json:"note"`
	ExpiresAt  *time.Time           `json:"expires_at"`
	// Assignee: absent leaves it, null or "" unassigns.
	Assignee optString `json:"assignee"`
}

func (b findingUpdateBody) update() engine.FindingUpdate {
	u := engine.FindingUpdate{Status: b.Status, Resolution: b.Resolution, Note: b.Note, ExpiresAt: b.ExpiresAt}
	if b.Assignee.set {
		v := b.Assignee.val
		u.Assignee = &v
	}
	return u
}

// updateFinding serves PATCH /v1/findings/{id}: a workflow status (open,
// in_progress, resolved as accepted_risk or false_positive), an assignee,
// a note.
func (a *api) updateFinding(w http.ResponseWriter, r *http.Request) error {
	if _, err := parseQuery(r); err != nil {
		return err
	}
	var b findingUpdateBody
	if err := decodeJSON(r, &b); err != nil {
		return err
	}
	f, err := a.triage.UpdateFinding(r.Context(), principal(r), r.PathValue("id"), b.update())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, f)
	return nil
}

// startAudit serves POST /v1/audits: 202 with the queued audit.
func (a *api) startAudit(w http.ResponseWriter, r *http.Request) error {
	if _, err := parseQuery(r); err != nil {
		return err
	}
	if err := decodeOptionalJSON(r, &struct{}{}); err != nil {
		return err
	}
	au, err := a.audits.StartAudit(r.Context(), principal(r))
	if err != nil {
		return err
	}
	w.Header().Set("Location", "/v1/audits/"+au.ID)
	writeJSON(w, http.StatusAccepted, au)
	return nil
}

// reanalyzeAudit serves POST /v1/audits/{id}/reanalyze: 202 with the new audit.
func (a *api) reanalyzeAudit(w http.ResponseWriter, r *http.Request) error {
	if _, err := parseQuery(r); err != nil {
		return err
	}
	au, err := a.audits.ReanalyzeAudit(r.Context(), principal(r), r.PathValue("id"))
	if err != nil {
		return err
	}
	w.Header().Set("Location", "/v1/audits/"+au.ID)
	writeJSON(w, http.StatusAccepted, au)
	return nil
}

// cancelAudit serves POST /v1/audits/{id}/cancel and DELETE /v1/audits/{id}.
func (a *api) cancelAudit(w http.ResponseWriter, r *http.Request) error {
	if _, err := parseQuery(r); err != nil {
		return err
	}
	au, err := a.audits.CancelAudit(r.Context(), principal(r), r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, au)
	return nil
}

// policyBody is a policy as POST and PATCH /v1/policies send it; absent
// fields are left as they are on PATCH.
type policyBody struct {
	Name          *string              `json:"name"`
	Description   *string              `json:"description"`
	Expression    *string              `json:"expression"`
	Effect        *engine.PolicyEffect `json:"effect"`
	Dimension     *engine.Dimension    `json:"dimension"`
	Severity      *engine.Severity     `json:"severity"`
	ResourceTypes *[]string            `json:"resource_types"`
	Title         *string              `json:"title"`
	Remediation   *string              `json:"remediation"`
	Enabled       *bool                `json:"enabled"`
	// DryRun is refused: a dry run is POST /v1/policies/dry_run, so that
	// POST /v1/policies answers one shape.
	DryRun *bool `json:"dry_run"`
}

func (b policyBody) input() engine.PolicyInput {
	return engine.PolicyInput{Name: b.Name, Description: b.Description, Expression: b.Expression, Effect: b.Effect,
		Dimension: b.Dimension, Severity: b.Severity, ResourceTypes: b.ResourceTypes, Title: b.Title,
		Remediation: b.Remediation, Enabled: b.Enabled}
}

// dryRunLimit reads the limit of a dry run: how many matches to list.
func dryRunLimit(q query) (int, error) {
	s := q["limit"]
	if s == "" {
		return engine.DefaultDryRunLimit, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > 1000 {
		return 0, &engine.Error{Code: engine.CodeInvalidLimit, Field: "limit", Message: "limit must be an integer from 0 to 1000; got " + quote(s)}
	}
	return n, nil
}

// errDryRunField refuses dry_run in a policy body.
var errDryRunField = engine.FieldErrorf("dry_run",
	"dry_run is not a policy field: dry-run a new policy with POST /v1/policies/dry_run, a stored one with POST /v1/policies/{id}/test")

// createPolicy serves POST /v1/policies: 201 with the policy.
func (a *api) createPolicy(w http.ResponseWriter, r *http.Request) error {
	if _, err := parseQuery(r); err != nil {
		return err
	}
	var b policyBody
	if err := decodeJSON(r, &b); err != nil {
		return err
	}
	if b.DryRun != nil {
		return errDryRunField
	}
	p, err := a.policies.CreatePolicy(r.Context(), principal(r), b.input())
	if err != nil {
		return err
	}
	w.Header().Set("Location", "/v1/policies/"+p.ID)
	writeJSON(w, http.StatusCreated, p)
	return nil
}

// dryRunPolicy serves POST /v1/policies/dry_run: 200 with what the policy
// in the body would match on the current inventory; nothing is stored.
func (a *api) dryRunPolicy(w http.ResponseWriter, r *http.Request) error {
	q, err := parseQuery(r, "limit")
	if err != nil {
		return err
	}
	var b policyBody
	if err := decodeJSON(r, &b); err != nil {
		return err
	}
	if b.DryRun != nil {
		return errDryRunField
	}
	limit, err := dryRunLimit(q)
	if err != nil {
		return err
	}
	res, err := a.policies.DryRunNewPolicy(r.Context(), principal(r), b.input(), limit)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, res)
	return nil
}

// updatePolicy serves PATCH /v1/policies/{id}: a new version.
func (a *api) updatePolicy(w http.ResponseWriter, r *http.Request) error {
	if _, err := parseQuery(r); err != nil {
		return err
	}
	var b policyBody
	if err := decodeJSON(r, &b); err != nil {
		return err
	}
	if b.DryRun != nil {
		return errDryRunField
	}
	p, err := a.policies.UpdatePolicy(r.Context(), principal(r), r.PathValue("id"), b.input())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, p)
	return nil
}

// deletePolicy serves DELETE /v1/policies/{id}: 204.
func (a *api) deletePolicy(w http.ResponseWriter, r *http.Request) error {
	if _, err := parseQuery(r); err != nil {
		return err
	}
	if err := a.policies.DeletePolicy(r.Context(), principal(r), r.PathValue("id")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// testPolicy serves POST /v1/policies/{id}/test: a dry run of a stored
// policy on the current inventory.
func (a *api) testPolicy(w http.ResponseWriter, r *http.Request) error {
	q, err := parseQuery(r, "limit")
	if err != nil {
		return err
	}
	limit, err := dryRunLimit(q)
	if err != nil {
		return err
	}
	res, err := a.policies.TestPolicy(r.Context(), principal(r), r.PathValue("id"), limit)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, res)
	return nil
}
