package engine

import "io"

// ReportRenderer turns report documents into their formats; package reports
// implements it and cmd/fourd injects it.
type ReportRenderer interface {
	// RenderJSON writes the document as indented JSON; validation_failed
	// when the body of the header's kind is missing.
	RenderJSON(w io.Writer, doc ReportDocument) error
	// RenderPDF writes the document as a PDF; validation_failed as
	// RenderJSON.
	RenderPDF(w io.Writer, doc ReportDocument) error
	// RenderHTML writes the document as one self-contained HTML page
	// (inline styles and SVG charts, a filterable table, no external
	// request); validation_failed as RenderJSON.
	RenderHTML(w io.Writer, doc ReportDocument) error
	// NewRemediationWriter starts a remediation plan whose header and
	// summary are in doc (its groups are ignored) and whose groups follow
	// one by one, written to both formats at once so that memory holds one
	// group at a time. validation_failed for another kind.
	NewRemediationWriter(jsonW, pdfW io.Writer, doc ReportDocument) (RemediationWriter, error)
}

// RemediationWriter takes a remediation plan's groups in priority order.
type RemediationWriter interface {
	// WriteGroup appends one group to both formats.
	WriteGroup(g RemediationGroup) error
	// Close finishes both documents; no group may follow.
	Close() error
}
