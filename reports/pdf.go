package reports

import (
	"embed"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jung-kurt/gofpdf"

	"github.com/fourd-dev/fourd/engine"
)

//go:embed fonts/*.ttf
var fonts embed.FS

// Page geometry in millimetres (A4 portrait).
const (
	pageW, pageH = 210.0, 297.0
	margin       = 15.0
	contentW     = pageW - 2*margin
	bodyBottom   = pageH - 18.0
	bodyTop      = 22.0 // below the running header
	lineH        = 4.6
	tocPage      = 2
	tocCapacity  = 34
)

const (
	fontSans     = "dejavu"
	fontFallback = "droid"
)

// tocEntry is one line of the table of contents.
type tocEntry struct {
	title string
	level int
	page  int
	link  int
}

// pdfDoc wraps a gofpdf document with the report's layout: fonts with a CJK
// fallback, header and footer with "Page X of Y", a table of contents
// filled in at the end, and text that wraps whatever its script.
type pdfDoc struct {
	f        *gofpdf.Fpdf
	h        engine.ReportHeader
	title    string
	toc      []tocEntry
	tocMore  int
	fallback bool
	// noTOC leaves the table of contents out (a short document).
	noTOC bool
	// notes are the layout faults the document could not avoid (a table
	// row alone on a page), and starts the pages where a level-1 section
	// begins; tests read them through layoutHook.
	notes  []string
	starts []int
	size   float64
	bold   bool
	// cur is the font gofpdf has selected, to skip redundant SetFont calls.
	cur struct {
		family string
		bold   bool
		size   float64
	}
}

// addPage starts a page; gofpdf reselects fonts around the header and
// footer, so the cache of the selected font is dropped.
func (d *pdfDoc) addPage() {
	d.f.AddPage()
	d.cur.family = ""
}

// use selects a font in gofpdf unless it is already selected.
func (d *pdfDoc) use(family string, bold bool, size float64) {
	if d.cur.family == family && d.cur.bold == bold && d.cur.size == size {
		return
	}
	d.cur.family, d.cur.bold, d.cur.size = family, bold, size
	d.f.SetFont(family, style(bold), size)
}

func newPDFDoc(h engine.ReportHeader, title string) (*pdfDoc, error) {
	f := gofpdf.New("P", "mm", "A4", "")
	f.SetMargins(margin, 22, margin)
	f.SetAutoPageBreak(false, 0)
	// text places every run itself; gofpdf's default 1 mm cell margin would
	// push right-aligned figures against the edge of their column.
	f.SetCellMargin(0)
	f.SetCreator("fourd", true)
	f.SetTitle(title+" — "+h.TenantName, true)
	f.SetCompression(true)
	for style, name := range map[string]string{"": "fonts/DejaVuSans.ttf", "B": "fonts/DejaVuSans-Bold.ttf"} {
		b, err := fonts.ReadFile(name)
		if err != nil {
			return nil, err
		}
		f.AddUTF8FontFromBytes(fontSans, style, b)
	}
	f.AliasNbPages("{nb}")
	d := &pdfDoc{f: f, h: h, title: title}
	f.SetHeaderFuncMode(d.header, true)
	f.SetFooterFunc(d.footer)
	d.setFont(10, false)
	return d, f.Error()
}

// header draws the running header of every page but the cover.
func (d *pdfDoc) header() {
	if d.f.PageNo() == 1 {
		return
	}
	d.f.SetDrawColor(200, 205, 215)
	d.f.SetTextColor(90, 98, 112)
	d.setFont(8, true)
	d.text(margin, 10, contentW/2, "fourd · "+d.title, "L")
	d.setFont(8, false)
	d.text(margin+contentW/2, 10, contentW/2, d.h.TenantName+" · audit "+d.h.AuditID, "R")
	d.f.Line(margin, 15, pageW-margin, 15)
	d.f.SetTextColor(30, 34, 42)
	d.f.SetXY(margin, 22)
}

// footer draws the report identification and the page number.
func (d *pdfDoc) footer() {
	d.f.SetDrawColor(200, 205, 215)
	d.f.Line(margin, pageH-13, pageW-margin, pageH-13)
	d.f.SetTextColor(90, 98, 112)
	d.setFont(8, false)
	d.text(margin, pageH-11, contentW-30, "Report "+d.h.ReportID+" · generated "+stamp(d.h.GeneratedAt), "L")
	d.text(pageW-margin-30, pageH-11, 30, fmt.Sprintf("Page %d of {nb}", d.f.PageNo()), "R")
	d.f.SetTextColor(30, 34, 42)
}

// setFont selects DejaVu Sans at size points, bold or regular.
func (d *pdfDoc) setFont(size float64, bold bool) {
	d.size, d.bold = size, bold
	d.use(fontSans, bold, size)
}

func style(bold bool) string {
	if bold {
		return "B"
	}
	return ""
}

