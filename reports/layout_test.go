package reports

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// fxRemediationMany is a plan of 28 groups over four owners with 1 to 28
// resources each: page breaks fall everywhere in it.
func fxRemediationMany() engine.ReportDocument {
	owners := []string{"team-data", "team-web", fxAccounts[1], fxAccounts[2]}
	var groups []engine.RemediationGroup
	for i := 1; i <= 28; i++ {
		groups = append(groups, fxGroup(i, owners[(i-1)/7], engine.Severities[len(engine.Severities)-1-(i%5)], i))
	}
	return fxPlan(groups)
}

// fxRemediationOneRule is a plan of one rule over twelve owners (the
// synthetic 1M tenant's shape): the overview fills its page and the one
// playbook would sit alone on the next.
func fxRemediationOneRule() engine.ReportDocument {
	var groups []engine.RemediationGroup
	for i := 1; i <= 12; i++ {
		g := fxGroup(1, fmt.Sprintf("1000000000%02d", i), engine.SeverityCritical, 4)
		g.Priority = i
		groups = append(groups, g)
	}
	doc := fxPlan(groups)
	doc.RemediationPlan.Playbooks = doc.RemediationPlan.Playbooks[:1]
	return doc
}

// TestPDFLayout renders each kind of report, and a remediation plan whose
// page breaks fall everywhere, and checks them as a reader would: no table
// row alone on a page, no page less than a quarter full but the last page
// of a section, and no id broken across lines.
func TestPDFLayout(t *testing.T) {
	var notes []string
	var starts []int
	layoutHook = func(_ string, n []string, s []int) { notes, starts = n, s }
	t.Cleanup(func() { layoutHook = nil })
	docs := []struct {
		name string
		doc  engine.ReportDocument
	}{{"executive", fxExecutive()}, {"remediation", fxRemediation()}, {"remediation_many", fxRemediationMany()}, {"compliance", fxCompliance()},
		{"compliance_large", fxComplianceLarge()}, {"remediation_one_rule", fxRemediationOneRule()},
		{"compliance_long_ids", withLongIDs()[1]}}
	for _, x := range docs {
		t.Run(x.name, func(t *testing.T) {
			dir := t.TempDir()
			text, pages := pdfText(t, x.doc, dir)
			for _, n := range notes {
				t.Errorf("layout: %s", n)
			}
			for _, id := range layoutIDs(x.doc) {
				if !strings.Contains(text, id) {
					t.Errorf("id %s is broken across lines (or missing)", id)
				}
			}
			prefix := filepath.Join(dir, "page")
			if out, err := exec.Command(tool(t, "pdftoppm"), "-png", "-r", "60", filepath.Join(dir, string(x.doc.Header.Kind)+".pdf"), prefix).CombinedOutput(); err != nil {
				t.Fatalf("pdftoppm: %v: %s", err, out)
			}
			pngs, _ := filepath.Glob(prefix + "-*.png")
			slices.Sort(pngs)
			if len(pngs) != pages {
				t.Fatalf("%d page images, want %d", len(pngs), pages)
			}
			quarter := bodyTop + (bodyBottom-bodyTop)/4
			for i, p := range pngs[:len(pngs)-1] {
				page := i + 1
				// A remediation plan's sections follow on the page before
				// when it has room: only its contents page may be short.
				endOfSection := x.doc.RemediationPlan == nil && slices.Contains(starts, page+1) ||
					(x.doc.ExecutiveSummary == nil && page == tocPage)
				if dark := darkPixels(t, p, 15, quarter, 195, bodyBottom); dark < 50 && !endOfSection {
					t.Errorf("page %d of %d is less than a quarter full and does not end a section (%d dark pixels below %.0f mm)",
						page, pages, dark, quarter)
				}
			}
		})
	}
}

// layoutIDs lists the ids a report shows that must be read whole.
func layoutIDs(doc engine.ReportDocument) []string {
	ids := []string{doc.Header.AuditID, doc.Header.ReportID}
	switch {
	case doc.ExecutiveSummary != nil:
		for _, p := range doc.ExecutiveSummary.Trend {
			ids = append(ids, p.AuditID)
		}
		for _, r := range doc.ExecutiveSummary.TopResources {
			ids = append(ids, r.ResourceID)
		}
		for _, r := range doc.ExecutiveSummary.TopRules {
			ids = append(ids, r.RuleID)
		}
		for _, a := range doc.ExecutiveSummary.TopActions {
			ids = append(ids, a.RuleID)
		}
		for _, r := range doc.ExecutiveSummary.CostWaste.ByRule {
			ids = append(ids, r.RuleID)
		}
	case doc.RemediationPlan != nil:
		for _, g := range doc.RemediationPlan.Groups {
			ids = append(ids, g.RuleID)
			for _, r := range g.Resources {
				ids = append(ids, resourceID(r), r.Account)
			}
		}
	case doc.ComplianceEvidence != nil:
		// Control ids, and the checks a control's row names: those that
		// fail (the others may be counted, "6 checks, none failing").
		failing := map[string]bool{}
		for _, c := range doc.ComplianceEvidence.Checks {
			failing[c.RuleID] = true
		}
		for _, f := range doc.ComplianceEvidence.Frameworks {
			for _, c := range f.Controls {
				if len(c.Rules) == 0 && !strings.HasPrefix(f.ID, "CIS-") {
					continue // counted, not listed
				}
				ids = append(ids, c.ID)
				for _, r := range c.Rules {
					if failing[r] || len(c.Rules) == 1 {
						ids = append(ids, r)
					}
				}
			}
		}
		for _, c := range doc.ComplianceEvidence.Checks {
			ids = append(ids, c.RuleID)
			for _, r := range c.FailingResources {
				ids = append(ids, resourceID(r), r.Account)
			}
		}
		// The passing samples the PDF lists.
		for _, f := range doc.ComplianceEvidence.Frameworks {
			for _, c := range f.Controls {
				for _, p := range c.PassingResources {
					ids = append(ids, p.RuleID, p.NativeID, p.Account)
				}
			}
		}
	}
	return slices.Compact(ids)
}

