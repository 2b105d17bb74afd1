package reports

import (
	"fmt"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// expectedText lists what a reader must find in the PDF of doc: the
// identification and the figures of the JSON document, formatted as the
// PDF shows them.
func expectedText(doc engine.ReportDocument) []string {
	h := doc.Header
	want := []string{h.TenantName, h.TenantID, h.AuditID, h.PreviousAuditID, h.ReportID,
		stamp(h.AuditCompletedAt), "Zürich-backup", "données-clients"}
	if doc.ExecutiveSummary == nil { // the executive summary is short: no contents page
		want = append(want, "Contents")
	}
	switch {
	case doc.ExecutiveSummary != nil:
		s := doc.ExecutiveSummary
		want = append(want, fmt.Sprintf("%.1f", s.Posture.Score), fmt.Sprintf("%+.1f since the previous audit", *s.Posture.Delta),
			count(s.OpenFindings), usd(s.CostWaste.MonthlyUSD), "東京-logs",
			fmt.Sprintf("over %s resources scanned", count(s.Posture.ResourcesScanned)),
			fmt.Sprintf("here %s weighted open findings", count(int64(math.Round(s.Posture.WeightedOpen)))),
			"Posture", "Open findings by severity and dimension", "Trend over the last audits", "Accounts ranked by open findings",
			"Top risky resources", "Top rules", "Cost waste", costSummary(s.CostWaste), "What changed since the previous audit",
			fmt.Sprintf("New findings: %s. Resolved findings: %s. Severity changed: %s.",
				count(s.Changes.New), count(s.Changes.Resolved), count(s.Changes.SeverityChanged)))
		for _, r := range s.Matrix {
			want = append(want, fmt.Sprintf("%s %s %s %s %s %s", r.Severity, count(r.Security), count(r.Cost),
				count(r.Architecture), count(r.Compliance), count(r.Total)))
		}
		for _, a := range s.TopAccounts {
			want = append(want, fmt.Sprintf("%s %s %s %s", a.Account, count(a.Open), count(a.Critical), count(a.High)))
		}
		for _, r := range s.CostWaste.ByRule {
			want = append(want, r.RuleID, costCell(r), costBasis(r))
		}
		want = append(want, "Key messages", "Top actions", "Compliance posture by framework", exposureText(s))
		for _, m := range s.KeyMessages {
			want = append(want, m.Text)
		}
		for _, a := range s.TopActions {
			want = append(want, fmt.Sprintf("%s %s %s %.1f %.1f", a.Severity, count(a.Open), count(int64(a.RiskRemoved)), a.EffortHours, a.RiskPerHour))
		}
		for _, f := range s.Compliance {
			want = append(want, fmt.Sprintf("%d %d %d", f.Controls, f.Checked, f.Failing))
		}
		for _, p := range s.Trend {
			want = append(want, fmt.Sprintf("%s %s %s", count(p.OpenFindings), count(p.Critical), count(p.High)))
		}
	case doc.RemediationPlan != nil:
		p := doc.RemediationPlan
		want = append(want, count(p.Summary.Findings), hours(p.Summary.EffortHours), "Overview", "Playbooks: how to fix each rule",
			"Work by owner", "東京-logs", "not tagged")
		for _, c := range p.Summary.Checklist {
			want = append(want, "☐ "+c)
		}
		for _, pb := range p.Playbooks {
			want = append(want, pb.RuleID+" — "+pb.Title)
			for i, s := range pb.Steps {
				want = append(want, fmt.Sprintf("%d. %s", i+1, s))
			}
		}
		for _, o := range p.Summary.Owners {
			want = append(want, "Owner: "+o.Owner)
		}
		for _, g := range p.Groups {
			want = append(want, fmt.Sprintf("%d. %s — %s", g.Priority, g.RuleID, g.Title),
				fmt.Sprintf("%s resources (%s production) · effort %s", count(g.ResourcesTotal), count(g.ProdResources), hours(g.EffortHours)))
			for _, r := range g.Resources {
				if r.NativeID != "" {
					want = append(want, r.NativeID)
				}
			}
			if g.ResourcesOmitted > 0 {
				want = append(want, fmt.Sprintf("… and %s more resources", count(g.ResourcesOmitted)))
			}
		}
	case doc.ComplianceEvidence != nil:
		for _, f := range doc.ComplianceEvidence.Frameworks {
			score := "no control assessed"
			if f.ScorePercent != nil {
				score = fmt.Sprintf("score %.1f%%", *f.ScorePercent)
			}
			want = append(want, f.ID, fmt.Sprintf("%d controls, %s: %d passed, %d failed, %d insufficient data, %d not applicable, %d manual, %d not assessed",
				len(f.Controls), score, f.Passed, f.Failed, f.InsufficientData, f.NotApplicable, f.Manual, f.NotAssessed))
			for _, c := range f.Controls {
				if !strings.HasPrefix(f.ID, "CIS-") && len(c.Rules) == 0 {
					continue // counted, not listed
				}
				want = append(want, fmt.Sprintf("%s %s", c.ID, strings.Fields(c.Title)[0]),
					strings.ReplaceAll(string(c.Status), "_", " "))
			}
		}
		for _, c := range doc.ComplianceEvidence.Checks {
			want = append(want, c.RuleID+" — "+c.Title, "Fails "+controlRefsText(c.Controls))
			for _, r := range c.FailingResources {
				want = append(want, r.NativeID, r.Name)
			}
		}
	}
	return want
}

func TestRenderPDF(t *testing.T) {
	dir := os.Getenv("FOURD_REPORTS_PNG_DIR") // set to keep the pages to look at
	if dir == "" {
		dir = t.TempDir()
	}
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			doc := fx.doc()
			text, pages := pdfText(t, doc, dir)
			flat := squash(text)
			for _, w := range expectedText(doc) {
				if !strings.Contains(flat, squash(w)) {
					t.Errorf("PDF text lacks %q", w)
				}
			}
			if !strings.Contains(flat, fmt.Sprintf("Page %d of %d", pages, pages)) {
				t.Errorf("no footer on the last page %d", pages)
			}
			prefix := filepath.Join(dir, fx.name)
			out, err := exec.Command(tool(t, "pdftoppm"), "-png", "-r", "60", prefix+".pdf", prefix).CombinedOutput()
			if err != nil {
				t.Fatalf("pdftoppm: %v: %s", err, out)
			}
			pngs, _ := filepath.Glob(prefix + "-*.png")
			if len(pngs) != pages {
				t.Fatalf("pdftoppm rendered %d pages, want %d", len(pngs), pages)
			}
			slices.Sort(pngs)
			if doc.ExecutiveSummary != nil {
				executiveLayout(t, doc.ExecutiveSummary, text, pngs)
				executivePages(t, prefix+".pdf")
				return
			}
			// The TOC is written last onto page 2 (SetPage); its title once
			// took a pale colour from another page's state.
			if dark := darkPixels(t, pngs[1], 15, 20, 45, 29); dark < 20 {
				t.Errorf("the title \"Contents\" on page 2 is not drawn dark (%d dark pixels)", dark)
			}
		})
	}
}

