package reports

import (
	"cmp"
	"fmt"
	"io"
	"math"

	"github.com/fourd-dev/fourd/engine"
)

// executivePDF renders an executive summary as two pages an executive
// reads and an appendix behind them. Page 1 is the posture in words and
// figures, the key messages, the top actions and the compliance posture;
// page 2 the charts (severity by dimension, trend), the accounts ranked and
// the cost estimate; the appendix holds the tables those are drawn from.
func executivePDF(w io.Writer, h engine.ReportHeader, s *engine.ExecutiveSummaryReport) error {
	d, err := newPDFDoc(h, kindTitles[h.Kind])
	if err != nil {
		return err
	}
	d.noTOC = true // two pages and an appendix: the bookmarks are the contents
	executiveFirstPage(d, s)
	executiveSecondPage(d, s)
	executiveAppendix(d, s)
	return d.output(w)
}

// Bounds of the first two pages: longer lists go to the appendix.
const (
	execActions  = 5
	execAccounts = 5
	execCostRows = 3
)

// executiveFirstPage draws page 1.
func executiveFirstPage(d *pdfDoc, s *engine.ExecutiveSummaryReport) {
	change := [2]string{fmt.Sprintf("+%s / −%s", count(s.Changes.New), count(s.Changes.Resolved)), "new / resolved since the previous audit"}
	if d.h.PreviousAuditID == "" {
		change = [2]string{"—", "no earlier audit to compare"}
	}
	y := d.compactCover([][2]string{
		{clearText(s.Exposure), "of resources have no critical or high finding"},
		{count(s.OpenFindings), "open findings"},
		{usd(s.CostWaste.MonthlyUSD), "estimated monthly waste"},
		change,
	})
	d.f.SetY(y)
	d.section("Posture", 2, false)
	d.paragraph(exposureText(s), 9.5)
	d.section("Key messages", 2, false)
	for _, m := range s.KeyMessages {
		d.paragraph("• "+m.Text, 9.5)
	}
	actions := s.TopActions[:min(len(s.TopActions), execActions)]
	d.ensure(20 + 6*float64(len(actions))) // the heading and the whole table together
	d.section("Top actions: most risk removed per hour of work", 2, false)
	if len(actions) == 0 {
		d.empty("No open findings to act on.")
	} else {
		t := d.newTable(8, column{"Rule", ruleColW, "L"}, column{"Action: fix", 78 - ruleColW, "L"}, column{"Severity", 18, "L"},
			column{"Open", 20, "R"}, column{"Risk", 20, "R"}, column{"Hours", 26, "R"}, column{"Risk/h", 18, "R"})
		for _, a := range actions {
			t.row(a.RuleID, a.Title, string(a.Severity), count(a.Open), count(int64(a.RiskRemoved)),
				tenths(a.EffortHours), tenths(a.RiskPerHour))
		}
		t.end()
	}
	d.section("Compliance posture by framework", 2, false)
	if len(s.Compliance) == 0 {
		d.empty("No framework is mapped.")
		return
	}
	t := d.newTable(8, column{"Framework", 60, "L"}, column{"Controls", 22, "R"}, column{"Assessed", 22, "R"},
		column{"Failing", 22, "R"}, column{"Passing", 30, "R"})
	for _, f := range s.Compliance {
		pass := "—"
		if f.Checked > 0 {
			pass = fmt.Sprintf("%.1f%%", f.PassingPercent)
		}
		t.row(f.Title, fmt.Sprint(f.Controls), fmt.Sprint(f.Checked), fmt.Sprint(f.Failing), pass)
	}
	t.end()
	d.paragraph("Assessed: controls a check judged (passed or failed); passing: the share of them with no open finding, "+
		"the compliance evidence report's score. Controls with nothing of their types to check, with insufficient data, "+
		"manual, or no check covers are not counted.", 7.5)
}

