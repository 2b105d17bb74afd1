package engine

import (
	"context"
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// fakeReports is an in-memory ReportStore and ReportJobs.
type fakeReports struct {
	*fakeControl
	reports map[string]Report
	content map[string][]byte // id/format
}

func (f *fakeReports) CreateReport(_ context.Context, r Report) error {
	f.reports[r.ID] = r
	return nil
}

func (f *fakeReports) GetReport(_ context.Context, tenant, id string) (Report, error) {
	r, ok := f.reports[id]
	if !ok || r.TenantID != tenant {
		return Report{}, ErrNotFound("report", id)
	}
	return r, nil
}

func (f *fakeReports) ReportContent(_ context.Context, tenant, id, format string) ([]byte, error) {
	b, ok := f.content[id+"/"+format]
	if !ok || f.reports[id].TenantID != tenant {
		return nil, ErrNotFound("report", id)
	}
	return b, nil
}

func newReportEnv(t *testing.T) (*Service, *fakeReports, *testEnv) {
	t.Helper()
	env := newTestEnv(t)
	reps := &fakeReports{fakeControl: env.control, reports: map[string]Report{}, content: map[string][]byte{}}
	svc, err := NewService(Config{Findings: env.findings, Resources: env.resources, Tenants: env.control,
		Audits: env.control, Policies: env.control, Reports: reps, Reporting: ReportConfig{Jobs: reps},
		Secret: []byte(strings.Repeat("s", 32)), Now: func() time.Time { return env.now }})
	if err != nil {
		t.Fatal(err)
	}
	return svc, reps, env
}

var reportWriter = Principal{TenantID: "ten_a", Scopes: []Scope{ScopeReportsRead, ScopeReportsWrite}}

func TestGenerateReport(t *testing.T) {
	svc, reps, env := newReportEnv(t)
	ctx := context.Background()
	mine := env.completedAudit(t, "ten_a", 10)
	latest := env.completedAudit(t, "ten_a", 5)
	theirs := env.completedAudit(t, "ten_b", 3)
	env.now = env.now.Add(time.Minute)
	running := Audit{ID: NewID(PrefixAudit, env.now), TenantID: "ten_a", Status: AuditRunning}
	env.control.audits = append(env.control.audits, running)

	tests := []struct {
		name      string
		p         Principal
		in        GenerateReportInput
		wantCode  string
		wantAudit string
		wantFlt   string
	}{
		{"latest audit by default", reportWriter, GenerateReportInput{Kind: "executive_summary"}, "", latest, `{"dimensions":[],"severities":[],"accounts":[],"frameworks":[]}`},
		{"named audit, filters sorted and deduplicated", reportWriter, GenerateReportInput{Kind: "compliance_evidence", AuditID: mine,
			Filters: ReportFiltersInput{Severities: []string{"high", "critical", "high"}, Frameworks: []string{"CIS-AWS-3.0"}}},
			"", mine, `{"dimensions":[],"severities":["critical","high"],"accounts":[],"frameworks":["CIS-AWS-3.0"]}`},
		{"unknown kind", reportWriter, GenerateReportInput{Kind: "weekly"}, CodeValidationFailed, "", ""},
		{"unknown dimension", reportWriter, GenerateReportInput{Kind: "remediation_plan", Filters: ReportFiltersInput{Dimensions: []string{"speed"}}}, CodeValidationFailed, "", ""},
		{"unknown severity", reportWriter, GenerateReportInput{Kind: "remediation_plan", Filters: ReportFiltersInput{Severities: []string{"urgent"}}}, CodeInvalidSeverityFilter, "", ""},
		{"frameworks on another kind", reportWriter, GenerateReportInput{Kind: "remediation_plan", Filters: ReportFiltersInput{Frameworks: []string{"CIS-AWS-3.0"}}}, CodeValidationFailed, "", ""},
		{"another tenant's audit", reportWriter, GenerateReportInput{Kind: "executive_summary", AuditID: theirs}, CodeNotFound, "", ""},
		{"malformed audit id", reportWriter, GenerateReportInput{Kind: "executive_summary", AuditID: "nope"}, CodeNotFound, "", ""},
		{"audit not completed", reportWriter, GenerateReportInput{Kind: "executive_summary", AuditID: running.ID}, CodeConflict, "", ""},
		{"no completed audit", Principal{TenantID: "ten_c", Scopes: reportWriter.Scopes}, GenerateReportInput{Kind: "executive_summary"}, CodeConflict, "", ""},
		{"read-only token", Principal{TenantID: "ten_a", Scopes: []Scope{ScopeReportsRead}}, GenerateReportInput{Kind: "executive_summary"}, CodeInsufficientScope, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := svc.GenerateReport(ctx, tc.p, tc.in)
			if got := ErrorCode(err); got != tc.wantCode {
				t.Fatalf("code %q (%v), want %q", got, err, tc.wantCode)
			}
			if tc.wantCode != "" {
				return
			}
			if r.Status != ReportPending || r.AuditID != tc.wantAudit || string(r.Filters) != tc.wantFlt {
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
	ready, pending, failed := NewID(PrefixReport, at), NewID(PrefixReport, at), NewID(PrefixReport, at)
	reps.reports[ready] = Report{ID: ready, TenantID: "ten_a", Kind: ReportExecutiveSummary, Status: ReportReady, AuditID: "aud_1"}
	reps.reports[pending] = Report{ID: pending, TenantID: "ten_a", Status: ReportPending}
	reps.reports[failed] = Report{ID: failed, TenantID: "ten_a", Status: ReportFailed, Error: "analytics store unavailable"}
	reps.content[ready+"/json"] = doc
	tests := []struct {
		name, id, format, wantCode, wantMsg string
		p                                   Principal
	}{
		{"ready json", ready, "json", "", "", reportWriter},
		{"unknown format", ready, "docx", CodeValidationFailed, "format must be json, pdf or html", reportWriter},
		// HTML is rendered from the stored JSON document on download; this
		// Service has no renderer.
		{"html without a renderer", ready, "html", CodeUnavailable, "not configured", reportWriter},
		{"pending", pending, "pdf", CodeConflict, "still being generated", reportWriter},
		{"failed", failed, "pdf", CodeConflict, "analytics store unavailable", reportWriter},
		{"another tenant's", ready, "json", CodeNotFound, "", Principal{TenantID: "ten_b", Scopes: reportWriter.Scopes}},
		{"no reports scope", ready, "json", CodeInsufficientScope, "", Principal{TenantID: "ten_a", Scopes: []Scope{ScopeFindingsRead}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := svc.DownloadReport(ctx, tc.p, tc.id, tc.format)
			if got := ErrorCode(err); got != tc.wantCode || !strings.Contains(ErrorMessage(err), tc.wantMsg) {
				t.Fatalf("error %v, want code %q with %q", err, tc.wantCode, tc.wantMsg)
			}
			if tc.wantCode != "" {
				return
			}
			want := ReportDownload{Content: doc, ContentType: "application/json",
				Filename: "fourd-executive_summary-aud_1-" + ready + ".json",
				ETag:     fmt.Sprintf(`"%x"`, sha256.Sum256(doc))}
			if diff := cmp.Diff(want, d); diff != "" {
				t.Errorf("download (-want +got):\n%s", diff)
			}
		})
	}
}
