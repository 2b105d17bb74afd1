package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/fourd-dev/fourd/engine"
)

var statusColors = map[engine.ControlStatus]rgb{
	engine.ControlPass:             {34, 150, 80},
	engine.ControlFail:             {200, 40, 40},
	engine.ControlNotApplicable:    {148, 163, 184},
	engine.ControlInsufficientData: {217, 119, 6},
	engine.ControlManual:           {99, 102, 241},
	engine.ControlNotAssessed:      {226, 232, 240},
}

// compliancePDF renders compliance evidence: per framework a status table of
// every control, then the evidence of each failing check once, with the
// controls it fails (a broad mapping would otherwise repeat the same
// resources under dozens of controls).
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
		"was audited. The score is the share of assessed (passed or failed) controls that pass. CIS benchmarks list every "+
		"control; for the other frameworks the table lists the controls a rule checks and counts the others (the JSON "+
		"download lists them all).", h.AuditID, stamp(h.AuditCompletedAt)), 9.5)
	d.paragraph(fmt.Sprintf("The failing resources are shown once per failing check, in \"Evidence of the failing checks\" "+
		"after the frameworks, with the controls each check fails: one check often maps to many controls (NIST SP 800-53 "+
		"maps one to dozens), and the same resources repeated under each would bury the evidence. Each check lists up to "+
		"%d failing resources, each with what the check read (the values it judged) and when that configuration was "+
		"recorded: when its source captured it (AWS Config, or an NDJSON line's captured_at), or, for inputs without a "+
		"capture time (Terraform state), when "+
		"fourd last imported it; the API query under a check lists all of them. The JSON download also lists the "+
		"failing resources under each control.", engine.MaxFailingResourcesPerControl), 9.5)
	if len(c.Frameworks) == 0 {
		d.empty("No framework is mapped by the rules in scope.")
	}
	failing := map[string]bool{}
	for _, ck := range c.Checks {
		failing[ck.RuleID] = true
	}
	for i, f := range c.Frameworks {
		// The first framework follows the short introduction on its page.
		d.section(f.ID+" — "+f.Title, 1, i > 0)
		d.statusBar(f)
		if compactFramework(f) {
			if hidden := compactControls(d, f, failing); hidden > 0 {
				d.paragraph(fmt.Sprintf("%d further controls of %s are not assessed: no fourd rule maps to them.", hidden, f.ID), 8.5)
			}
			continue
		}
		t := d.newTable(8, column{"Control", 18, "L"}, column{"Title", 50, "L"}, column{"Status", 20, "L"},
			column{"Checked", 18, "R"}, column{"Failing", 16, "R"}, column{"Passing", 18, "R"}, column{"Checks", 40, "L"})
		cis := strings.HasPrefix(f.ID, "CIS-")
		var hidden int
		for _, ctl := range f.Controls {
			if !cis && len(ctl.Rules) == 0 {
				hidden++
				continue
			}
			rules := checksCell(ctl, failing)
			if ctl.Note != "" {
				rules = ctl.Note
			}
			t.row(ctl.ID, ctl.Title, strings.ReplaceAll(string(ctl.Status), "_", " "), count(ctl.ResourcesChecked),
				count(ctl.ResourcesFailing), passingCell(ctl), rules)
		}
		t.end()
		if hidden > 0 {
			d.paragraph(fmt.Sprintf("%d further controls of %s are not assessed: no fourd rule maps to them.", hidden, f.ID), 8.5)
		}
	}
	if len(c.Checks) > 0 {
		d.section("Evidence of the failing checks", 1, true)
		d.paragraph(fmt.Sprintf("%d checks have open findings; most severe first.", len(c.Checks)), 9)
	}
	for _, ck := range c.Checks {
		checkEvidence(d, h, ck)
	}
	passingPDF(d, c)
	return d.output(w)
}

// checkEvidence draws one failing check: what it is, the controls it
// fails, and its failing resources with what it read on each.
func checkEvidence(d *pdfDoc, h engine.ReportHeader, ck engine.ComplianceCheck) {
	d.section(ck.RuleID+" — "+ck.Title, 2, false)
	d.paragraph(fmt.Sprintf("Severity %s · %s on %s in audit %s. Fails %s.", ck.Severity,
		plural(ck.Findings, "open finding"), plural(ck.Resources, "resource"), h.AuditID, controlRefsText(ck.Controls)), 8.5)
	t := d.newTable(7.5, column{"Resource", 42, "L"}, column{"Account / region", 30, "L"}, column{"Severity", 18, "L"},
		column{"What the check read", 70, "L"}, column{"Recorded", 20, "L"})
	for _, r := range ck.FailingResources {
		t.rowWithID(resourceID(r), resourceName(r), r.Account+"\n"+r.Region, string(r.Severity), evidenceText(r.Evidence), recordedText(r, "\n"))
	}
	t.end()
	if ck.FailingOmitted > 0 {
		d.paragraph(fmt.Sprintf("%s more failing findings are not listed here: GET %s lists them all.", count(ck.FailingOmitted),
			ck.ResourcesQuery), 8)
	}
}

