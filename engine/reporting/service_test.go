package reporting

import (
	"context"
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/internal/enginetest"
	"github.com/google/go-cmp/cmp"
)

// noReads is a Reads that no test here reaches (generation runs in
// workers, tested over real stores in reports/ and rest/).
type noReads struct{ Reads }

// fakeReports is an in-memory ReportStore and ReportJobs.
type fakeReports struct {
	reports map[string]engine.Report
	content map[string][]byte // id/format
}

func (f *fakeReports) CreateReport(_ context.Context, r engine.Report) error {
	f.reports[r.ID] = r
	return nil
}

func (f *fakeReports) GetReport(_ context.Context, tenant, id string) (engine.Report, error) {
	r, ok := f.reports[id]
	if !ok || r.TenantID != tenant {
		return engine.Report{}, engine.ErrNotFound("report", id)
	}
	return r, nil
}

func (f *fakeReports) ListReports(context.Context, engine.ReportQuery) ([]engine.Report, error) {
	return nil, nil
}

func (f *fakeReports) ReportContent(_ context.Context, tenant, id, format string) ([]byte, error) {
	b, ok := f.content[id+"/"+format]
	if !ok || f.reports[id].TenantID != tenant {
		return nil, engine.ErrNotFound("report", id)
	}
	return b, nil
}

// testEnv is a Service over fakes, with a clock tests move.
type testEnv struct {
	audits *enginetest.AuditList
	now    time.Time
}

// completedAudit records a completed audit of tenant.
func (e *testEnv) completedAudit(t *testing.T, tenant string) string {
	t.Helper()
	e.now = e.now.Add(time.Minute)
	done := e.now
	a := engine.Audit{ID: engine.NewID(engine.PrefixAudit, e.now), TenantID: tenant, Status: engine.AuditCompleted, CompletedAt: &done}
	e.audits.Audits = append(e.audits.Audits, a)
	return a.ID
}

func newReportEnv(t *testing.T) (*Service, *fakeReports, *testEnv) {
	t.Helper()
	env := &testEnv{audits: &enginetest.AuditList{}, now: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}
	reps := &fakeReports{reports: map[string]engine.Report{}, content: map[string][]byte{}}
	svc, _, err := New(Config{Reports: reps, Audits: env.audits, Reads: noReads{}, Resources: noResources{}, Jobs: reps,
		Secret: []byte(strings.Repeat("s", 32)), Now: func() time.Time { return env.now }})
	if err != nil {
		t.Fatal(err)
	}
	return svc, reps, env
}

// noResources is a Resources that no test here reaches.
type noResources struct{ Resources }

var reportWriter = engine.Principal{TenantID: "ten_a", Scopes: []engine.Scope{engine.ScopeReportsRead, engine.ScopeReportsWrite}}

