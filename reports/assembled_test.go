package reports

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
)

// generate queues a report of kind on the current audit, runs one worker
// pass and returns the report as stored.
func (a *assembled) generate(t *testing.T, kind engine.ReportKind) engine.Report {
	t.Helper()
	ctx := context.Background()
	r, err := a.reports.GenerateReport(ctx, a.writer, engine.GenerateReportInput{Kind: string(kind)})
	if err != nil {
		t.Fatalf("GenerateReport(%s): %v", kind, err)
	}
	if _, ok, err := a.reportRunner.RunReportOnce(ctx, "w1"); err != nil || !ok {
		t.Fatalf("RunReportOnce = %v, %v; want the report generated", ok, err)
	}
	got, err := a.reports.GetReport(ctx, a.writer, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func (a *assembled) download(t *testing.T, id, format string) []byte {
	t.Helper()
	d, err := a.reports.DownloadReport(context.Background(), a.writer, id, format)
	if err != nil {
		t.Fatalf("DownloadReport(%s, %s): %v", id, format, err)
	}
	return d.Content
}

// TestAssembledReports runs the report worker for each kind on the fixed
// data set, compares the JSON document with testdata/assembled (-update
// rewrites it; the report id, the only random part, is masked) and checks
// that the PDF, as pdftotext reads it, shows the document's figures.
func TestAssembledReports(t *testing.T) {
	a := newAssembled(t, nil)
	for _, kind := range engine.ReportKinds {
		t.Run(string(kind), func(t *testing.T) {
			r := a.generate(t, kind)
			if r.Status != engine.ReportReady || r.AuditID != a.cur.ID {
				t.Fatalf("report %+v; want ready on audit %s", r, a.cur.ID)
			}
			doc := a.download(t, r.ID, "json")
			masked := bytes.ReplaceAll(doc, []byte(r.ID), []byte("rpt_REPORT"))
			path := filepath.Join("testdata", "assembled", string(kind)+".golden.json")
			if *update {
				if err := os.WriteFile(path, masked, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), string(masked)); diff != "" {
				t.Errorf("document differs from %s (-want +got):\n%s", path, diff)
			}
			var d engine.ReportDocument
			if err := json.Unmarshal(doc, &d); err != nil {
				t.Fatal(err)
			}
			pdf := a.download(t, r.ID, "pdf")
			text := squash(pdfToText(t, pdf, t.TempDir()))
			for _, s := range expectedInPDF(t, d) {
				if !strings.Contains(text, s) {
					t.Errorf("the PDF does not show %q; its text:\n%s", s, text)
				}
			}
		})
	}
}

// TestExecutiveComplianceAgreesWithEvidence: the executive summary's
// compliance posture per framework is the compliance evidence report's
// score over the same audit (it counted not-applicable controls as passing
// before: 91.4 % against 62.5 % for CIS v3.0.0 on this data set).
func TestExecutiveComplianceAgreesWithEvidence(t *testing.T) {
	a := newAssembled(t, nil)
	docs := map[engine.ReportKind]engine.ReportDocument{}
	for _, kind := range []engine.ReportKind{engine.ReportExecutiveSummary, engine.ReportComplianceEvidence} {
		var d engine.ReportDocument
		if err := json.Unmarshal(a.download(t, a.generate(t, kind).ID, "json"), &d); err != nil {
			t.Fatal(err)
		}
		docs[kind] = d
	}
	scores := map[string]float64{}
	for _, f := range docs[engine.ReportComplianceEvidence].ComplianceEvidence.Frameworks {
		if f.ScorePercent != nil {
			scores[f.ID] = *f.ScorePercent
		}
	}
	posture := docs[engine.ReportExecutiveSummary].ExecutiveSummary.Compliance
	if len(posture) == 0 {
		t.Fatal("no compliance posture in the executive summary")
	}
	for _, p := range posture {
		if want, ok := scores[p.Framework]; !ok || p.PassingPercent != want || p.Checked == 0 {
			t.Errorf("%s: executive summary says %.1f%% of %d assessed controls; the evidence report scores %.1f%% (present: %v)",
				p.Framework, p.PassingPercent, p.Checked, want, ok)
		}
	}
}

// expectedInPDF lists what a reader must find in the PDF of d: the
// document's own figures, formatted as the renderer formats them.
func expectedInPDF(t *testing.T, d engine.ReportDocument) []string {
	t.Helper()
	want := []string{d.Header.TenantName, d.Header.AuditID}
	switch {
	case d.ExecutiveSummary != nil:
		es := d.ExecutiveSummary
		want = append(want, fmt.Sprintf("%.1f", es.Posture.Score), fmt.Sprint(es.OpenFindings))
		if len(es.TopAccounts) == 0 || len(es.TopRules) == 0 {
			t.Fatalf("executive summary without top accounts or rules: %+v", es)
		}
		for _, ac := range es.TopAccounts {
			want = append(want, fmt.Sprintf("%s %d %d %d", ac.Account, ac.Open, ac.Critical, ac.High))
		}
		for _, r := range es.TopRules {
			want = append(want, r.RuleID)
		}
	case d.RemediationPlan != nil:
		p := d.RemediationPlan
		want = append(want, fmt.Sprint(p.Summary.Findings))
		if len(p.Groups) == 0 {
			t.Fatal("remediation plan without groups")
		}
		for _, g := range p.Groups {
			want = append(want, g.RuleID)
		}
	case d.ComplianceEvidence != nil:
		if len(d.ComplianceEvidence.Frameworks) == 0 {
			t.Fatal("compliance evidence without frameworks")
		}
		for _, f := range d.ComplianceEvidence.Frameworks {
			want = append(want, f.ID, fmt.Sprintf("%d passed", f.Passed), fmt.Sprintf("%d failed", f.Failed))
		}
	}
	return want
}

// pdfToText writes pdf to dir and returns its text as pdftotext -layout
// reads it.
func pdfToText(t *testing.T, pdf []byte, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "report.pdf")
	if err := os.WriteFile(path, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(tool(t, "pdftotext"), "-layout", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	return string(out)
}

// failingRenderer renders JSON but fails on PDF.
type failingRenderer struct{ Renderer }

func (failingRenderer) RenderPDF(io.Writer, engine.ReportDocument) error {
	return errors.New("font cache is corrupt")
}

func (f failingRenderer) NewRemediationWriter(jsonW, pdfW io.Writer, doc engine.ReportDocument) (engine.RemediationWriter, error) {
	return nil, errors.New("font cache is corrupt")
}

// TestAssembledReportFailures: a report whose rendering fails is failed
// with a reason that hides the internal error, and cannot be downloaded;
// a report claimed by a worker that died is claimed again by another once
// the lease ran out.
func TestAssembledReportFailures(t *testing.T) {
	t.Run("renderer fails", func(t *testing.T) {
		a := newAssembled(t, failingRenderer{})
		for _, kind := range engine.ReportKinds {
			r := a.generate(t, kind)
			if r.Status != engine.ReportFailed || !strings.Contains(r.Error, "internal error while generating the report") ||
				strings.Contains(r.Error, "font cache") {
				t.Errorf("%s: status %s, error %q; want failed with the generic reason", kind, r.Status, r.Error)
			}
			_, err := a.reports.DownloadReport(context.Background(), a.writer, r.ID, "pdf")
			if engine.ErrorCode(err) != engine.CodeConflict || !strings.Contains(engine.ErrorMessage(err), r.Error) {
				t.Errorf("%s: download of a failed report: %v; want conflict with the reason", kind, err)
			}
		}
	})
	t.Run("lease expired", func(t *testing.T) {
		a := newAssembled(t, nil)
		ctx := context.Background()
		r, err := a.reports.GenerateReport(ctx, a.writer, engine.GenerateReportInput{Kind: "executive_summary"})
		if err != nil {
			t.Fatal(err)
		}
		// A worker claims it and dies.
		if _, err := a.pg.ClaimReportJob(ctx, "dead", time.Minute); err != nil {
			t.Fatal(err)
		}
		if _, ok, err := a.reportRunner.RunReportOnce(ctx, "w2"); err != nil || ok {
			t.Fatalf("within the lease: RunReportOnce = %v, %v; want nothing to claim", ok, err)
		}
		a.clock.Advance(61 * time.Second)
		if _, ok, err := a.reportRunner.RunReportOnce(ctx, "w2"); err != nil || !ok {
			t.Fatalf("after the lease: RunReportOnce = %v, %v; want the report re-claimed", ok, err)
		}
		got, err := a.reports.GetReport(ctx, a.writer, r.ID)
		if err != nil || got.Status != engine.ReportReady {
			t.Fatalf("report after re-claim: %+v, %v; want ready", got, err)
		}
	})
}
