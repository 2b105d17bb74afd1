package reports

import (
	"fmt"
	"strings"

	"github.com/fourd-dev/fourd/engine"
)

// compactFrom is how many listed controls make a framework's table
// compact: NIST SP 800-53 lists over a hundred controls a check maps to,
// and a row of two or three wrapped lines each ran its table to seven
// pages of the demo tenant's report (22 of a larger one).
const compactFrom = 40

// compactControls draws a large framework as a reader scans it: a table
// of its families (how many controls each has of every status), then one
// line per control with the title's last part (an enhancement's own name),
// a short status and the checks named as far as a line holds whole ids.
// The JSON download and the HTML page keep every title and check.
func compactControls(d *pdfDoc, f engine.ComplianceFramework, failing map[string]bool) (hidden int) {
	type family struct {
		name                                  string
		listed, pass, fail, insufficient, nap int
	}
	var fams []*family
	var listed []engine.ComplianceControl
	for _, c := range f.Controls {
		if len(c.Rules) == 0 {
			hidden++
			continue
		}
		listed = append(listed, c)
		if len(fams) == 0 || fams[len(fams)-1].name != c.Section {
			fams = append(fams, &family{name: c.Section})
		}
		fm := fams[len(fams)-1]
		fm.listed++
		switch c.Status {
		case engine.ControlPass:
			fm.pass++
		case engine.ControlFail:
			fm.fail++
		case engine.ControlInsufficientData:
			fm.insufficient++
		case engine.ControlNotApplicable:
			fm.nap++
		}
	}
	d.paragraph(fmt.Sprintf("%d controls of %s are checked by fourd rules: by family first, then one line each "+
		"(insufficient: insufficient data; n/a: not applicable; the JSON download and the HTML page give every title and check).", len(listed), f.ID), 8.5)
	t := d.newTable(8, column{"Family", 78, "L"}, column{"Controls", 20, "R"}, column{"Passed", 18, "R"},
		column{"Failed", 18, "R"}, column{"Insufficient", 28, "R"}, column{"n/a", 18, "R"})
	for _, fm := range fams {
		name := fm.name
		if name == "" {
			name = "—"
		}
		t.row(name, fmt.Sprint(fm.listed), fmt.Sprint(fm.pass), fmt.Sprint(fm.fail), fmt.Sprint(fm.insufficient), fmt.Sprint(fm.nap))
	}
	t.end()
	cols := []column{{"Control", 20, "L"}, {"Title", 48, "L"}, {"Status", 20, "L"}, {"Checked", 18, "R"},
		{"Failing", 16, "R"}, {"Passing", 18, "R"}, {"Checks", 40, "L"}}
	t = d.newTable(7.5, cols...)
	d.setFont(7.5, false)
	for _, c := range listed {
		t.row(c.ID, d.oneLine(shortTitle(c.Title), cols[1].w-2*cellPad), shortStatus(c.Status), count(c.ResourcesChecked),
			count(c.ResourcesFailing), passingCell(c), d.checksLine(c, failing, cols[6].w-2*cellPad))
	}
	t.end()
	return hidden
}

// shortTitle is the last part of a title made of parts joined by " | "
// (NIST's "Remote Access | Monitoring and Control" is AC-17(1)'s own
// name after its base control's).
func shortTitle(title string) string {
	if i := strings.LastIndex(title, " | "); i >= 0 {
		return title[i+3:]
	}
	return title
}

// shortStatus is a status in one short word or two.
func shortStatus(s engine.ControlStatus) string {
	switch s {
	case engine.ControlNotApplicable:
		return "n/a"
	case engine.ControlInsufficientData:
		return "insufficient"
	}
	return strings.ReplaceAll(string(s), "_", " ")
}

// oneLine cuts s to what fits in width w at the current font, ending it
// with "…" when cut.
func (d *pdfDoc) oneLine(s string, w float64) string {
	if d.width(s) <= w {
		return s
	}
	rs := []rune(s)
	n := len(rs)
	for n > 0 && d.width(string(rs[:n])+"…") > w {
		n--
	}
	return strings.TrimRight(string(rs[:n]), " ,|") + "…"
}

// checksLine names a control's checks on one line of width w: the failing
// ones first, each id whole, then "+N" for those that do not fit (the
// failing checks' evidence follows the frameworks, with the controls each
// fails).
func (d *pdfDoc) checksLine(c engine.ComplianceControl, failing map[string]bool, w float64) string {
	var bad, good []string
	for _, r := range c.Rules {
		if failing[r] {
			bad = append(bad, r)
		} else {
			good = append(good, r)
		}
	}
	if len(bad) == 0 {
		if len(good) == 1 && d.width(good[0]) <= w {
			return good[0]
		}
		return fmt.Sprintf("%d checks, none failing", len(good))
	}
	line := "failing:"
	for i, r := range bad {
		more := len(bad) - i - 1 + len(good)
		cand := line + " " + r
		if i > 0 {
			cand = line + ", " + r
		}
		if more > 0 && d.width(fmt.Sprintf("%s +%d", cand, more)) > w || more == 0 && d.width(cand) > w {
			return fmt.Sprintf("%s +%d", line, len(bad)-i+len(good))
		}
		line = cand
	}
	if len(good) > 0 {
		line += fmt.Sprintf(" +%d", len(good))
	}
	return line
}
