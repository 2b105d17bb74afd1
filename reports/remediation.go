package reports

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/fourd-dev/fourd/engine"
)

// RemediationWriter writes a remediation plan to JSON and PDF one group at
// a time: it holds the PDF being drawn (bounded by the plan's caps) and one
// group, never the finding set.
type RemediationWriter struct {
	jsonW  io.Writer
	pdfW   io.Writer
	suffix []byte
	n      int
	pdf    *remediationPDF
	closed bool
}

var _ engine.RemediationWriter = (*RemediationWriter)(nil)

// NewRemediationWriter writes the start of a remediation plan whose header
// and summary are in doc (its groups are ignored) to jsonW and starts its
// PDF; either writer may be nil to skip that format. validation_failed for
// a document of another kind.
func NewRemediationWriter(jsonW, pdfW io.Writer, doc engine.ReportDocument) (*RemediationWriter, error) {
	if doc.Header.Kind != engine.ReportRemediationPlan || doc.RemediationPlan == nil {
		return nil, engine.FieldErrorf("kind", "a remediation writer needs a remediation_plan document")
	}
	rw := &RemediationWriter{jsonW: jsonW, pdfW: pdfW}
	if jsonW != nil {
		head := doc
		plan := *doc.RemediationPlan
		plan.Groups = []engine.RemediationGroup{}
		head.RemediationPlan = &plan
		var b bytes.Buffer
		if err := RenderJSON(&b, head); err != nil {
			return nil, err
		}
		i := bytes.LastIndex(b.Bytes(), []byte("[]"))
		if i < 0 {
			return nil, errors.New("reports: no groups array in the remediation plan")
		}
		rw.suffix = append([]byte(nil), b.Bytes()[i+2:]...)
		if _, err := jsonW.Write(b.Bytes()[:i+1]); err != nil {
			return nil, err
		}
	}
	if pdfW != nil {
		p, err := newRemediationPDF(pdfW, doc.Header, doc.RemediationPlan.Summary)
		if err != nil {
			return nil, err
		}
		rw.pdf = p
	}
	return rw, nil
}

// WriteGroup appends one group to both formats.
func (rw *RemediationWriter) WriteGroup(g engine.RemediationGroup) error {
	if rw.closed {
		return errors.New("reports: WriteGroup after Close")
	}
	if rw.jsonW != nil {
		var b bytes.Buffer
		sep := ",\n      "
		if rw.n == 0 {
			sep = "\n      "
		}
		b.WriteString(sep)
		enc := json.NewEncoder(&b)
		enc.SetIndent("      ", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(g); err != nil {
			return err
		}
		if _, err := rw.jsonW.Write(bytes.TrimSuffix(b.Bytes(), []byte("\n"))); err != nil {
			return err
		}
	}
	rw.n++
	if rw.pdf != nil {
		return rw.pdf.group(g)
	}
	return nil
}

// Close finishes both documents.
func (rw *RemediationWriter) Close() error {
	if rw.closed {
		return nil
	}
	rw.closed = true
	if rw.jsonW != nil {
		end := "]"
		if rw.n > 0 {
			end = "\n    ]"
		}
		if _, err := io.WriteString(rw.jsonW, end); err != nil {
			return err
		}
		if _, err := rw.jsonW.Write(rw.suffix); err != nil {
			return err
		}
	}
	if rw.pdf != nil {
		return rw.pdf.close()
	}
	return nil
}

// remediationPDF draws a remediation plan group by group.
type remediationPDF struct {
	d *pdfDoc
	w io.Writer
	n int
}

func newRemediationPDF(w io.Writer, h engine.ReportHeader, s engine.RemediationSummary) (*remediationPDF, error) {
	d, err := newPDFDoc(h, kindTitles[engine.ReportRemediationPlan])
	if err != nil {
		return nil, err
	}
	d.cover([][2]string{
		{count(s.Groups), "remediation groups"},
		{count(s.Findings), "open findings"},
		{hours(s.EffortHours), "estimated effort"},
	})
	d.reserveTOC()
	d.section("Overview", 1, true)
	d.paragraph("Findings are grouped by rule and ordered by severity, then by the number of affected resources "+
		"tagged as production, then by the number of affected resources. Effort is estimated per group as "+
		fmt.Sprintf("%.0f h to plan and verify plus, per resource, 1 h (critical), 0.75 h (high), 0.5 h (medium), "+
			"0.25 h (low) or 0.1 h (info). Each group lists up to %d resources; the API lists them all.",
			engine.RemediationBaseHours, engine.RemediationResourcesPerGroup), 9.5)
	if s.GroupsOmitted > 0 {
		d.paragraph(fmt.Sprintf("This plan holds the first %s groups; %s more are left out.",
			count(s.Groups-s.GroupsOmitted), count(s.GroupsOmitted)), 9.5)
	}
	t := d.newTable(8.5, column{"Severity", 40, "L"}, column{"Security", 28, "R"}, column{"Cost", 28, "R"},
		column{"Architecture", 28, "R"}, column{"Compliance", 28, "R"}, column{"Total", 28, "R"})
	for _, r := range s.BySeverity {
		t.row(string(r.Severity), count(r.Security), count(r.Cost), count(r.Architecture), count(r.Compliance), count(r.Total))
	}
	t.end()
	d.section("Remediation groups", 1, true)
	return &remediationPDF{d: d, w: w}, nil
}

// group draws one remediation group.
func (p *remediationPDF) group(g engine.RemediationGroup) error {
	d := p.d
	p.n++
	d.section(fmt.Sprintf("%d. %s — %s", g.Priority, g.RuleID, g.Title), 2, false)
	d.setFont(8.5, false)
	d.f.SetTextColor(90, 98, 112)
	meta := fmt.Sprintf("Severity %s · %s · %s resources (%s production) · effort %s",
		g.Severity, g.Dimension, count(g.ResourcesTotal), count(g.ProdResources), hours(g.EffortHours))
	d.text(margin, d.f.GetY(), contentW, meta, "L")
	d.f.SetTextColor(30, 34, 42)
	d.f.SetY(d.f.GetY() + lineH + 1.5)
	for i, s := range g.Steps {
		d.paragraph(fmt.Sprintf("%d. %s", i+1, s), 9)
	}
	d.setFont(9, true)
	d.ensure(lineH * 2)
	d.text(margin, d.f.GetY(), contentW, "Checklist", "L")
	d.f.SetY(d.f.GetY() + lineH + 0.5)
	for _, c := range g.Checklist {
		d.paragraph("☐ "+c, 9)
	}
	if len(g.Resources) > 0 {
		t := d.newTable(7.5, column{"Resource", 70, "L"}, column{"Type", 36, "L"}, column{"Account", 30, "L"},
			column{"Region", 26, "L"}, column{"Prod", 18, "C"})
		for _, r := range g.Resources {
			prod := ""
			if r.Prod {
				prod = "yes"
			}
			name := r.Name
			if name != r.ResourceID {
				name += "\n" + r.ResourceID
			}
			t.row(name, r.Type, r.Account, r.Region, prod)
		}
		t.end()
	}
	if g.ResourcesOmitted > 0 {
		d.paragraph(fmt.Sprintf("… and %s more resources: GET %s", count(g.ResourcesOmitted), g.ResourcesQuery), 8)
	}
	return d.f.Error()
}

func (p *remediationPDF) close() error {
	if p.n == 0 {
		p.d.empty("No open findings: nothing to remediate.")
	}
	return p.d.output(p.w)
}
