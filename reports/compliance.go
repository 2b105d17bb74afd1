package reports

import (
	"fmt"
	"io"
	"strings"

	"github.com/fourd-dev/fourd/engine"
)

var statusColors = map[string]rgb{
	engine.ControlPass:             {34, 150, 80},
	engine.ControlFail:             {200, 40, 40},
	engine.ControlNotApplicable:    {148, 163, 184},
	engine.ControlInsufficientData: {217, 119, 6},
}

// compliancePDF renders compliance evidence: per framework a status table of
// every control, then each failing control with its failing resources.
func compliancePDF(w io.Writer, h engine.ReportHeader, c *engine.ComplianceEvidenceReport) error {
	d, err := newPDFDoc(h, kindTitles[h.Kind])
	if err != nil {
		return err
	}
	var pass, fail, na, insufficient int
	for _, f := range c.Frameworks {
		pass, fail, na, insufficient = pass+f.Passed, fail+f.Failed, na+f.NotApplicable, insufficient+f.InsufficientData
	}
	d.cover([][2]string{
		{fmt.Sprint(len(c.Frameworks)), "frameworks"},
		{fmt.Sprint(pass), "controls passed"},
		{fmt.Sprint(fail), "controls failed"},
		{fmt.Sprint(insufficient), "insufficient data"},
		{fmt.Sprint(na), "not applicable"},
	})
	d.reserveTOC()
	d.section("About this evidence", 1, true)
	d.paragraph(fmt.Sprintf("Each control of a framework is evaluated from the findings of audit %s, completed %s. "+
		"A control fails when a rule mapped to it has an open finding; it has insufficient data when none did "+
		"but a mapped rule could not be evaluated on some resources, whose inventory lacked what it reads; it is "+
		"not applicable when no resource of the rules' types was checked; it passes otherwise. Each failing control lists up to %d failing "+
		"resources.", h.AuditID, stamp(h.AuditCompletedAt), engine.MaxFailingResourcesPerControl), 9.5)
	if len(c.Frameworks) == 0 {
		d.empty("No framework is mapped by the rules in scope.")
	}
	for _, f := range c.Frameworks {
		d.section(f.ID+" — "+f.Title, 1, true)
		d.statusBar(f)
		t := d.newTable(8, column{"Control", 18, "L"}, column{"Title", 66, "L"}, column{"Status", 24, "L"},
			column{"Checked", 21, "R"}, column{"Failing", 17, "R"}, column{"Rules", 34, "L"})
		for _, ctl := range f.Controls {
			t.row(ctl.ID, ctl.Title, strings.ReplaceAll(ctl.Status, "_", " "), count(ctl.ResourcesChecked),
				count(ctl.ResourcesFailing), strings.Join(ctl.Rules, ", "))
		}
		t.end()
		for _, ctl := range f.Controls {
			if ctl.Status != engine.ControlFail {
				continue
			}
			d.section(fmt.Sprintf("%s %s — failing resources", f.ID, ctl.ID), 2, false)
			d.setFont(8.5, false)
			d.paragraph(fmt.Sprintf("%s. Rules: %s. %s of %s resources checked fail; evaluated %s in audit %s.",
				ctl.Title, strings.Join(ctl.Rules, ", "), count(ctl.ResourcesFailing), count(ctl.ResourcesChecked),
				stamp(ctl.EvaluatedAt), ctl.AuditID), 8.5)
			t := d.newTable(7.5, column{"Resource", 76, "L"}, column{"Type", 36, "L"}, column{"Account", 30, "L"},
				column{"Region", 20, "L"}, column{"Severity", 18, "L"})
			for _, r := range ctl.FailingResources {
				name := r.Name
				if name != r.ResourceID {
					name += "\n" + r.ResourceID
				}
				t.row(name, r.Type, r.Account, r.Region, string(r.Severity))
			}
			t.end()
			if ctl.FailingOmitted > 0 {
				d.paragraph(fmt.Sprintf("… and %s more failing resources.", count(ctl.FailingOmitted)), 8)
			}
		}
	}
	return d.output(w)
}

// statusBar draws one horizontal bar split into passed, failed and not
// applicable controls, with a caption.
func (d *pdfDoc) statusBar(f engine.ComplianceFramework) {
	total := f.Passed + f.Failed + f.NotApplicable + f.InsufficientData
	y := d.f.GetY()
	d.setFont(9, false)
	d.text(margin, y, contentW, fmt.Sprintf("%d controls: %d passed, %d failed, %d insufficient data, %d not applicable",
		total, f.Passed, f.Failed, f.InsufficientData, f.NotApplicable), "L")
	y += lineH + 1.5
	if total > 0 {
		x := margin
		for _, s := range []struct {
			status string
			n      int
		}{{engine.ControlPass, f.Passed}, {engine.ControlFail, f.Failed}, {engine.ControlInsufficientData, f.InsufficientData},
			{engine.ControlNotApplicable, f.NotApplicable}} {
			w := contentW * float64(s.n) / float64(total)
			d.fill(statusColors[s.status])
			d.f.Rect(x, y, w, 6, "F")
			x += w
		}
	}
	d.f.SetY(y + 10)
}