// executiveSecondPage draws page 2.
func executiveSecondPage(d *pdfDoc, s *engine.ExecutiveSummaryReport) {
	d.section("Findings, trend, accounts and cost", 1, true)
	d.section("Open findings by severity and dimension", 2, false)
	if s.OpenFindings == 0 {
		d.empty("No open findings.")
	} else {
		y := d.f.GetY()
		d.severityBars(margin+18, y+5, contentW-20, 38, s.Matrix)
		d.f.SetY(y + 58)
	}
	d.section("Trend over the last audits", 2, false)
	if len(s.Trend) == 0 {
		d.empty("No completed audit in the trend.")
	} else {
		y := d.f.GetY()
		d.trendLines(margin+18, y+3, contentW-20, 32, s.Trend)
		d.f.SetY(y + 48)
	}
	d.section("Accounts ranked by open findings", 2, false)
	accounts := s.TopAccounts[:min(len(s.TopAccounts), execAccounts)]
	if len(accounts) == 0 {
		d.empty("No open findings.")
	} else {
		t := d.newTable(8, column{"Account", 90, "L"}, column{"Open", 30, "R"}, column{"Critical", 30, "R"}, column{"High", 30, "R"})
		for _, a := range accounts {
			t.row(a.Account, count(a.Open), count(a.Critical), count(a.High))
		}
		t.end()
		if more := len(s.TopAccounts) - len(accounts); more > 0 {
			d.paragraph(fmt.Sprintf("%d more accounts in the appendix.", more), 7.5)
		}
	}
	d.section("Cost estimate", 2, false)
	d.paragraph(costSummary(s.CostWaste), 8.5)
	rows := s.CostWaste.ByRule[:min(len(s.CostWaste.ByRule), execCostRows)]
	if len(rows) == 0 {
		d.empty("No open cost findings.")
		return
	}
	t := d.newTable(8, column{"Rule", ruleColW, "L"}, column{"Title", 114 - ruleColW, "L"}, column{"Findings", 20, "R"},
		column{"Basis", 20, "L"}, column{"Monthly", 26, "R"})
	for _, r := range rows {
		t.row(r.RuleID, r.Title, count(r.Findings), costBasis(r), costCell(r))
	}
	t.end()
}

// executiveAppendix draws the tables behind the first two pages.
func executiveAppendix(d *pdfDoc, s *engine.ExecutiveSummaryReport) {
	d.section("Appendix", 1, true)
	d.section("How the figures are computed", 2, false)
	d.paragraph("Resources clear: the share of the resources scanned that have no open critical or high finding. "+
		"Risk of an action: its open findings weighted by severity (critical 10, high 5, medium 2, low 1, info 0); "+
		"hours: 1 h to plan and verify plus, per resource, 1 h (critical) to 0.1 h (info).", 8.5)
	d.paragraph(fmt.Sprintf("Weighted score: %.1f of 100 (%s) over %s resources scanned. It is 100 / (1 + D), "+
		"where D is the weighted open findings per resource: here %s weighted open findings.",
		s.Posture.Score, scoreDelta(s.Posture), count(s.Posture.ResourcesScanned),
		count(int64(math.Round(s.Posture.WeightedOpen)))), 8.5)
	d.section("Open findings by severity and dimension", 2, false)
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
		d.ensure(24 + 6*float64(min(len(s.Trend), 6)))
		d.section("Trend over the last audits", 2, false)
		t := d.newTable(8, column{"#", 8, "R"}, column{"Audit", 62, "L"}, column{"Completed", 38, "L"}, column{"Open", 20, "R"},
			column{"Critical", 16, "R"}, column{"High", 16, "R"}, column{"Score", 20, "R"})
		for i, p := range s.Trend {
			t.row(fmt.Sprint(i+1), p.AuditID, stamp(p.CompletedAt), count(p.OpenFindings), count(p.Critical), count(p.High), fmt.Sprintf("%.1f", p.Score))
		}
		t.end()
	}
	if len(s.TopAccounts) > execAccounts {
		d.section("All accounts ranked", 2, false)
		t := d.newTable(8, column{"Account", 90, "L"}, column{"Open", 30, "R"}, column{"Critical", 30, "R"}, column{"High", 30, "R"})
		for _, a := range s.TopAccounts {
			t.row(a.Account, count(a.Open), count(a.Critical), count(a.High))
		}
		t.end()
	}
	executiveRankings(d, s)
}