// needsFallback reports whether DejaVu Sans lacks r: CJK ideographs, kana,
// hangul and their punctuation and full-width forms.
func needsFallback(r rune) bool {
	return (r >= 0x2E80 && r <= 0x9FFF) || (r >= 0xAC00 && r <= 0xD7AF) || (r >= 0xF900 && r <= 0xFAFF) ||
		(r >= 0xFE30 && r <= 0xFE4F) || (r >= 0xFF00 && r <= 0xFFEF) || (r >= 0x20000 && r <= 0x2FA1F)
}

// hasFallback reports whether any rune of s needs the fallback font.
func hasFallback(s string) bool {
	for _, r := range s {
		if r >= 0x2E80 && needsFallback(r) {
			return true
		}
	}
	return false
}

// run is a piece of text drawn with one font.
type run struct {
	s        string
	fallback bool
}

func runs(s string) []run {
	var out []run
	start, cur := 0, false
	for i, r := range s {
		fb := needsFallback(r)
		if i > 0 && fb != cur {
			out = append(out, run{s[start:i], cur})
			start = i
		}
		cur = fb
	}
	if start < len(s) {
		out = append(out, run{s[start:], cur})
	}
	return out
}

// useRun selects the font of a run; the fallback font is loaded the first
// time a document needs it (it is large, and most documents never do).
func (d *pdfDoc) useRun(r run) {
	if !r.fallback {
		d.use(fontSans, d.bold, d.size)
		return
	}
	if !d.fallback {
		b, err := fonts.ReadFile("fonts/DroidSansFallbackFull.ttf")
		if err != nil {
			d.f.SetError(err)
			return
		}
		d.f.AddUTF8FontFromBytes(fontFallback, "", b)
		d.fallback = true
	}
	d.use(fontFallback, false, d.size)
}

// width is the width of s in the current font, fallback runs included.
func (d *pdfDoc) width(s string) float64 {
	if !hasFallback(s) {
		d.use(fontSans, d.bold, d.size)
		return d.f.GetStringWidth(s)
	}
	w := 0.0
	for _, r := range runs(s) {
		d.useRun(r)
		w += d.f.GetStringWidth(r.s)
	}
	d.use(fontSans, d.bold, d.size)
	return w
}

// text draws one line of s in a box of width w at (x, y) aligned L, C or R,
// shortened with an ellipsis when it does not fit.
func (d *pdfDoc) text(x, y, w float64, s, align string) {
	s = d.fit(s, w)
	tw := d.width(s)
	switch align {
	case "R":
		x += w - tw
	case "C":
		x += (w - tw) / 2
	}
	d.f.SetXY(x, y)
	for _, r := range runs(s) {
		d.useRun(r)
		rw := d.f.GetStringWidth(r.s)
		d.f.CellFormat(rw, lineH, r.s, "", 0, "L", false, 0, "")
	}
	d.use(fontSans, d.bold, d.size)
}

// fit shortens s with an ellipsis to at most width w.
func (d *pdfDoc) fit(s string, w float64) string {
	if d.width(s) <= w {
		return s
	}
	rs := []rune(s)
	for len(rs) > 0 && d.width(string(rs)+"…") > w {
		rs = rs[:len(rs)-1]
	}
	return string(rs) + "…"
}

// wrap breaks s into lines no wider than w: at spaces when it can, inside a
// word when a word alone is too wide (long resource names, CJK text).
func (d *pdfDoc) wrap(s string, w float64) []string {
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		line := ""
		for _, word := range strings.Fields(para) {
			cand := word
			if line != "" {
				cand = line + " " + word
			}
			if d.width(cand) <= w {
				line = cand
				continue
			}
			if line != "" {
				lines = append(lines, line)
			}
			line = word
			for d.width(line) > w && utf8.RuneCountInString(line) > 1 {
				rs := []rune(line)
				n := len(rs) - 1
				for n > 1 && d.width(string(rs[:n])) > w {
					n--
				}
				n = breakAfterPunct(rs, n)
				lines = append(lines, string(rs[:n]))
				line = string(rs[n:])
			}
		}
		lines = append(lines, line)
	}
	return lines
}

// breakAfterPunct moves a break inside a word of n runes back to just
// after its last '_', '-', '/', '.' or ':' (aws_cloudwatch_log_ | group
// rather than aws_cloudwatch_log_gro | up), unless that would leave less
// than a third of the line.
func breakAfterPunct(rs []rune, n int) int {
	for i := n; i > n/3 && i > 1; i-- {
		switch rs[i-1] {
		case '_', '-', '/', '.', ':':
			return i
		}
	}
	return n
}

// paragraph writes wrapped text across the content width, breaking pages.
func (d *pdfDoc) paragraph(s string, size float64) {
	d.setFont(size, false)
	for _, l := range d.wrap(s, contentW) {
		d.ensure(lineH)
		d.text(margin, d.f.GetY(), contentW, l, "L")
		d.f.SetY(d.f.GetY() + lineH)
	}
	d.f.SetY(d.f.GetY() + 1.5)
}