// TestPDFLargeFigures: at a million findings the figures keep their
// separators and stay on one line (the top rules' "Open" column broke
// 1,000,000 over two lines; hours and the weighted total had no
// separators).
func TestPDFLargeFigures(t *testing.T) {
	doc := fxExecutive()
	s := doc.ExecutiveSummary
	s.TopRules[0].Open = 1_000_000
	s.TopActions[0].Open, s.TopActions[0].EffortHours, s.TopActions[0].RiskRemoved = 1_000_000, 1_000_001, 2_599_248
	s.Posture.WeightedOpen = 2_599_248
	text, _ := pdfText(t, doc, t.TempDir())
	for _, want := range []string{"1,000,000", "1,000,001.0", "2,599,248 weighted open findings"} {
		if !strings.Contains(text, want) {
			t.Errorf("the PDF does not show %q on one line; its text:\n%s", want, text)
		}
	}
	for _, bad := range []string{"1000001", "2599248"} {
		if strings.Contains(text, bad) {
			t.Errorf("the PDF shows %s without separators", bad)
		}
	}
}

// fxComplianceLarge is compliance evidence for a framework the size of
// NIST SP 800-53's mapped part: 20 families of 7 controls, titles of a
// base control and an enhancement, every status, up to 20 checks each.
func fxComplianceLarge() engine.ReportDocument {
	doc := fxCompliance()
	statuses := []engine.ControlStatus{engine.ControlPass, engine.ControlPass, engine.ControlNotApplicable, engine.ControlPass,
		engine.ControlFail, engine.ControlInsufficientData, engine.ControlPass}
	fw := engine.ComplianceFramework{ID: "NIST-800-53-r5", Title: "NIST Special Publication 800-53 Revision 5"}
	for f := range 20 {
		fam := fmt.Sprintf("Family %02d of Controls With A Long Name", f+1)
		for i := range 7 {
			c := engine.ComplianceControl{ID: fmt.Sprintf("F%d-%d(%d)", f+1, i+1, i+10), Section: fam,
				Title:  "Audit Record Review, Analysis, and Reporting | Correlation With Information From Nontechnical Sources",
				Status: statuses[i], ResourcesChecked: 100_000, FailingResources: []engine.AffectedResource{},
				PassingResources: []engine.PassingResource{}}
			for r := range 1 + (f*7+i)%20 {
				c.Rules = append(c.Rules, fmt.Sprintf("aws-cloudtrail-%03d", r+1))
			}
			if c.Status == engine.ControlFail {
				c.Rules[0], c.ResourcesFailing = "aws-s3-010", 2
			}
			switch c.Status {
			case engine.ControlPass:
				fw.Passed++
			case engine.ControlFail:
				fw.Failed++
			case engine.ControlNotApplicable:
				fw.NotApplicable++
			case engine.ControlInsufficientData:
				fw.InsufficientData++
			}
			fw.Controls = append(fw.Controls, c)
		}
	}
	fw.Controls = append(fw.Controls, engine.ComplianceControl{ID: "PM-1", Title: "Information Security Program Plan",
		Status: engine.ControlNotAssessed, Rules: []string{}, FailingResources: []engine.AffectedResource{}})
	fw.NotAssessed = 1
	doc.ComplianceEvidence.Frameworks = append(doc.ComplianceEvidence.Frameworks, fw)
	return doc
}

// TestPDFComplianceLargeFramework: a framework of 140 mapped controls is
// a family table and one line per control — every control id shown whole,
// every failing check named — on a few pages (the row-per-control table
// with wrapped titles took 9).
func TestPDFComplianceLargeFramework(t *testing.T) {
	doc := fxComplianceLarge()
	text, pages := pdfText(t, doc, t.TempDir())
	_, smallPages := pdfText(t, fxCompliance(), t.TempDir())
	if extra := pages - smallPages; extra > 5 {
		t.Errorf("the framework of 140 controls takes %d pages, want at most 5", extra)
	}
	fw := doc.ComplianceEvidence.Frameworks[1]
	for _, c := range fw.Controls {
		if len(c.Rules) > 0 && !strings.Contains(text, c.ID+" ") {
			t.Errorf("control %s is not shown whole", c.ID)
		}
	}
	for _, s := range []string{"Family 01 of Controls With A Long Name", "failing: aws-s3-010", "Correlation With Information",
		"1 further controls of NIST-800-53-r5 are not assessed", "n/a"} {
		if !strings.Contains(text, s) {
			t.Errorf("the PDF does not show %q", s)
		}
	}
}
