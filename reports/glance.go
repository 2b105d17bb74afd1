package reports

import (
	"fmt"

	"github.com/fourd-dev/fourd/engine"
)

// executiveGlance renders the executive summary's first-page summary: the
// key messages, the top actions and the compliance posture per framework.
func executiveGlance(d *pdfDoc, s *engine.ExecutiveSummaryReport) {
	d.paragraph(exposureText(s), 9.5)
	d.section("Key messages", 2, false)
	for _, m := range s.KeyMessages {
		d.paragraph("• "+m.Text, 9.5)
	}
	d.ensure(20 + 6*float64(len(s.TopActions))) // the heading and the whole table together: five rows never split
	d.section("Top actions: most risk removed per hour of work", 2, false)
	if len(s.TopActions) == 0 {
		d.empty("No open findings to act on.")
	} else {
		t := d.newTable(8, column{"Rule", 28, "L"}, column{"Action: fix", 56, "L"}, column{"Severity", 18, "L"},
			column{"Open", 20, "R"}, column{"Risk", 20, "R"}, column{"Hours", 20, "R"}, column{"Risk/h", 18, "R"})
		for _, a := range s.TopActions {
			t.row(a.RuleID, a.Title, string(a.Severity), count(a.Open), count(int64(a.RiskRemoved)),
				fmt.Sprintf("%.1f", a.EffortHours), fmt.Sprintf("%.1f", a.RiskPerHour))
		}
		t.end()
	}
	d.section("Compliance posture by framework", 2, false)
	if len(s.Compliance) == 0 {
		d.empty("No framework is mapped.")
		return
	}
	d.paragraph("Share of the controls a built-in check covers that have no open finding; controls no check covers "+
		"need a manual review and are not counted.", 8.5)
	t := d.newTable(8, column{"Framework", 60, "L"}, column{"Controls", 22, "R"}, column{"Checked", 22, "R"},
		column{"Failing", 22, "R"}, column{"Passing", 30, "R"})
	for _, f := range s.Compliance {
		pass := "—"
		if f.Checked > 0 {
			pass = fmt.Sprintf("%.1f%%", f.PassingPercent)
		}
		t.row(f.Title, fmt.Sprint(f.Controls), fmt.Sprint(f.Checked), fmt.Sprint(f.Failing), pass)
	}
	t.end()
}

// exposureText says the posture in words: the share of resources without a
// critical or high finding, and what the score is.
func exposureText(s *engine.ExecutiveSummaryReport) string {
	e := s.Exposure
	if e.ResourcesScanned == 0 {
		return "No resource was scanned."
	}
	return fmt.Sprintf("%.1f%% of the %s resources scanned have no open critical or high finding; %s have at least one. "+
		"The score (%.1f of 100) falls as weighted open findings per resource grow.",
		e.ClearPercent, count(e.ResourcesScanned), count(e.WithCriticalOrHigh), s.Posture.Score)
}