func TestGenerateReport(t *testing.T) {
	svc, reps, env := newReportEnv(t)
	ctx := context.Background()
	mine := env.completedAudit(t, "ten_a")
	latest := env.completedAudit(t, "ten_a")
	theirs := env.completedAudit(t, "ten_b")
	env.now = env.now.Add(time.Minute)
	running := engine.Audit{ID: engine.NewID(engine.PrefixAudit, env.now), TenantID: "ten_a", Status: engine.AuditRunning}
	env.audits.Audits = append(env.audits.Audits, running)

	tests := []struct {
		name      string
		p         engine.Principal
		in        engine.GenerateReportInput
		wantCode  string
		wantAudit string
		wantFlt   string
	}{
		{"latest audit by default", reportWriter, engine.GenerateReportInput{Kind: "executive_summary"}, "", latest, `{"dimensions":[],"severities":[],"accounts":[],"frameworks":[]}`},
		{"named audit, filters sorted and deduplicated", reportWriter, engine.GenerateReportInput{Kind: "compliance_evidence", AuditID: mine,
			Filters: engine.ReportFiltersInput{Severities: []string{"high", "critical", "high"}, Frameworks: []string{"CIS-AWS-3.0"}}},
			"", mine, `{"dimensions":[],"severities":["critical","high"],"accounts":[],"frameworks":["CIS-AWS-3.0"]}`},
		{"unknown kind", reportWriter, engine.GenerateReportInput{Kind: "weekly"}, engine.CodeValidationFailed, "", ""},
		{"unknown dimension", reportWriter, engine.GenerateReportInput{Kind: "remediation_plan", Filters: engine.ReportFiltersInput{Dimensions: []string{"speed"}}}, engine.CodeValidationFailed, "", ""},
		{"unknown severity", reportWriter, engine.GenerateReportInput{Kind: "remediation_plan", Filters: engine.ReportFiltersInput{Severities: []string{"urgent"}}}, engine.CodeInvalidSeverityFilter, "", ""},
		{"frameworks on another kind", reportWriter, engine.GenerateReportInput{Kind: "remediation_plan", Filters: engine.ReportFiltersInput{Frameworks: []string{"CIS-AWS-3.0"}}}, engine.CodeValidationFailed, "", ""},
		{"another tenant's audit", reportWriter, engine.GenerateReportInput{Kind: "executive_summary", AuditID: theirs}, engine.CodeNotFound, "", ""},
		{"malformed audit id", reportWriter, engine.GenerateReportInput{Kind: "executive_summary", AuditID: "nope"}, engine.CodeNotFound, "", ""},
		{"audit not completed", reportWriter, engine.GenerateReportInput{Kind: "executive_summary", AuditID: running.ID}, engine.CodeConflict, "", ""},
		{"no completed audit", engine.Principal{TenantID: "ten_c", Scopes: reportWriter.Scopes}, engine.GenerateReportInput{Kind: "executive_summary"}, engine.CodeConflict, "", ""},
		{"read-only token", engine.Principal{TenantID: "ten_a", Scopes: []engine.Scope{engine.ScopeReportsRead}}, engine.GenerateReportInput{Kind: "executive_summary"}, engine.CodeInsufficientScope, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := svc.GenerateReport(ctx, tc.p, tc.in)
			if got := engine.ErrorCode(err); got != tc.wantCode {
				t.Fatalf("code %q (%v), want %q", got, err, tc.wantCode)
			}
			if tc.wantCode != "" {
				return
			}
			if r.Status != engine.ReportPending || r.AuditID != tc.wantAudit || string(r.Filters) != tc.wantFlt {
				t.Errorf("report %+v (filters %s), want pending on %s with %s", r, r.Filters, tc.wantAudit, tc.wantFlt)
			}
			if diff := cmp.Diff(r, reps.reports[r.ID]); diff != "" {
				t.Errorf("stored report (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDownloadReport(t *testing.T) {
	svc, reps, _ := newReportEnv(t)
	ctx := context.Background()
	doc := []byte(`{"schema_version":"x"}`)
	at := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	ready, pending, failed := engine.NewID(engine.PrefixReport, at), engine.NewID(engine.PrefixReport, at), engine.NewID(engine.PrefixReport, at)
	reps.reports[ready] = engine.Report{ID: ready, TenantID: "ten_a", Kind: engine.ReportExecutiveSummary, Status: engine.ReportReady, AuditID: "aud_1"}
	reps.reports[pending] = engine.Report{ID: pending, TenantID: "ten_a", Status: engine.ReportPending}
	reps.reports[failed] = engine.Report{ID: failed, TenantID: "ten_a", Status: engine.ReportFailed, Error: "analytics store unavailable"}
	reps.content[ready+"/json"] = doc
	tests := []struct {
		name, id, format, wantCode, wantMsg string
		p                                   engine.Principal
	}{
		{"ready json", ready, "json", "", "", reportWriter},
		{"unknown format", ready, "docx", engine.CodeValidationFailed, "format must be json, pdf or html", reportWriter},
		// HTML is rendered from the stored JSON document on download; this
		// Service has no renderer.
		{"html without a renderer", ready, "html", engine.CodeUnavailable, "not configured", reportWriter},
		{"pending", pending, "pdf", engine.CodeConflict, "still being generated", reportWriter},
		{"failed", failed, "pdf", engine.CodeConflict, "analytics store unavailable", reportWriter},
		{"another tenant's", ready, "json", engine.CodeNotFound, "", engine.Principal{TenantID: "ten_b", Scopes: reportWriter.Scopes}},
		{"no reports scope", ready, "json", engine.CodeInsufficientScope, "", engine.Principal{TenantID: "ten_a", Scopes: []engine.Scope{engine.ScopeFindingsRead}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := svc.DownloadReport(ctx, tc.p, tc.id, tc.format)
			if got := engine.ErrorCode(err); got != tc.wantCode || !strings.Contains(engine.ErrorMessage(err), tc.wantMsg) {
				t.Fatalf("error %v, want code %q with %q", err, tc.wantCode, tc.wantMsg)
			}
			if tc.wantCode != "" {
				return
			}
			want := engine.ReportDownload{Content: doc, ContentType: "application/json",
				Filename: "fourd-executive_summary-aud_1-" + ready + ".json",
				ETag:     fmt.Sprintf(`"%x"`, sha256.Sum256(doc))}
			if diff := cmp.Diff(want, d); diff != "" {
				t.Errorf("download (-want +got):\n%s", diff)
			}
		})
	}
}
