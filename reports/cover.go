package reports

import (
	"fmt"
	"math"
	"strings"

	"github.com/fourd-dev/fourd/engine"
)

// kindTitles are the human titles of the report kinds.
var kindTitles = map[engine.ReportKind]string{
	engine.ReportExecutiveSummary:   "Executive summary",
	engine.ReportRemediationPlan:    "Remediation plan",
	engine.ReportComplianceEvidence: "Compliance evidence",
}

// cover draws the first page: title, tenant and audit identification,
// filters and, when given, a list of key figures; it returns the y below it.
func (d *pdfDoc) cover(figures [][2]string) float64 {
	d.addPage()
	d.f.SetFillColor(22, 46, 92)
	d.f.Rect(0, 0, pageW, 78, "F")
	d.f.SetTextColor(170, 190, 225)
	d.setFont(11, true)
	d.text(margin, 16, contentW, "FOURD · 4D CLOUD AUDIT", "L")
	d.f.SetTextColor(255, 255, 255)
	d.setFont(28, true)
	d.text(margin, 30, contentW, d.title, "L")
	d.setFont(15, false)
	d.text(margin, 48, contentW, d.h.TenantName, "L")
	d.setFont(9, false)
	d.f.SetTextColor(200, 212, 235)
	d.text(margin, 58, contentW, "Tenant "+d.h.TenantID, "L")
	d.f.SetTextColor(30, 34, 42)

	h := d.h
	prev := h.PreviousAuditID
	if prev == "" {
		prev = "none (first audit)"
	}
	rows := [][2]string{
		{"Audit", h.AuditID},
		{"Audit completed", stamp(h.AuditCompletedAt)},
		{"Previous audit", prev},
		{"Report", h.ReportID},
		{"Generated", stamp(h.GeneratedAt)},
		{"Scope", scopeText(h)},
	}
	y := 88.0
	for _, r := range rows {
		d.setFont(9.5, true)
		d.text(margin, y, 42, r[0], "L")
		d.setFont(9.5, false)
		for _, l := range d.wrap(r[1], contentW-44) {
			d.text(margin+44, y, contentW-44, l, "L")
			y += lineH + 0.6
		}
		y += 1.2
	}
	if len(figures) > 0 {
		y += 4
		bw := contentW / float64(len(figures))
		for i, fg := range figures {
			x := margin + float64(i)*bw
			d.f.SetFillColor(242, 244, 248)
			d.f.Rect(x+1, y, bw-2, 22, "F")
			d.setFont(15, true)
			d.text(x+1, y+4, bw-2, fg[0], "C")
			d.setFont(8, false)
			d.f.SetTextColor(90, 98, 112)
			d.text(x+1, y+13, bw-2, fg[1], "C")
			d.f.SetTextColor(30, 34, 42)
		}
		y += 28
	}
	return y
}

