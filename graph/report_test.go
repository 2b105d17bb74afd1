package graph_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/testserver"
	"github.com/fourd-dev/fourd/reports"
)

// newReportEnv is newEnv with report generation and workers configured: a
// second Service over the same stores (tokens and seeds stay valid) serves
// both APIs.
func newReportEnv(t *testing.T) *env {
	t.Helper()
	e := newEnv(t, envOptions{findingsA: 60, findingsB: 20})
	s := e.stack.NewServices(t, testserver.Replica{Renderer: reports.Renderer{}})
	e.url = serveBoth(t, e.stack, s, nil, nil)
	e.svc, e.reports, e.audits, e.runner, e.reportRunner = s.Engine, s.Reporting, s.Audits, s.AuditRunner, s.ReportRunner
	return e
}

const generateReportMutation = `mutation($in: GenerateReportInput!) {
  generateReport(input: $in) { id kind status auditId checksum error audit { id status } pdf: downloadUrl json: downloadUrl(format: JSON) }
}`

// gqlReport is a Report as the mutation and the report query select it.
type gqlReport struct {
	ID       string `json:"id"`
	Kind     string `json:"kind"`
	Status   string `json:"status"`
	AuditID  string `json:"auditId"`
	Checksum string `json:"checksum"`
	Error    string `json:"error"`
	Audit    *struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	} `json:"audit"`
	PDF  *string `json:"pdf"`
	JSON *string `json:"json"`
}

// restReport is the REST body of a report, in GraphQL's spelling.
type restReport struct {
	ID       string `json:"id"`
	Kind     string `json:"kind"`
	Status   string `json:"status"`
	AuditID  string `json:"audit_id"`
	Checksum string `json:"checksum"`
	Error    string `json:"error"`
}

func (r restReport) asGraph() restReport {
	r.Kind, r.Status = strings.ToUpper(r.Kind), strings.ToUpper(r.Status)
	return r
}

func (g gqlReport) scalars() restReport {
	return restReport{ID: g.ID, Kind: g.Kind, Status: g.Status, AuditID: g.AuditID, Checksum: g.Checksum, Error: g.Error}
}

func TestGenerateReport(t *testing.T) {
	e := newReportEnv(t)
	ctx := context.Background()
	r := e.gql(t, e.tokA, generateReportMutation, map[string]any{"in": map[string]any{
		"kind": "EXECUTIVE_SUMMARY", "filters": map[string]any{"severities": []string{"HIGH", "critical"}}}})
	created := data[map[string]gqlReport](t, r)["generateReport"]
	wantCreated := gqlReport{ID: created.ID, Kind: "EXECUTIVE_SUMMARY", Status: "PENDING", AuditID: e.a.Audit.ID,
		Audit: &struct {
			ID     string `json:"id"`
			Status string `json:"status"`
		}{e.a.Audit.ID, "COMPLETED"}}
	if diff := cmp.Diff(wantCreated, created); diff != "" {
		t.Fatalf("created report (-want +got):\n%s", diff)
	}
	if !engine.ValidID(engine.PrefixReport, created.ID) {
		t.Fatalf("id %q is not a report id", created.ID)
	}

	// The worker makes it ready; then both APIs describe it alike.
	if _, ok, err := e.reportRunner.RunReportOnce(ctx, "test"); err != nil || !ok {
		t.Fatalf("RunReportOnce = %v, %v; want a report generated", ok, err)
	}
	var rest restReport
	if st := e.rest(t, "/v1/reports/"+created.ID, e.tokA, &rest); st != http.StatusOK {
		t.Fatalf("GET /v1/reports/%s: %d", created.ID, st)
	}
	q := `query($id: ID!) { report(id: $id) { id kind status auditId checksum error pdf: downloadUrl json: downloadUrl(format: JSON) } }`
	got := data[map[string]gqlReport](t, e.gql(t, e.tokA, q, map[string]any{"id": created.ID}))["report"]
	if diff := cmp.Diff(rest.asGraph(), got.scalars()); diff != "" {
		t.Errorf("report (-rest +graphql):\n%s", diff)
	}
	if got.Status != "READY" || len(got.Checksum) != 64 {
		t.Errorf("report status %s checksum %q; want READY with a sha256", got.Status, got.Checksum)
	}
	wantPaths := []string{"/v1/reports/" + created.ID + "/download?format=pdf", "/v1/reports/" + created.ID + "/download?format=json"}
	if diff := cmp.Diff(wantPaths, []string{deref(got.PDF), deref(got.JSON)}); diff != "" {
		t.Errorf("download paths (-want +got):\n%s", diff)
	}
	// The path downloads the document whose checksum the field gives.
	var doc struct {
		Header struct {
			ReportID string `json:"report_id"`
			Kind     string `json:"kind"`
		} `json:"header"`
	}
	if st := e.rest(t, deref(got.JSON), e.tokA, &doc); st != http.StatusOK || doc.Header.ReportID != created.ID || doc.Header.Kind != "executive_summary" {
		t.Errorf("GET %s: status %d, header %+v", deref(got.JSON), st, doc.Header)
	}
	// HTML is a format too: rendered from the same document on download.
	qh := `query($id: ID!) { report(id: $id) { html: downloadUrl(format: HTML) } }`
	var h struct{ Report struct{ HTML *string } }
	b, err := json.Marshal(data[map[string]any](t, e.gql(t, e.tokA, qh, map[string]any{"id": created.ID})))
	if err == nil {
		err = json.Unmarshal(b, &h)
	}
	if want := "/v1/reports/" + created.ID + "/download?format=html"; err != nil || deref(h.Report.HTML) != want {
		t.Errorf("downloadUrl(format: HTML) = %q (%v); want %q", deref(h.Report.HTML), err, want)
	}
}

