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
	engine.ControlManual:           {99, 102, 241},
	engine.ControlNotAssessed:      {226, 232, 240},
}

// compliancePDF renders compliance evidence: per framework a status table of
// every control, then each failing control with its failing resources.
func compliancePDF(w io.Writer, h engine.ReportHeader, c *engine.ComplianceEvidenceReport) error {
	d, err := newPDFDoc(h, kindTitles[h.Kind])
	if err != nil {
		return err
	}
	var pass, fail, insufficient, manual int
	for _, f := range c.Frameworks {
		pass, fail, insufficient, manual = pass+f.Passed, fail+f.Failed, insufficient+f.InsufficientData, manual+f.Manual
	}
	d.cover([][2]string{
		{fmt.Sprint(len(c.Frameworks)), "frameworks"},
		{fmt.Sprint(pass), "controls passed"},
		{fmt.Sprint(fail), "controls failed"},
		{fmt.Sprint(insufficient), "insufficient data"},
		{fmt.Sprint(manual), "manual"},
	})
	d.reserveTOC()
	d.section("About this evidence", 1, true)
	d.paragraph(fmt.Sprintf("Each control of a framework is evaluated from the findings of audit %s, completed %s. "+
		"A control no rule checks is manual (CIS marks it Manual) or not assessed. Otherwise it fails when a rule mapped "+
		"to it has an open finding; it passes when its rules judged resources and none failed; it has insufficient data "+
		"when every resource they met lacked what they read; it is not applicable when no resource of the rules' types "+
		"was audited. The score is the share of assessed (passed or failed) controls that pass. Each failing control lists "+
		"up to %d failing resources. CIS benchmarks list every control; for the other frameworks the table lists the "+
		"controls a rule checks and counts the others (the JSON download lists them all).",
		h.AuditID, stamp(h.AuditCompletedAt), engine.MaxFailingResourcesPerControl), 9.5)
	if len(c.Frameworks) == 0 {
		d.empty("No framework is mapped by the rules in scope.")
	}
	for _, f := range c.Frameworks {
		d.section(f.ID+" — "+f.Title, 1, true)
		d.statusBar(f)
		t := d.newTable(8, column{"Control", 18, "L"}, column{"Title", 66, "L"}, column{"Status", 24, "L"},
			column{"Checked", 21, "R"}, column{"Failing", 17, "R"}, column{"Rules", 34, "L"})
		cis := strings.HasPrefix(f.ID, "CIS-")
		var hidden int
		for _, ctl := range f.Controls {
			if !cis && len(ctl.Rules) == 0 {
				hidden++
				continue
			}
			rules := strings.Join(ctl.Rules, ", ")
			if ctl.Note != "" {
				rules = ctl.Note
			}
			t.row(ctl.ID, ctl.Title, strings.ReplaceAll(ctl.Status, "_", " "), count(ctl.ResourcesChecked),
				count(ctl.ResourcesFailing), rules)
		}
		t.end()
		if hidden > 0 {
			d.paragraph(fmt.Sprintf("%d further controls of %s are not assessed: no fourd rule maps to them.", hidden, f.ID), 8.5)
		}
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
	total := f.Passed + f.Failed + f.NotApplicable + f.InsufficientData + f.Manual + f.NotAssessed
	y := d.f.GetY()
	d.setFont(9, false)
	score := "no control assessed"
	if f.ScorePercent != nil {
		score = fmt.Sprintf("score %.1f%%", *f.ScorePercent)
	}
	d.text(margin, y, contentW, fmt.Sprintf("%d controls, %s: %d passed, %d failed, %d insufficient data, %d not applicable, %d manual, %d not assessed",
		total, score, f.Passed, f.Failed, f.InsufficientData, f.NotApplicable, f.Manual, f.NotAssessed), "L")
	y += lineH + 1.5
	if total > 0 {
		x := margin
		for _, s := range []struct {
			status string
			n      int
		}{{engine.ControlPass, f.Passed}, {engine.ControlFail, f.Failed}, {engine.ControlInsufficientData, f.InsufficientData},
			{engine.ControlNotApplicable, f.NotApplicable},
			{engine.ControlManual, f.Manual}, {engine.ControlNotAssessed, f.NotAssessed}} {
			w := contentW * float64(s.n) / float64(total)
			d.fill(statusColors[s.status])
			d.f.Rect(x, y, w, 6, "F")
			x += w
		}
	}
	d.f.SetY(y + 10)
}