// ensure starts a new page unless h millimetres fit on the current one.
func (d *pdfDoc) ensure(h float64) bool {
	if d.f.GetY()+h <= bodyBottom {
		return false
	}
	d.addPage()
	return true
}

// section starts a titled section (level 1 on a new page), with a table of
// contents entry and a PDF bookmark.
func (d *pdfDoc) section(title string, level int, newPage bool) {
	if newPage {
		d.addPage()
	} else {
		d.ensure(24)
		d.f.SetY(d.f.GetY() + 3)
	}
	if level == 1 {
		d.starts = append(d.starts, d.f.PageNo())
	}
	link := d.f.AddLink()
	d.f.SetLink(link, d.f.GetY(), -1)
	if len(d.toc) < tocCapacity {
		d.toc = append(d.toc, tocEntry{title: title, level: level, page: d.f.PageNo(), link: link})
	} else {
		d.tocMore++
	}
	d.f.Bookmark(title, level-1, -1)
	size := map[int]float64{1: 16, 2: 12.5}[level]
	if size == 0 {
		size = 11
	}
	d.setFont(size, true)
	d.f.SetTextColor(22, 46, 92)
	for _, l := range d.wrap(title, contentW) {
		d.text(margin, d.f.GetY(), contentW, l, "L")
		d.f.SetY(d.f.GetY() + size*0.45)
	}
	d.f.SetTextColor(30, 34, 42)
	d.f.SetY(d.f.GetY() + 1.5)
	d.setFont(10, false)
}

// roomForSection reports whether a third of the page's body is left: a
// section may then start on the current page instead of leaving it mostly
// empty.
func (d *pdfDoc) roomForSection() bool {
	return bodyBottom-d.f.GetY() >= (bodyBottom-bodyTop)/3
}

// reserveTOC adds the page the table of contents is written on at the end.
func (d *pdfDoc) reserveTOC() { d.addPage() }

// writeTOC fills the reserved page with the entries and their pages.
func (d *pdfDoc) writeTOC() {
	last := d.f.PageNo()
	d.f.SetPage(tocPage)
	d.resync()
	d.f.SetY(22)
	d.setFont(16, true)
	d.f.SetTextColor(22, 46, 92)
	d.text(margin, 22, contentW, "Contents", "L")
	d.f.SetTextColor(30, 34, 42)
	y := 34.0
	for _, e := range d.toc {
		indent := float64(e.level-1) * 7
		d.setFont(10.5-float64(e.level-1), e.level == 1)
		title := d.fit(e.title, contentW-indent-20)
		d.text(margin+indent, y, contentW-indent-15, title, "L")
		tw := d.width(title)
		d.f.SetDrawColor(180, 185, 195)
		d.f.SetDashPattern([]float64{0.4, 1.2}, 0)
		d.f.Line(margin+indent+tw+2, y+3.4, pageW-margin-12, y+3.4)
		d.f.SetDashPattern(nil, 0)
		d.text(pageW-margin-11, y, 11, fmt.Sprint(e.page), "R")
		d.f.Link(margin+indent, y, contentW-indent, lineH+1, e.link)
		y += 6.8
	}
	if d.tocMore > 0 {
		d.setFont(9, false)
		d.text(margin, y+2, contentW, fmt.Sprintf("… and %d more sections (see the PDF bookmarks)", d.tocMore), "L")
	}
	d.f.SetPage(last)
	d.resync()
}

// resync writes the fill colour and font into the page just selected with
// SetPage. gofpdf skips operators that repeat its current state, which is
// the state of another page's content stream: without this the TOC's
// title, whose colour gofpdf only writes when it differs from the fill,
// took the colour of whatever fill that page's stream last held.
func (d *pdfDoc) resync() {
	d.f.SetFillColor(255, 255, 255)
	d.f.SetFont(fontSans, "", 1) // a size nothing uses, so the next font is written out
	d.cur.family = ""
}

// layoutHook, when set (by tests), receives each document's layout notes
// and the pages its level-1 sections begin on, as it is written out.
var layoutHook func(title string, notes []string, starts []int)

// layoutNote records a layout fault on the current page.
func (d *pdfDoc) layoutNote(s string) {
	d.notes = append(d.notes, fmt.Sprintf("page %d: %s", d.f.PageNo(), s))
}

// output closes the document and writes it to w.
func (d *pdfDoc) output(w io.Writer) error {
	if layoutHook != nil {
		layoutHook(d.title, d.notes, d.starts)
	}
	if !d.noTOC {
		d.writeTOC()
	}
	if err := d.f.Error(); err != nil {
		return err
	}
	return d.f.Output(w)
}

// stamp formats a time for a reader (UTC, minutes).
func stamp(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}