// compactCover draws the top of a report whose first page is its summary:
// a narrow title band, the audit's identification in two lines and the key
// figures; it returns the y below them.
func (d *pdfDoc) compactCover(figures [][2]string) float64 {
	d.addPage()
	d.f.SetFillColor(22, 46, 92)
	d.f.Rect(0, 0, pageW, 34, "F")
	d.f.SetTextColor(170, 190, 225)
	d.setFont(8.5, true)
	d.text(margin, 7, contentW, "FOURD · 4D CLOUD AUDIT", "L")
	d.f.SetTextColor(255, 255, 255)
	d.setFont(20, true)
	d.text(margin, 13, contentW, d.title, "L")
	d.setFont(11, false)
	d.text(margin, 24, contentW*0.6, d.h.TenantName, "L")
	d.setFont(8, false)
	d.f.SetTextColor(200, 212, 235)
	d.text(margin+contentW*0.6, 25, contentW*0.4, "Tenant "+d.h.TenantID, "R")
	d.f.SetTextColor(30, 34, 42)
	h := d.h
	prev := h.PreviousAuditID
	if prev == "" {
		prev = "none (first audit)"
	}
	y := 39.0
	d.setFont(8.5, false)
	d.f.SetTextColor(70, 78, 92)
	for _, l := range []string{
		fmt.Sprintf("Audit %s, completed %s · previous audit %s", h.AuditID, stamp(h.AuditCompletedAt), prev),
		fmt.Sprintf("Report %s, generated %s · scope %s", h.ReportID, stamp(h.GeneratedAt), scopeText(h)),
	} {
		for _, w := range d.wrap(l, contentW) {
			d.text(margin, y, contentW, w, "L")
			y += lineH
		}
	}
	d.f.SetTextColor(30, 34, 42)
	y += 2
	bw := contentW / float64(len(figures))
	for i, fg := range figures {
		x := margin + float64(i)*bw
		d.f.SetFillColor(242, 244, 248)
		d.f.Rect(x+1, y, bw-2, 20, "F")
		d.setFont(14, true)
		d.text(x+1, y+3, bw-2, fg[0], "C")
		d.setFont(7, false)
		d.f.SetTextColor(90, 98, 112)
		for j, l := range d.wrap(fg[1], bw-6) {
			d.text(x+3, y+11+float64(j)*3.2, bw-6, l, "C")
		}
		d.f.SetTextColor(30, 34, 42)
	}
	return y + 22
}

// scopeText is filterText with the muted findings the report leaves out.
func scopeText(h engine.ReportHeader) string {
	t := filterText(h.Filters)
	if h.MutedFindings > 0 {
		t += fmt.Sprintf("; %s muted findings (mute rules) are not counted as open", count(h.MutedFindings))
	}
	return t
}

// filterText describes a report's filters in one line.
func filterText(f engine.ReportFilters) string {
	var parts []string
	add := func(name string, vals []string) {
		if len(vals) > 0 {
			parts = append(parts, name+": "+strings.Join(vals, ", "))
		}
	}
	add("dimensions", strs(f.Dimensions))
	add("severities", strs(f.Severities))
	add("accounts", f.Accounts)
	add("frameworks", f.Frameworks)
	if len(parts) == 0 {
		return "all open findings"
	}
	return strings.Join(parts, "; ")
}

func strs[T ~string](xs []T) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = string(x)
	}
	return out
}

// count formats an integer with thousands separators: 1,234,567.
func count(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// usd formats dollars with cents and thousands separators.
func usd(v float64) string {
	cents := int64(v*100 + 0.5)
	return fmt.Sprintf("$%s.%02d", count(cents/100), cents%100)
}

// costSummary says what the cost waste estimate sums and what it leaves
// out, in one sentence or two.
func costSummary(w engine.CostWaste) string {
	msg := fmt.Sprintf("Estimated monthly waste: %s, from on-demand list prices (embedded price table) for %s of the %s open cost findings.",
		usd(w.MonthlyUSD), count(w.Estimated), count(w.Estimated+w.NotEstimated))
	if w.NotEstimated > 0 {
		msg += fmt.Sprintf(" %s findings are not estimated (no price known) and add nothing.", count(w.NotEstimated))
	}
	return msg
}

// costCell is a rule's monthly figure, or "not estimated" when none of
// its findings has one.
func costCell(r engine.CostWasteRule) string {
	if r.Estimated == 0 {
		return "not estimated"
	}
	return usd(r.MonthlyUSD)
}

// costBasis says how much of a rule's figure is priced.
func costBasis(r engine.CostWasteRule) string {
	switch {
	case r.Estimated == 0:
		return "no price"
	case r.Estimated == r.Findings:
		return "price table"
	default:
		return fmt.Sprintf("%s of %s priced", count(r.Estimated), count(r.Findings))
	}
}

// hours formats an effort estimate.
func hours(v float64) string { return tenths(v) + " h" }

// tenths formats v to one decimal with thousands separators: 1,000,001.0.
func tenths(v float64) string {
	t := int64(math.Round(v * 10))
	sign := ""
	if t < 0 {
		sign, t = "-", -t
	}
	return fmt.Sprintf("%s%s.%d", sign, count(t/10), t%10)
}
