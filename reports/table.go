package reports

// cellPad is the space between a cell's text and its column's edges, in
// millimetres.
const cellPad = 1.8

// column is one column of a table: its heading, width in millimetres and
// alignment (L, C or R).
type column struct {
	head  string
	w     float64
	align string
}

// table draws rows under a heading row that is repeated on every page the
// table continues on. Cells wrap; a row never breaks across pages. Rows are
// laid out at end, all at once, so that neither the first nor the last row
// of a table is left alone on a page.
type table struct {
	d    *pdfDoc
	cols []column
	size float64
	rows []tableRow
}

// tableRow is one row's cells and the id drawn under them (see rowWithID).
type tableRow struct {
	id    string
	cells []string
}

// laidOutRow is a row wrapped to its columns.
type laidOutRow struct {
	lines   [][]string
	idLines []string
	n       int // lines of the tallest cell
	h       float64
}

func (d *pdfDoc) newTable(size float64, cols ...column) *table {
	return &table{d: d, cols: cols, size: size}
}

func (t *table) head() {
	d := t.d
	d.setFont(t.size, true)
	y := d.f.GetY()
	d.f.SetFillColor(22, 46, 92)
	d.f.Rect(margin, y, t.width(), lineH+1.4, "F")
	d.f.SetTextColor(255, 255, 255)
	x := margin
	for _, c := range t.cols {
		d.text(x+cellPad, y+0.7, c.w-2*cellPad, c.head, c.align)
		x += c.w
	}
	d.f.SetTextColor(30, 34, 42)
	d.f.SetY(y + lineH + 1.4)
	d.setFont(t.size, false)
}

func (t *table) width() float64 {
	w := 0.0
	for _, c := range t.cols {
		w += c.w
	}
	return w
}

// row adds one row of cells, one per column.
func (t *table) row(cells ...string) { t.rowWithID("", cells...) }

// rowWithID adds a row of cells and, when id is not empty, a line under
// them across the whole table holding id: an ARN is too long for a column
// and must not break across lines (it could not be copied or searched for).
func (t *table) rowWithID(id string, cells ...string) {
	t.rows = append(t.rows, tableRow{id: id, cells: cells})
}

// layout wraps a row's cells.
func (t *table) layout(r tableRow) laidOutRow {
	d := t.d
	d.setFont(t.size, false)
	out := laidOutRow{lines: make([][]string, len(t.cols)), n: 1}
	for i, c := range t.cols {
		if i < len(r.cells) {
			out.lines[i] = d.wrap(r.cells[i], c.w-2*cellPad)
		}
		out.n = max(out.n, len(out.lines[i]))
	}
	if r.id != "" {
		out.idLines = d.wrap(r.id, t.width()-2*cellPad)
	}
	out.h = float64(out.n+len(out.idLines))*t.size*0.42 + 1.6
	return out
}

// end draws the table and leaves a little space after it. A page break
// comes before the first row when the heading and the first two rows do
// not fit together, and before the second-to-last row when the last two
// do not: a row alone on a page, cut from its table, is hard to read.
func (t *table) end() {
	d := t.d
	rows := make([]laidOutRow, len(t.rows))
	for i, r := range t.rows {
		rows[i] = t.layout(r)
	}
	headH := lineH + 1.4
	first := headH + 3*lineH
	if len(rows) > 0 {
		first = headH + rows[0].h
		if len(rows) > 1 && first+rows[1].h <= bodyBottom-22 {
			first += rows[1].h
		}
	}
	d.ensure(first)
	t.head()
	onPage := 0
	for i, r := range rows {
		fits := d.f.GetY()+r.h <= bodyBottom
		if fits && onPage > 0 && i == len(rows)-2 && d.f.GetY()+r.h+rows[i+1].h > bodyBottom {
			fits = false // keep the last two rows together
		}
		if !fits {
			if onPage == 1 && i > 1 {
				d.layoutNote("a table row is alone on a page")
			}
			d.addPage()
			t.head()
			onPage = 0
		}
		t.draw(r, i)
		onPage++
	}
	if onPage == 1 && len(rows) > 1 {
		d.layoutNote("a table row is alone on a page")
	}
	d.f.SetY(d.f.GetY() + 4)
}

// draw draws the i-th row at the current position.
func (t *table) draw(r laidOutRow, i int) {
	d := t.d
	d.setFont(t.size, false)
	lh := t.size * 0.42
	y := d.f.GetY()
	if i%2 == 1 {
		d.f.SetFillColor(242, 244, 248)
		d.f.Rect(margin, y, t.width(), r.h, "F")
	}
	x := margin
	for ci, c := range t.cols {
		for j, l := range r.lines[ci] {
			d.text(x+cellPad, y+0.8+float64(j)*lh-(lineH-lh)/2, c.w-2*cellPad, l, c.align)
		}
		x += c.w
	}
	d.f.SetTextColor(70, 78, 92)
	for j, l := range r.idLines {
		d.text(margin+cellPad, y+0.8+float64(r.n+j)*lh-(lineH-lh)/2, t.width()-2*cellPad, l, "L")
	}
	d.f.SetTextColor(30, 34, 42)
	d.f.SetDrawColor(225, 228, 235)
	d.f.Line(margin, y+r.h, margin+t.width(), y+r.h)
	d.f.SetY(y + r.h)
}

// empty writes a muted line for a section with nothing to show.
func (d *pdfDoc) empty(s string) {
	d.ensure(2 * lineH)
	d.setFont(10, false)
	d.f.SetTextColor(110, 118, 130)
	d.text(margin, d.f.GetY(), contentW, s, "L")
	d.f.SetTextColor(30, 34, 42)
	d.f.SetY(d.f.GetY() + lineH + 3)
}