// executiveRankings renders the top resources and rules, the whole cost
// table and the changes since the previous audit.
func executiveRankings(d *pdfDoc, s *engine.ExecutiveSummaryReport) {
	d.section("Top risky resources", 2, false)
	if len(s.TopResources) == 0 {
		d.empty("No open findings.")
	} else {
		t := d.newTable(8, column{"Resource", 76, "L"}, column{"Type", 32, "L"}, column{"Account", 26, "L"},
			column{"Worst", 16, "L"}, column{"Open", 12, "R"}, column{"Weight", 18, "R"})
		for _, r := range s.TopResources {
			t.row(r.Name+"\n"+cmp.Or(r.NativeID, r.ResourceID), r.Type, r.Account, string(r.WorstSeverity), count(r.Open), fmt.Sprintf("%.0f", r.Weighted))
		}
		t.end()
	}
	d.section("Top rules", 2, false)
	if len(s.TopRules) == 0 {
		d.empty("No open findings.")
	} else {
		t := d.newTable(8, column{"Rule", ruleColW, "L"}, column{"Title", 108 - ruleColW, "L"}, column{"Severity", 20, "L"},
			column{"Dimension", 28, "L"}, column{"Open", 24, "R"})
		for _, r := range s.TopRules {
			t.row(r.RuleID, r.Title, string(r.Severity), string(r.Dimension), count(r.Open))
		}
		t.end()
	}
	d.section("Cost waste by rule", 2, false)
	if len(s.CostWaste.ByRule) == 0 {
		d.empty("No open cost findings.")
	} else {
		t := d.newTable(8, column{"Rule", ruleColW, "L"}, column{"Title", 114 - ruleColW, "L"}, column{"Findings", 20, "R"},
			column{"Basis", 20, "L"}, column{"Monthly", 26, "R"})
		for _, r := range s.CostWaste.ByRule {
			t.row(r.RuleID, r.Title, count(r.Findings), costBasis(r), costCell(r))
		}
		t.end()
	}
	d.section("What changed since the previous audit", 2, false)
	c := s.Changes
	d.paragraph(fmt.Sprintf("New findings: %s. Resolved findings: %s. Severity changed: %s.",
		count(c.New), count(c.Resolved), count(c.SeverityChanged)), 9)
	if len(c.Examples) == 0 {
		d.empty("No change to show.")
		return
	}
	// The resource column holds an ARN under the name (two lines,
	// breaking at its ':' or '/').
	t := d.newTable(8, column{"Change", 24, "L"}, column{"Rule", ruleColW, "L"}, column{"Title", 82 - ruleColW, "L"},
		column{"Resource", 54, "L"}, column{"Severity", 20, "L"})
	for _, e := range c.Examples {
		sev := string(e.Severity)
		if e.PreviousSeverity != "" {
			sev = string(e.PreviousSeverity) + " → " + sev
		}
		// The provider's id (an ARN) under the name; fourd's internal id
		// only for a resource the inventory no longer holds.
		resource := cmp.Or(e.NativeID, e.ResourceID)
		if e.ResourceName != "" {
			resource = e.ResourceName + "\n" + resource
		}
		t.row(e.Change, e.RuleID, e.Title, resource, sev)
	}
	t.end()
}

// clearText is the share of resources clear of critical and high findings.
func clearText(e engine.ResourceExposure) string {
	if e.ResourcesScanned == 0 {
		return "—"
	}
	return fmt.Sprintf("%.1f%%", e.ClearPercent)
}

// scoreDelta says how the weighted score moved since the previous audit.
func scoreDelta(p engine.PostureScore) string {
	if p.Delta == nil {
		return "first audit: no previous score"
	}
	return fmt.Sprintf("%+.1f since the previous audit", *p.Delta)
}

// ruleColW is the width of a rule id column at 8 pt: the longest id of the
// pack (aws-networkfirewall-003) on one line.
const ruleColW = 42.0
