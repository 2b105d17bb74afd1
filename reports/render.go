// Package reports renders report documents: the JSON document that engine's
// analytic queries fill, and the PDF drawn from that same document with
// gofpdf (cover page, table of contents, running headers, "Page X of Y",
// vector charts, tables that break across pages, UTF-8 text with a CJK
// fallback font). A remediation plan can be written one group at a time,
// so memory stays bounded whatever the number of findings.
package reports

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/fourd-dev/fourd/engine"
)

// Renderer renders report documents; it is the engine.ReportRenderer that
// cmd/fourd injects.
type Renderer struct{}

var _ engine.ReportRenderer = Renderer{}

// RenderJSON writes the document as indented JSON, keys in the order of the
// document's struct fields.
func (Renderer) RenderJSON(w io.Writer, doc engine.ReportDocument) error { return RenderJSON(w, doc) }

// RenderPDF writes the document as a PDF.
func (Renderer) RenderPDF(w io.Writer, doc engine.ReportDocument) error { return RenderPDF(w, doc) }

// NewRemediationWriter starts a remediation plan written one group at a time.
func (Renderer) NewRemediationWriter(jsonW, pdfW io.Writer, doc engine.ReportDocument) (engine.RemediationWriter, error) {
	return NewRemediationWriter(jsonW, pdfW, doc)
}

// RenderJSON writes the document as indented JSON.
func RenderJSON(w io.Writer, doc engine.ReportDocument) error {
	if err := check(doc); err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}

// RenderPDF writes the document as a PDF; validation_failed when the body
// of the header's kind is missing.
func RenderPDF(w io.Writer, doc engine.ReportDocument) error {
	if err := check(doc); err != nil {
		return err
	}
	switch doc.Header.Kind {
	case engine.ReportExecutiveSummary:
		return executivePDF(w, doc.Header, doc.ExecutiveSummary)
	case engine.ReportComplianceEvidence:
		return compliancePDF(w, doc.Header, doc.ComplianceEvidence)
	default:
		rw, err := newRemediationPDF(w, doc.Header, doc.RemediationPlan.Summary)
		if err != nil {
			return err
		}
		for _, g := range doc.RemediationPlan.Groups {
			if err := rw.group(g); err != nil {
				return err
			}
		}
		return rw.close()
	}
}

// check reports a document whose kind is unknown or whose body is missing.
func check(doc engine.ReportDocument) error {
	ok := map[engine.ReportKind]bool{
		engine.ReportExecutiveSummary:   doc.ExecutiveSummary != nil,
		engine.ReportRemediationPlan:    doc.RemediationPlan != nil,
		engine.ReportComplianceEvidence: doc.ComplianceEvidence != nil,
	}
	present, known := ok[doc.Header.Kind]
	switch {
	case !known:
		return engine.FieldErrorf("kind", "unknown report kind %q", doc.Header.Kind)
	case !present:
		return engine.FieldErrorf("kind", "the document has no %s body", doc.Header.Kind)
	}
	return nil
}

// executivePDF renders an executive summary.
func executivePDF(w io.Writer, h engine.ReportHeader, s *engine.ExecutiveSummaryReport) error {
	d, err := newPDFDoc(h, kindTitles[h.Kind])
	if err != nil {
		return err
	}
	y := d.cover([][2]string{
		{fmt.Sprintf("%.1f", s.Posture.Score), "posture score"},
		{count(s.OpenFindings), "open findings"},
		{usd(s.CostWaste.MonthlyUSD), "monthly cost waste"},
		{count(s.Changes.New), "new since previous audit"},
	})
	d.gauge(pageW/2, y+21, 17, s.Posture)
	d.noTOC = true // a short document: the first page is its summary
	d.f.SetY(y + 42)
	executiveGlance(d, s)

	d.section("Posture", 1, false)
	d.paragraph(fmt.Sprintf("The posture score is %.1f out of 100 over %s resources scanned. It is 100 / (1 + D), "+
		"where D is the weighted open findings per resource (critical 10, high 5, medium 2, low 1, info 0): "+
		"here %s weighted open findings.", s.Posture.Score, count(s.Posture.ResourcesScanned),
		fmt.Sprintf("%.0f", s.Posture.WeightedOpen)), 9.5)
	d.section("Open findings by severity and dimension", 2, false)
	if s.OpenFindings == 0 {
		d.empty("No open findings.")
	} else {
		y := d.f.GetY()
		d.ensure(75 + 7*6.5) // the chart and its table (seven rows) on one page
		if d.f.GetY() != y {
			y = d.f.GetY()
		}
		d.severityBars(margin+18, y+6, contentW-20, 52, s.Matrix)
		d.f.SetY(y + 74)
	}
	t := d.newTable(8.5, column{"Severity", 40, "L"}, column{"Security", 28, "R"}, column{"Cost", 28, "R"},
		column{"Architecture", 28, "R"}, column{"Compliance", 28, "R"}, column{"Total", 28, "R"})
	var total engine.SeverityRow
	for _, r := range s.Matrix {
		t.row(string(r.Severity), count(r.Security), count(r.Cost), count(r.Architecture), count(r.Compliance), count(r.Total))
		for _, dim := range engine.Dimensions {
			total.Add(dim, r.Count(dim))
		}
	}
	t.row("all severities", count(total.Security), count(total.Cost), count(total.Architecture), count(total.Compliance), count(total.Total))
	t.end()

	if len(s.Trend) > 0 {
		d.ensure(100) // the heading, the chart and the first rows of the table together
	}
	d.section("Trend over the last audits", 2, false)
	if len(s.Trend) == 0 {
		d.empty("No completed audit in the trend.")
	} else {
		d.ensure(70)
		y := d.f.GetY()
		d.trendLines(margin+18, y+4, contentW-20, 46, s.Trend)
		d.f.SetY(y + 66)
		t := d.newTable(8, column{"Audit", 66, "L"}, column{"Completed", 38, "L"}, column{"Open", 22, "R"},
			column{"Critical", 18, "R"}, column{"High", 18, "R"}, column{"Score", 18, "R"})
		for _, p := range s.Trend {
			t.row(p.AuditID, stamp(p.CompletedAt), count(p.OpenFindings), count(p.Critical), count(p.High), fmt.Sprintf("%.1f", p.Score))
		}
		t.end()
	}
	executiveRankings(d, s)
	return d.output(w)
}