func TestGenerateReportErrors(t *testing.T) {
	e := newReportEnv(t)
	for _, tc := range []struct {
		name     string
		in       map[string]any
		token    string
		wantCode string
	}{
		{"unknown kind", map[string]any{"kind": "weekly_digest"}, e.tokA, engine.CodeValidationFailed},
		{"unknown dimension", map[string]any{"kind": "REMEDIATION_PLAN", "filters": map[string]any{"dimensions": []string{"speed"}}}, e.tokA, engine.CodeValidationFailed},
		{"unknown severity", map[string]any{"kind": "REMEDIATION_PLAN", "filters": map[string]any{"severities": []string{"urgent"}}}, e.tokA, engine.CodeInvalidSeverityFilter},
		{"frameworks on a plan", map[string]any{"kind": "REMEDIATION_PLAN", "filters": map[string]any{"frameworks": []string{"CIS"}}}, e.tokA, engine.CodeValidationFailed},
		{"another tenant's audit", map[string]any{"kind": "EXECUTIVE_SUMMARY", "auditId": e.b.Audit.ID}, e.tokA, engine.CodeNotFound},
		{"missing audit", map[string]any{"kind": "EXECUTIVE_SUMMARY", "auditId": "aud_nope"}, e.tokA, engine.CodeNotFound},
		{"no reports:write", map[string]any{"kind": "EXECUTIVE_SUMMARY"}, e.tokAResources, engine.CodeInsufficientScope},
		{"kind missing", map[string]any{}, e.tokA, engine.CodeInvalidRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.gql(t, tc.token, generateReportMutation, map[string]any{"in": tc.in})
			if r.code() != tc.wantCode {
				t.Fatalf("code = %q, want %q (errors %+v)", r.code(), tc.wantCode, r.Errors)
			}
			// REST answers the same code for the same body.
			body, _ := json.Marshal(restBody(tc.in))
			req, _ := http.NewRequest(http.MethodPost, e.url+"/v1/reports", strings.NewReader(string(body)))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+tc.token)
			resp, err := e.client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var re restError
			_ = json.NewDecoder(resp.Body).Decode(&re)
			if tc.wantCode != engine.CodeInvalidRequest && re.Error.Code != tc.wantCode {
				t.Errorf("REST code = %q, want %q", re.Error.Code, tc.wantCode)
			}
		})
	}
	// Nothing was queued by the failures.
	if _, ok, err := e.reportRunner.RunReportOnce(context.Background(), "test"); err != nil || ok {
		t.Errorf("RunReportOnce = %v, %v; want nothing pending", ok, err)
	}
}

// restBody is a GraphQL input as the REST body spells it.
func restBody(in map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range in {
		switch k {
		case "auditId":
			out["audit_id"] = v
		case "kind":
			out[k] = strings.ToLower(v.(string))
		case "filters":
			f := map[string]any{}
			for fk, fv := range v.(map[string]any) {
				vs := []string{}
				for _, s := range fv.([]string) {
					vs = append(vs, strings.ToLower(s))
				}
				f[fk] = vs
			}
			out[k] = f
		default:
			out[k] = v
		}
	}
	return out
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}
