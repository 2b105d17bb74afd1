package reports

import (
	"fmt"
	"math"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// rgb is a colour.
type rgb struct{ r, g, b int }

var severityColors = map[engine.Severity]rgb{
	engine.SeverityCritical: {153, 27, 27},
	engine.SeverityHigh:     {234, 88, 12},
	engine.SeverityMedium:   {217, 164, 6},
	engine.SeverityLow:      {59, 130, 246},
	engine.SeverityInfo:     {148, 163, 184},
}

func (d *pdfDoc) fill(c rgb) { d.f.SetFillColor(c.r, c.g, c.b) }
func (d *pdfDoc) draw(c rgb) { d.f.SetDrawColor(c.r, c.g, c.b) }

// niceStep returns a round tick step that divides [0, max] in about n ticks.
func niceStep(maxV float64, n int) float64 {
	if maxV <= 0 {
		return 1
	}
	raw := maxV / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if raw <= m*mag {
			return math.Max(1, m*mag)
		}
	}
	return 10 * mag
}

// axis draws horizontal grid lines and value labels for a chart whose plot
// area is (x, y, w, h) with values 0..top; it returns top rounded up.
func (d *pdfDoc) axis(x, y, w, h, maxV float64) float64 {
	step := niceStep(maxV, 4)
	top := math.Max(step, math.Ceil(maxV/step)*step)
	d.setFont(7, false)
	d.f.SetTextColor(110, 118, 130)
	d.f.SetLineWidth(0.15)
	for v := 0.0; v <= top+step/2; v += step {
		yy := y + h - h*v/top
		d.draw(rgb{225, 228, 235})
		d.f.Line(x, yy, x+w, yy)
		d.text(x-16, yy-lineH/2, 14, count(int64(v)), "R")
	}
	d.f.SetTextColor(30, 34, 42)
	return top
}

// severityBars draws open findings per dimension, stacked by severity, with
// each stack's total on top and a legend.
func (d *pdfDoc) severityBars(x, y, w, h float64, rows []engine.SeverityRow) {
	maxV := 0.0
	for _, dim := range engine.Dimensions {
		t := int64(0)
		for _, r := range rows {
			t += r.Count(dim)
		}
		maxV = math.Max(maxV, float64(t))
	}
	top := d.axis(x, y, w, h, maxV)
	slot := w / float64(len(engine.Dimensions))
	for i, dim := range engine.Dimensions {
		bx, base, total := x+float64(i)*slot+slot*0.22, y+h, int64(0)
		for j := len(rows) - 1; j >= 0; j-- { // least severe at the bottom
			n := rows[j].Count(dim)
			if n == 0 {
				continue
			}
			bh := h * float64(n) / top
			d.fill(severityColors[rows[j].Severity])
			d.f.Rect(bx, base-bh, slot*0.56, bh, "F")
			base -= bh
			total += n
		}
		d.setFont(8, true)
		d.text(bx-4, base-lineH-0.5, slot*0.56+8, count(total), "C")
		d.setFont(8, false)
		d.text(x+float64(i)*slot, y+h+1, slot, string(dim), "C")
	}
	d.legend(x, y+h+7)
}

// legend lists the severity colours on one line.
func (d *pdfDoc) legend(x, y float64) {
	d.setFont(7.5, false)
	for _, s := range []engine.Severity{engine.SeverityCritical, engine.SeverityHigh, engine.SeverityMedium,
		engine.SeverityLow, engine.SeverityInfo} {
		d.fill(severityColors[s])
		d.f.Rect(x, y+1.3, 3, 3, "F")
		d.text(x+4, y+0.3, 20, string(s), "L")
		x += 22
	}
}

// trendLines draws open findings and critical+high findings over the audits
// of the trend, oldest on the left.
func (d *pdfDoc) trendLines(x, y, w, h float64, pts []engine.ReportTrendPoint) {
	maxV := 0.0
	for _, p := range pts {
		maxV = math.Max(maxV, float64(p.OpenFindings))
	}
	top := d.axis(x, y, w, h, maxV)
	px := func(i int) float64 {
		if len(pts) == 1 {
			return x + w/2
		}
		return x + 4 + (w-8)*float64(i)/float64(len(pts)-1)
	}
	py := func(v int64) float64 { return y + h - h*float64(v)/top }
	series := []struct {
		c   rgb
		val func(engine.ReportTrendPoint) int64
		lbl string
	}{
		{rgb{22, 46, 92}, func(p engine.ReportTrendPoint) int64 { return p.OpenFindings }, "open findings"},
		{severityColors[engine.SeverityCritical], func(p engine.ReportTrendPoint) int64 { return p.Critical + p.High }, "critical + high"},
	}
	labelEvery := max(1, len(pts)/8)
	for _, s := range series {
		d.draw(s.c)
		d.fill(s.c)
		d.f.SetLineWidth(0.6)
		for i := range pts {
			if i > 0 {
				d.f.Line(px(i-1), py(s.val(pts[i-1])), px(i), py(s.val(pts[i])))
			}
			d.f.Circle(px(i), py(s.val(pts[i])), 0.9, "F")
		}
	}
	d.f.SetLineWidth(0.2)
	d.setFont(6.5, false)
	for i := range pts {
		if i%labelEvery == 0 || i == len(pts)-1 {
			d.text(px(i)-11, y+h+1, 22, trendLabel(pts, i), "C")
		}
	}
	lx := x
	for _, s := range series {
		d.fill(s.c)
		d.f.Rect(lx, y+h+8.3, 5, 1.2, "F")
		d.text(lx+6, y+h+6.6, 30, s.lbl, "L")
		lx += 36
	}
}

// trendLabel names the i-th point of a trend on the axis: its audit number
// in the trend and its day, with the time too when two audits of the trend
// completed the same day (they could not be told apart otherwise).
func trendLabel(pts []engine.ReportTrendPoint, i int) string {
	layout := "Jan 02"
	days := map[string]bool{}
	for _, p := range pts {
		day := p.CompletedAt.UTC().Format(time.DateOnly)
		if days[day] {
			layout = "Jan 02 15:04"
			break
		}
		days[day] = true
	}
	return fmt.Sprintf("#%d %s", i+1, pts[i].CompletedAt.UTC().Format(layout))
}