// maxChecksListed is how many check ids a control's row names when none
// of them fails; more are counted.
const maxChecksListed = 3

// checksCell names a control's checks in its table row: the failing ones
// (their evidence follows the frameworks) and the others, counted when
// there are more than maxChecksListed.
func checksCell(ctl engine.ComplianceControl, failing map[string]bool) string {
	var bad, good []string
	for _, r := range ctl.Rules {
		if failing[r] {
			bad = append(bad, r)
		} else {
			good = append(good, r)
		}
	}
	var parts []string
	if len(bad) > 0 {
		parts = append(parts, "failing: "+strings.Join(bad, ", "))
	}
	switch {
	case len(good) == 0:
	case len(bad) == 0 && len(good) <= maxChecksListed:
		parts = append(parts, strings.Join(good, ", "))
	case len(bad) == 0:
		parts = append(parts, fmt.Sprintf("%d checks, none failing", len(good)))
	default:
		parts = append(parts, fmt.Sprintf("+%d passing", len(good)))
	}
	return strings.Join(parts, "; ")
}

// controlRefsText names controls grouped by framework: "CIS-AWS-4.0.1
// 2.1.1, 2.1.4; SOC2 CC6.1".
func controlRefsText(refs []engine.ControlRef) string {
	if len(refs) == 0 {
		return "no control of the selected frameworks"
	}
	var parts []string
	for i := 0; i < len(refs); {
		j := i
		var ids []string
		for ; j < len(refs) && refs[j].Framework == refs[i].Framework; j++ {
			ids = append(ids, refs[j].Control)
		}
		parts = append(parts, refs[i].Framework+" "+strings.Join(ids, ", "))
		i = j
	}
	return strings.Join(parts, "; ")
}

// maxEvidenceText bounds what a PDF cell shows of a check's evidence (the
// JSON and HTML carry it whole).
const maxEvidenceText = 240

// evidenceText renders a finding's evidence compactly: "key: value" pairs
// of a JSON object in key order, strings unquoted, other values as
// compact JSON; "not recorded" when there is none.
func evidenceText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "not recorded"
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return truncateText(string(raw), maxEvidenceText)
	}
	if len(obj) == 0 {
		return "no values recorded"
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		v := obj[k]
		var str string
		if json.Unmarshal(v, &str) == nil && str == "" {
			str = `""`
		} else if json.Unmarshal(v, &str) != nil {
			var buf bytes.Buffer
			if json.Compact(&buf, v) == nil {
				str = buf.String()
			} else {
				str = string(v)
			}
		}
		parts = append(parts, k+": "+str)
	}
	return truncateText(strings.Join(parts, "; "), maxEvidenceText)
}

// truncateText cuts s to at most n runes, marking the cut with "…".
func truncateText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
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
			status engine.ControlStatus
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

// recordedText says when the configuration a check read was recorded: the
// source's capture time (AWS Config's configurationItemCaptureTime, an
// NDJSON line's captured_at) when the import had one, else when fourd imported it, said so; "—" when
// neither is known. sep goes between the time and what it is.
func recordedText(r engine.AffectedResource, sep string) string {
	switch {
	case r.CapturedAt != nil:
		return r.CapturedAt.UTC().Format("2006-01-02 15:04") + sep + "captured at source"
	case r.ObservedAt != nil:
		return r.ObservedAt.UTC().Format("2006-01-02 15:04") + sep + "observed at import"
	}
	return "—"
}

// compactFramework reports whether a framework's controls are drawn
// compactly (compactControls): a framework other than a CIS benchmark
// (whose every control, with its full title, is the point) with more than
// compactFrom controls a rule checks.
func compactFramework(f engine.ComplianceFramework) bool {
	if strings.HasPrefix(f.ID, "CIS-") {
		return false
	}
	n := 0
	for _, c := range f.Controls {
		if len(c.Rules) > 0 {
			n++
		}
	}
	return n > compactFrom
}
