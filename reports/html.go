package reports

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"math"
	"strings"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// The HTML version of a report is one self-contained file: styles and the
// table filter inline, charts as inline SVG, no request to anywhere. It is
// rendered from the same document as the JSON and the PDF, through
// html/template, so every text a tenant's inventory put in the document
// (resource names, tags) is escaped.

//go:embed html/*.tmpl
var htmlFiles embed.FS

var htmlTemplate = template.Must(template.New("report.tmpl").Funcs(template.FuncMap{
	"count":       count,
	"usd":         usd,
	"costsummary": costSummary,
	"exposure":    exposureText,
	"clear":       clearText,
	// words writes a status as words ("not_applicable" → "not applicable").
	"words": func(s engine.ControlStatus) string { return strings.ReplaceAll(string(s), "_", " ") },
	// execView hands the executive template its report and whether there
	// is a previous audit to compare with (the header's), as the PDF's
	// first page has them.
	"execView": func(r *engine.ExecutiveSummaryReport, previous string) execView {
		return execView{Report: r, Previous: previous != ""}
	},
	"costcell":   costCell,
	"costbasis":  costBasis,
	"score":      func(v float64) string { return fmt.Sprintf("%.1f", v) },
	"tenths":     tenths,
	"whole":      func(v float64) string { return count(int64(math.Round(v))) },
	"hours":      func(v float64) string { return tenths(v) + " h" },
	"when":       func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") },
	"sevColor":   func(s engine.Severity) string { return hexColor(severityColors[s]) },
	"kindTitle":  func(k engine.ReportKind) string { return kindTitles[k] },
	"join":       strings.Join,
	"maxFailing": func() int { return engine.MaxFailingResourcesPerControl },
	"maxPassing": func() int { return engine.MaxPassingResourcesPerControl },
	"plural":     plural,
	"failingSet": func(cs []engine.ComplianceCheck) map[string]bool {
		m := make(map[string]bool, len(cs))
		for _, c := range cs {
			m[c.RuleID] = true
		}
		return m
	},
	"rawjson": func(m json.RawMessage) string {
		var b bytes.Buffer
		if json.Compact(&b, m) != nil {
			return string(m)
		}
		return b.String()
	},
	"refs":     controlRefsText,
	"recorded": func(r engine.AffectedResource) string { return recordedText(r, " UTC, ") },
	"recordedPassing": func(p engine.PassingResource) string {
		return recordedText(engine.AffectedResource{CapturedAt: p.CapturedAt, ObservedAt: p.ObservedAt}, " UTC, ")
	},
	"inc": func(i int) int { return i + 1 },
	"id":  idHTML,
	"severityBars": func(m []engine.SeverityRow) template.HTML {
		return severityBarsSVG(m)
	},
	"trendChart": func(t []engine.ReportTrendPoint) template.HTML { return trendSVG(t) },
	"delta": func(p engine.PostureScore) string {
		if p.Delta == nil {
			return "first audit: no previous score"
		}
		return fmt.Sprintf("%+.1f since the previous audit", *p.Delta)
	},
	"yesno": func(b bool) string {
		if b {
			return "yes"
		}
		return ""
	},
}).ParseFS(htmlFiles, "html/*.tmpl"))

// RenderHTML writes the document as one self-contained HTML page;
// validation_failed when the body of the header's kind is missing.
func RenderHTML(w io.Writer, doc engine.ReportDocument) error {
	if err := check(doc); err != nil {
		return err
	}
	return htmlTemplate.Execute(w, doc)
}

// RenderHTML writes the document as one self-contained HTML page.
func (Renderer) RenderHTML(w io.Writer, doc engine.ReportDocument) error { return RenderHTML(w, doc) }

// idHTML writes an id (an ARN, a provider's id) as a code element that
// may wrap only after its separators: each segment up to and including a
// ":" or "/" is kept whole (a span that does not wrap, so not at its
// hyphens either) and a <wbr> follows it. A long ARN then takes two or
// three lines of its table cell instead of widening the table past the
// window, and no segment is ever cut.
func idHTML(id string) template.HTML {
	var b strings.Builder
	b.WriteString(`<code class="id">`)
	for rest := id; rest != ""; {
		i := strings.IndexAny(rest, ":/")
		seg := rest
		if i >= 0 {
			seg = rest[:i+1]
		}
		rest = rest[len(seg):]
		b.WriteString(`<span>`)
		b.WriteString(template.HTMLEscapeString(seg))
		b.WriteString(`</span>`)
		if rest != "" {
			b.WriteString(`<wbr>`)
		}
	}
	b.WriteString(`</code>`)
	return template.HTML(b.String())
}

// hexColor is c as a CSS colour.
func hexColor(c rgb) string { return fmt.Sprintf("#%02x%02x%02x", c.r, c.g, c.b) }

