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
		p, err := newRemediationPDF(pdfW, doc.Header, doc.RemediationPlan)
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

// remediationPDF draws a remediation plan: the overview and the playbooks
// first, then the groups owner by owner.
type remediationPDF struct {
	d      *pdfDoc
	w      io.Writer
	n      int
	owners map[string]engine.OwnerWork
	owner  string // the owner whose groups are being drawn
}

func newRemediationPDF(w io.Writer, h engine.ReportHeader, plan *engine.RemediationPlanReport) (*remediationPDF, error) {
	d, err := newPDFDoc(h, kindTitles[engine.ReportRemediationPlan])
	if err != nil {
		return nil, err
	}
	s := plan.Summary
	d.cover([][2]string{
		{count(int64(len(s.Owners))), "owners"},
		{count(s.Groups), "groups (owner × rule)"},
		{count(s.Findings), "open findings"},
		{hours(s.EffortHours), "estimated effort"},
	})
	d.reserveTOC()
	d.section("Overview", 1, true)
	d.paragraph("The plan says once per rule how to fix it (the playbooks), then lists the work owner by owner: "+
		"a resource's owner is its owner tag, else its account. Owners come by their most severe open finding, then "+
		"their production resources, then their findings; an owner's groups (one per rule) by severity, then production "+
		"resources, then resources. Environment is the resource's environment tag, or \"not tagged\". Effort is "+
		fmt.Sprintf("estimated per group as %.0f h to plan and verify plus, per resource, 1 h (critical), 0.75 h (high), "+
			"0.5 h (medium), 0.25 h (low) or 0.1 h (info). Each group lists up to %d resources; the API lists them all.",
			engine.RemediationBaseHours, engine.RemediationResourcesPerGroup), 9.5)
	if s.GroupsOmitted > 0 {
		d.paragraph(fmt.Sprintf("This plan holds the first %s groups; %s more are left out.",
			count(s.Groups), count(s.GroupsOmitted)), 9.5)
	}
	if len(s.Checklist) > 0 {
		d.section("For every group", 2, false)
		for _, c := range s.Checklist {
			d.paragraph("☐ "+c, 9)
		}
	}
	d.section("Open findings by severity and dimension", 2, false)
	t := d.newTable(8.5, column{"Severity", 40, "L"}, column{"Security", 28, "R"}, column{"Cost", 28, "R"},
		column{"Architecture", 28, "R"}, column{"Compliance", 28, "R"}, column{"Total", 28, "R"})
	for _, r := range s.BySeverity {
		t.row(string(r.Severity), count(r.Security), count(r.Cost), count(r.Architecture), count(r.Compliance), count(r.Total))
	}
	t.end()
	owners := make(map[string]engine.OwnerWork, len(s.Owners))
	if len(s.Owners) > 0 {
		d.section("Owners", 2, false)
		t := d.newTable(8, column{"Owner", 50, "L"}, column{"From", 18, "L"}, column{"Groups", 16, "R"}, column{"Findings", 22, "R"},
			column{"Resources", 22, "R"}, column{"Production", 24, "R"}, column{"Effort", 28, "R"})
		for _, o := range s.Owners {
			owners[o.Owner] = o
			t.row(o.Owner, o.OwnerSource, count(o.Groups), count(o.Findings), count(o.Resources), count(o.ProdResources), hours(o.EffortHours))
		}
		t.end()
	}
	if len(plan.Playbooks) > 0 {
		d.section("Playbooks: how to fix each rule", 1, !d.roomForSection())
		for _, pb := range plan.Playbooks {
			playbook(d, pb)
		}
	}
	// A few playbooks (a tenant with one or two rules) left the rest of
	// their page empty: the owners' work follows on it when it has room.
	d.section("Work by owner", 1, !d.roomForSection())
	return &remediationPDF{d: d, w: w, owners: owners}, nil
}

// playbook draws one rule's steps, kept on one page.
func playbook(d *pdfDoc, pb engine.RemediationPlaybook) {
	d.setFont(9, false)
	h := 16.0
	for i, s := range pb.Steps {
		h += float64(len(d.wrap(fmt.Sprintf("%d. %s", i+1, s), contentW)))*lineH + 1.5
	}
	if h < bodyBottom-40 {
		d.ensure(h + 24)
	}
	d.section(pb.RuleID+" — "+pb.Title, 2, false)
	d.meta(fmt.Sprintf("Severity %s · %s · %s on %s of %s",
		pb.Severity, pb.Dimension, plural(pb.Findings, "finding"), plural(pb.Resources, "resource"), plural(pb.Owners, "owner")))
	for i, s := range pb.Steps {
		d.paragraph(fmt.Sprintf("%d. %s", i+1, s), 9)
	}
}