// executiveRankings renders the top lists, cost waste and changes.
func executiveRankings(d *pdfDoc, s *engine.ExecutiveSummaryReport) {
	d.section("Where the risk is", 1, false)
	d.section("Top accounts", 2, false)
	if len(s.TopAccounts) == 0 {
		d.empty("No open findings.")
	} else {
		t := d.newTable(8.5, column{"Account", 90, "L"}, column{"Open", 30, "R"}, column{"Critical", 30, "R"}, column{"High", 30, "R"})
		for _, a := range s.TopAccounts {
			t.row(a.Account, count(a.Open), count(a.Critical), count(a.High))
		}
		t.end()
	}
	d.section("Top risky resources", 2, false)
	if len(s.TopResources) == 0 {
		d.empty("No open findings.")
	} else {
		t := d.newTable(8, column{"Resource", 62, "L"}, column{"Type", 34, "L"}, column{"Account", 28, "L"},
			column{"Worst", 18, "L"}, column{"Open", 14, "R"}, column{"Weight", 24, "R"})
		for _, r := range s.TopResources {
			t.row(r.Name+"\n"+r.ResourceID, r.Type, r.Account, string(r.WorstSeverity), count(r.Open), fmt.Sprintf("%.0f", r.Weighted))
		}
		t.end()
	}
	d.section("Top rules", 2, false)
	if len(s.TopRules) == 0 {
		d.empty("No open findings.")
	} else {
		t := d.newTable(8, column{"Rule", 30, "L"}, column{"Title", 86, "L"}, column{"Severity", 20, "L"},
			column{"Dimension", 28, "L"}, column{"Open", 16, "R"})
		for _, r := range s.TopRules {
			t.row(r.RuleID, r.Title, string(r.Severity), string(r.Dimension), count(r.Open))
		}
		t.end()
	}
	d.section("Cost waste", 1, false)
	d.paragraph(costSummary(s.CostWaste), 9.5)
	if len(s.CostWaste.ByRule) == 0 {
		d.empty("No open cost findings.")
	} else {
		t := d.newTable(8, column{"Rule", 30, "L"}, column{"Title", 84, "L"}, column{"Findings", 20, "R"},
			column{"Basis", 20, "L"}, column{"Monthly", 26, "R"})
		for _, r := range s.CostWaste.ByRule {
			t.row(r.RuleID, r.Title, count(r.Findings), costBasis(r), costCell(r))
		}
		t.end()
	}
	d.section("What changed since the previous audit", 1, false)
	c := s.Changes
	d.paragraph(fmt.Sprintf("New findings: %s. Resolved findings: %s. Severity changed: %s.",
		count(c.New), count(c.Resolved), count(c.SeverityChanged)), 9.5)
	if len(c.Examples) == 0 {
		d.empty("No change to show.")
		return
	}
	t := d.newTable(8, column{"Change", 28, "L"}, column{"Rule", 28, "L"}, column{"Title", 70, "L"},
		column{"Resource", 34, "L"}, column{"Severity", 20, "L"})
	for _, e := range c.Examples {
		sev := string(e.Severity)
		if e.PreviousSeverity != "" {
			sev = string(e.PreviousSeverity) + " → " + sev
		}
		resource := e.ResourceName
		if resource == "" {
			resource = e.ResourceID
		}
		t.row(e.Change, e.RuleID, e.Title, resource, sev)
	}
	t.end()
}