// dimensionColors colour the dimensions of the severity bars.
var dimensionColors = map[engine.Dimension]rgb{
	engine.DimensionSecurity:     {153, 27, 27},
	engine.DimensionCost:         {21, 128, 61},
	engine.DimensionArchitecture: {37, 99, 235},
	engine.DimensionCompliance:   {124, 58, 237},
}

// severityBarsSVG draws one horizontal bar per severity, split by
// dimension, scaled to the largest total.
func severityBarsSVG(rows []engine.SeverityRow) template.HTML {
	const w, rowH, labelW, barW = 640.0, 26.0, 80.0, 470.0
	var most int64 = 1
	for _, r := range rows {
		most = max(most, r.Total)
	}
	h := rowH*float64(len(rows)) + 30
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %.0f %.0f" role="img" aria-label="Open findings by severity and dimension">`, w, h)
	for i, r := range rows {
		y := float64(i)*rowH + 4
		fmt.Fprintf(&b, `<text x="0" y="%.1f" class="lbl">%s</text>`, y+14, template.HTMLEscapeString(string(r.Severity)))
		x := labelW
		for _, d := range engine.Dimensions {
			n := r.Count(d)
			if n == 0 {
				continue
			}
			bw := barW * float64(n) / float64(most)
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="18" fill="%s"><title>%s %s: %s</title></rect>`,
				x, y, bw, hexColor(dimensionColors[d]), template.HTMLEscapeString(string(r.Severity)), d, count(n))
			x += bw
		}
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="num">%s</text>`, x+6, y+14, count(r.Total))
	}
	lx := labelW
	for _, d := range engine.Dimensions {
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="10" height="10" fill="%s"/><text x="%.1f" y="%.1f" class="lbl">%s</text>`,
			lx, h-14, hexColor(dimensionColors[d]), lx+14, h-5, d)
		lx += 120
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// trendSVG draws open findings and critical+high per audit, oldest first.
// The x axis numbers the audits (#1 is the oldest shown) and labels each
// with its completion time, so audits of one day stay apart.
func trendSVG(points []engine.ReportTrendPoint) template.HTML {
	const w, h, bottom, top = 640.0, 220.0, 50.0, 10.0
	if len(points) == 0 {
		return ""
	}
	var most int64 = 1
	for _, p := range points {
		most = max(most, p.OpenFindings)
	}
	// The y axis's top label ("1,000,000") ends 6 units left of the axis:
	// the margin leaves room for it at ~7 units a character of the label font.
	left := max(50.0, 12+7*float64(len(count(most))))
	plotW, plotH := w-left-45, h-bottom-top
	xAt := func(i int) float64 {
		if len(points) == 1 {
			return left + plotW/2
		}
		return left + plotW*float64(i)/float64(len(points)-1)
	}
	yAt := func(v int64) float64 { return top + plotH - plotH*float64(v)/float64(most) }
	line := func(val func(engine.ReportTrendPoint) int64) string {
		var s strings.Builder
		for i, p := range points {
			fmt.Fprintf(&s, "%.1f,%.1f ", xAt(i), yAt(val(p)))
		}
		return strings.TrimSpace(s.String())
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %.0f %.0f" role="img" aria-label="Open findings over the last audits">`, w, h)
	fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" class="axis"/>`, left, top+plotH, left+plotW, top+plotH)
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="lbl" text-anchor="end">%s</text>`, left-6, top+8, count(most))
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="lbl" text-anchor="end">0</text>`, left-6, top+plotH)
	fmt.Fprintf(&b, `<polyline points="%s" class="open"/>`, line(func(p engine.ReportTrendPoint) int64 { return p.OpenFindings }))
	fmt.Fprintf(&b, `<polyline points="%s" class="severe"/>`, line(func(p engine.ReportTrendPoint) int64 { return p.Critical + p.High }))
	step := max(1, len(points)/8)
	for i, p := range points {
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" class="dot"><title>#%d %s: %s open, %s critical or high</title></circle>`,
			xAt(i), yAt(p.OpenFindings), i+1, p.CompletedAt.UTC().Format("2006-01-02 15:04"), count(p.OpenFindings), count(p.Critical+p.High))
		if i%step == 0 || i == len(points)-1 {
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="lbl" text-anchor="middle">#%d</text>`, xAt(i), top+plotH+16, i+1)
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" class="tick" text-anchor="middle">%s</text>`, xAt(i), top+plotH+30,
				p.CompletedAt.UTC().Format("01-02 15:04"))
		}
	}
	fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" class="open"/><text x="%.1f" y="%.1f" class="lbl">open findings</text>`,
		left, h-6, left+20, h-6, left+26, h-2)
	fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" class="severe"/><text x="%.1f" y="%.1f" class="lbl">critical + high</text>`,
		left+140, h-6, left+160, h-6, left+166, h-2)
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// execView is the executive template's input: the report and whether a
// previous audit exists.
type execView struct {
	Report   *engine.ExecutiveSummaryReport
	Previous bool
}