// TestRenderPDFEmpty renders documents with nothing in them: every section
// says so instead of drawing empty charts.
func TestRenderPDFEmpty(t *testing.T) {
	hdr := func(k engine.ReportKind) engine.ReportHeader {
		h := fxHeader(k, "rpt_empty")
		h.PreviousAuditID = ""
		return h
	}
	docs := []engine.ReportDocument{
		{SchemaVersion: engine.ReportSchemaVersion, Header: hdr(engine.ReportExecutiveSummary), ExecutiveSummary: &engine.ExecutiveSummaryReport{
			Posture: engine.PostureScore{Score: 100}, Matrix: []engine.SeverityRow{}}},
		{SchemaVersion: engine.ReportSchemaVersion, Header: hdr(engine.ReportRemediationPlan),
			RemediationPlan: &engine.RemediationPlanReport{Groups: []engine.RemediationGroup{}}},
		{SchemaVersion: engine.ReportSchemaVersion, Header: hdr(engine.ReportComplianceEvidence),
			ComplianceEvidence: &engine.ComplianceEvidenceReport{}},
	}
	wants := [][]string{
		{"No open findings.", "No completed audit in the trend.", "No open cost findings.", "first audit: no previous score", "none (first audit)",
			"no earlier audit to compare"},
		{"No open findings: nothing to remediate."},
		{"No framework is mapped by the rules in scope."},
	}
	for i, doc := range docs {
		t.Run(string(doc.Header.Kind), func(t *testing.T) {
			text, _ := pdfText(t, doc, t.TempDir())
			for _, w := range wants[i] {
				if !strings.Contains(squash(text), w) {
					t.Errorf("PDF text lacks %q", w)
				}
			}
		})
	}
}

