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
// table continues on. Cells wrap; a row never breaks across pages.
type table struct {
	d    *pdfDoc
	cols []column
	size float64
	n    int
}

func (d *pdfDoc) newTable(size float64, cols ...column) *table {
	t := &table{d: d, cols: cols, size: size}
	d.ensure(3 * lineH)
	t.head()
	return t
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

// row draws one row of cells, one per column.
func (t *table) row(cells ...string) { t.rowWithID("", cells...) }

// rowWithID draws a row of cells and, when id is not empty, a line under
// them across the whole table holding id: an ARN is too long for a column
// and must not break across lines (it could not be copied or searched for).
func (t *table) rowWithID(id string, cells ...string) {
	d := t.d
	d.setFont(t.size, false)
	lines := make([][]string, len(t.cols))
	n := 1
	for i, c := range t.cols {
		if i < len(cells) {
			lines[i] = d.wrap(cells[i], c.w-2*cellPad)
		}
		n = max(n, len(lines[i]))
	}
	var idLines []string
	if id != "" {
		idLines = d.wrap(id, t.width()-2*cellPad)
	}
	lh := t.size * 0.42
	h := float64(n+len(idLines))*lh + 1.6
	if d.ensure(h) {
		t.head()
	}
	y := d.f.GetY()
	if t.n%2 == 1 {
		d.f.SetFillColor(242, 244, 248)
		d.f.Rect(margin, y, t.width(), h, "F")
	}
	x := margin
	for i, c := range t.cols {
		for j, l := range lines[i] {
			d.text(x+cellPad, y+0.8+float64(j)*lh-(lineH-lh)/2, c.w-2*cellPad, l, c.align)
		}
		x += c.w
	}
	d.f.SetTextColor(70, 78, 92)
	for j, l := range idLines {
		d.text(margin+cellPad, y+0.8+float64(n+j)*lh-(lineH-lh)/2, t.width()-2*cellPad, l, "L")
	}
	d.f.SetTextColor(30, 34, 42)
	d.f.SetDrawColor(225, 228, 235)
	d.f.Line(margin, y+h, margin+t.width(), y+h)
	d.f.SetY(y + h)
	t.n++
}

// end leaves a little space after the table.
func (t *table) end() { t.d.f.SetY(t.d.f.GetY() + 4) }

// empty writes a muted line for a section with nothing to show.
func (d *pdfDoc) empty(s string) {
	d.ensure(2 * lineH)
	d.setFont(10, false)
	d.f.SetTextColor(110, 118, 130)
	d.text(margin, d.f.GetY(), contentW, s, "L")
	d.f.SetTextColor(30, 34, 42)
	d.f.SetY(d.f.GetY() + lineH + 3)
}
