package reports

import (
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
	}{{"executive", fxExecutive()}, {"remediation", fxRemediation()}, {"remediation_many", fxRemediationMany()}, {"compliance", fxCompliance()}}
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
			const bodyTop = 22.0
			quarter := bodyTop + (bodyBottom-bodyTop)/4
			for i, p := range pngs[:len(pngs)-1] {
				page := i + 1
				endOfSection := slices.Contains(starts, page+1) || (x.doc.ExecutiveSummary == nil && page == tocPage)
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
		for _, f := range doc.ComplianceEvidence.Frameworks {
			for _, c := range f.Controls {
				ids = append(ids, c.Rules...)
			}
		}
		for _, c := range doc.ComplianceEvidence.Checks {
			ids = append(ids, c.RuleID)
			for _, r := range c.FailingResources {
				ids = append(ids, resourceID(r), r.Account)
			}
		}
	}
	return slices.Compact(ids)
}
