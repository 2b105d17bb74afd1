package reports

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/fourd-dev/fourd/engine"
)

// passingRow is one passing sample resource of one check, with the
// controls whose sample lists it.
type passingRow struct {
	p        engine.PassingResource
	controls []engine.ControlRef
}

// passingRows gathers the frameworks' passing samples by check and
// resource, by check id then resource id: one check maps to many controls
// of every framework (NIST SP 800-53 maps one to dozens), so a resource
// passing it is listed once with all of them rather than under each.
func passingRows(c *engine.ComplianceEvidenceReport) []*passingRow {
	var rows []*passingRow
	at := map[[2]string]*passingRow{}
	for _, f := range c.Frameworks {
		for _, ctl := range f.Controls {
			for _, p := range ctl.PassingResources {
				k := [2]string{p.RuleID, p.ResourceID}
				r, ok := at[k]
				if !ok {
					r = &passingRow{p: p}
					at[k] = r
					rows = append(rows, r)
				}
				r.controls = append(r.controls, engine.ControlRef{Framework: f.ID, Control: ctl.ID})
			}
		}
	}
	slices.SortStableFunc(rows, func(a, b *passingRow) int {
		return cmp.Or(cmp.Compare(a.p.RuleID, b.p.RuleID), cmp.Compare(a.p.ResourceID, b.p.ResourceID))
	})
	return rows
}

// passingCell is a control's count of passing resources for its table:
// a dash for a control neither passed nor failed.
func passingCell(c engine.ComplianceControl) string {
	if c.Status != engine.ControlPass && c.Status != engine.ControlFail {
		return "—"
	}
	return count(c.ResourcesPassing)
}

// passingPDF draws the evidence of passing after the failing checks:
// each sampled resource a check passed, once, with the controls whose
// sample lists it, what the check read and when that configuration was
// recorded. How many resources passed per control is in the controls'
// tables (Passing) and the JSON. Nothing is drawn when no control has a
// sample.
func passingPDF(d *pdfDoc, c *engine.ComplianceEvidenceReport) {
	rows := passingRows(c)
	if len(rows) == 0 {
		return
	}
	d.section("Evidence of passing", 1, true)
	d.paragraph(fmt.Sprintf("For each passed or failed control the JSON download counts the resources its checks judged and "+
		"passed in the audit (Passing in the tables above) and lists up to %d of them. They are shown here once each, by "+
		"check, with the controls whose sample lists them, what the check read (the values it judged) and when that "+
		"configuration was recorded. They were judged again when this report was generated, on the inventory then held "+
		"(the audit keeps failures only); only checks that read the resource alone are sampled.", engine.MaxPassingResourcesPerControl), 9)
	t := d.newTable(7.5, column{"Controls", 46, "L"}, column{"Check", 30, "L"}, column{"Resource", 33, "L"},
		column{"What the check read", 49, "L"}, column{"Recorded", 22, "L"})
	for _, row := range rows {
		p := row.p
		r := engine.AffectedResource{ResourceID: p.ResourceID, NativeID: p.NativeID, Name: p.Name,
			CapturedAt: p.CapturedAt, ObservedAt: p.ObservedAt}
		t.rowWithID(resourceID(r), controlRefsText(row.controls), p.RuleID, resourceName(r)+"\n"+p.Account+"\n"+p.Region,
			evidenceText(p.Evidence), recordedText(r, "\n"))
	}
	t.end()
}