// darkPixels counts the pixels of a 60 dpi page image, inside the box from
// (x0, y0) to (x1, y1) millimetres, that are dark enough to be body or title
// text.
func darkPixels(t *testing.T, path string, x0, y0, x1, y1 float64) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	px := func(mm float64) int { return int(mm * 60 / 25.4) }
	n := 0
	for y := px(y0); y < px(y1); y++ {
		for x := px(x0); x < px(x1); x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if (r+g+b)>>8 < 3*128 {
				n++
			}
		}
	}
	return n
}

// executiveLayout checks the executive summary's pages as images and text:
// every page but the last is more than a quarter full (ink below the first
// quarter of the body), and no id is broken across lines.
func executiveLayout(t *testing.T, s *engine.ExecutiveSummaryReport, text string, pngs []string) {
	t.Helper()
	const bodyBottom = 297.0 - 18.0
	quarter := bodyTop + (bodyBottom-bodyTop)/4
	for i, p := range pngs[:len(pngs)-1] {
		if dark := darkPixels(t, p, 15, quarter, 195, bodyBottom); dark < 50 {
			t.Errorf("page %d is less than a quarter full (%d dark pixels below %.0f mm)", i+1, dark, quarter)
		}
	}
	var ids []string
	for _, p := range s.Trend {
		ids = append(ids, p.AuditID)
	}
	for _, r := range s.TopResources {
		ids = append(ids, r.ResourceID)
	}
	for _, a := range s.TopActions {
		ids = append(ids, a.RuleID)
	}
	for _, id := range ids {
		if !strings.Contains(text, id) {
			t.Errorf("id %s is broken across lines (or missing)", id)
		}
	}
}

// executivePages checks the executive summary's two pages: page 1 holds
// the posture, the key messages, the top actions and the compliance
// posture, page 2 the charts, the accounts and the cost estimate, and the
// appendix starts on page 3.
func executivePages(t *testing.T, pdf string) {
	t.Helper()
	want := [][]string{
		{"Posture", "Key messages", "Top actions", "Compliance posture by framework"},
		{"Open findings by severity and dimension", "Trend over the last audits", "Accounts ranked by open findings", "Cost estimate"},
		{"Appendix", "How the figures are computed"},
	}
	for i, ws := range want {
		page := fmt.Sprint(i + 1)
		out, err := exec.Command(tool(t, "pdftotext"), "-f", page, "-l", page, "-layout", pdf, "-").Output()
		if err != nil {
			t.Fatalf("pdftotext page %s: %v", page, err)
		}
		for _, w := range ws {
			if !strings.Contains(string(out), w) {
				t.Errorf("page %s lacks %q", page, w)
			}
		}
		if i < 2 && strings.Contains(string(out), "Appendix") {
			t.Errorf("the appendix starts on page %s, want 3", page)
		}
	}
}