// meta writes a muted line under a heading.
func (d *pdfDoc) meta(s string) {
	d.setFont(8.5, false)
	d.f.SetTextColor(90, 98, 112)
	for _, l := range d.wrap(s, contentW) {
		d.text(margin, d.f.GetY(), contentW, l, "L")
		d.f.SetY(d.f.GetY() + lineH)
	}
	d.f.SetTextColor(30, 34, 42)
	d.f.SetY(d.f.GetY() + 1.5)
}

// resourceColumns are the columns of a group's resource table.
// resourceColumns are the columns of a group's resource table; each row
// has the resource's ARN or id on a line of its own under them.
var resourceColumns = []column{{"Resource", 62, "L"}, {"Type", 40, "L"}, {"Account", 24, "L"},
	{"Region", 26, "L"}, {"Environment", 28, "L"}}

// group draws one remediation group, on one page when it fits on one.
func (p *remediationPDF) group(g engine.RemediationGroup) error {
	d := p.d
	p.n++
	if g.Owner != p.owner || p.n == 1 {
		p.owner = g.Owner
		d.ensure(60) // an owner's heading with the start of its first group
		d.section("Owner: "+g.Owner, 2, false)
		if o, ok := p.owners[g.Owner]; ok {
			from := "its owner tag"
			if o.OwnerSource == "account" {
				from = "the account (no owner tag)"
			}
			d.meta(fmt.Sprintf("Owner from %s · %s groups · %s findings on %s resources (%s production) · effort %s",
				from, count(o.Groups), count(o.Findings), count(o.Resources), count(o.ProdResources), hours(o.EffortHours)))
		}
	}
	if h := p.groupHeight(g); h < bodyBottom-30 {
		d.ensure(h)
	}
	d.section(fmt.Sprintf("%d. %s — %s", g.Priority, g.RuleID, g.Title), 3, false)
	d.meta(fmt.Sprintf("Severity %s · %s · %s resources (%s production) · effort %s · steps: playbook %s",
		g.Severity, g.Dimension, count(g.ResourcesTotal), count(g.ProdResources), hours(g.EffortHours), g.RuleID))
	if len(g.Resources) > 0 {
		t := d.newTable(7.5, resourceColumns...)
		for _, r := range g.Resources {
			t.rowWithID(resourceID(r), resourceName(r), r.Type, r.Account, r.Region, environmentCell(r))
		}
		t.end()
	}
	if g.ResourcesOmitted > 0 {
		d.paragraph(fmt.Sprintf("… and %s more resources: GET %s", count(g.ResourcesOmitted), g.ResourcesQuery), 8)
	}
	return d.f.Error()
}

// groupHeight estimates the height a group takes, heading to last row.
func (p *remediationPDF) groupHeight(g engine.RemediationGroup) float64 {
	d := p.d
	d.setFont(7.5, false)
	h := 30.0 // heading, meta line, table head and gap
	lh := 7.5 * 0.42
	for _, r := range g.Resources {
		n := len(d.wrap(resourceID(r), contentW-2*cellPad))
		m := 1
		for i, c := range []string{resourceName(r), r.Type, r.Account, r.Region, environmentCell(r)} {
			m = max(m, len(d.wrap(c, resourceColumns[i].w-2*cellPad)))
		}
		h += float64(n+m)*lh + 1.6
	}
	if g.ResourcesOmitted > 0 {
		h += 2 * lineH
	}
	return h
}

// resourceID is a resource's native id (an ARN where the provider has
// one), else the id fourd gave it.
func resourceID(r engine.AffectedResource) string {
	if r.NativeID != "" {
		return r.NativeID
	}
	return r.ResourceID
}

// resourceName is a resource's name, or "—" when it has none of its own.
func resourceName(r engine.AffectedResource) string {
	if r.Name == "" || r.Name == resourceID(r) {
		return "—"
	}
	return r.Name
}

// environmentCell is a resource's environment tag, "not tagged" without one.
func environmentCell(r engine.AffectedResource) string {
	if r.Environment == "" {
		return "not tagged"
	}
	return r.Environment
}

func (p *remediationPDF) close() error {
	if p.n == 0 {
		p.d.empty("No open findings: nothing to remediate.")
	}
	return p.d.output(p.w)
}

// plural says n things: "1 owner", "2 owners".
func plural(n int64, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return count(n) + " " + thing + "s"
}
