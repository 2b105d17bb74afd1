// Package reports renders report documents: the JSON document that engine's
// analytic queries fill, and the PDF drawn from that same document with
// gofpdf (cover page, table of contents, running headers, "Page X of Y",
// vector charts, tables that break across pages, UTF-8 text with a CJK
// fallback font). A remediation plan can be written one group at a time,
// so memory stays bounded whatever the number of findings.
package reports

import (
	"encoding/json"
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
		rw, err := newRemediationPDF(w, doc.Header, doc.RemediationPlan)
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
