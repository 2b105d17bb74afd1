package engine

import (
	"bufio"
	"strconv"
	"time"
	"unicode"
	"unicode/utf8"
)

// csvLine builds one CSV record (RFC 4180, CRLF) in a reused buffer with
// the bytes encoding/csv's Writer (UseCRLF) would write for the same
// cells, each defused as csvSafe does, without a string per cell: the
// findings export writes millions of rows (issue 33 §5).
type csvLine struct {
	buf []byte
	n   int // cells so far
}

// reset starts a new record.
func (l *csvLine) reset() { l.buf, l.n = l.buf[:0], 0 }

// cell appends one cell.
func (l *csvLine) cell(s string) {
	if l.n > 0 {
		l.buf = append(l.buf, ',')
	}
	l.n++
	prefix, quote := false, csvNeedsQuotes(s)
	if s != "" {
		switch s[0] {
		case '=', '+', '-', '@', '\t', '\r': // csvSafe: the cell becomes "'" + s
			prefix, quote = true, csvHasSpecial(s)
		}
	}
	if !quote {
		if prefix {
			l.buf = append(l.buf, '\'')
		}
		l.buf = append(l.buf, s...)
		return
	}
	l.buf = append(l.buf, '"')
	if prefix {
		l.buf = append(l.buf, '\'')
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			l.buf = append(l.buf, '"', '"')
		case '\r': // dropped with UseCRLF, as encoding/csv does
		case '\n':
			l.buf = append(l.buf, '\r', '\n')
		default:
			l.buf = append(l.buf, c)
		}
	}
	l.buf = append(l.buf, '"')
}

// time appends a time as RFC 3339 UTC.
func (l *csvLine) time(t time.Time) {
	if l.n > 0 {
		l.buf = append(l.buf, ',')
	}
	l.n++
	l.buf = t.UTC().AppendFormat(l.buf, time.RFC3339)
}

// int appends an integer cell (never defused: a negative number is data).
func (l *csvLine) int(v int64) {
	if l.n > 0 {
		l.buf = append(l.buf, ',')
	}
	l.n++
	if v < 0 {
		l.buf = append(l.buf, '\'') // csvSafe's "-" rule
	}
	l.buf = strconv.AppendInt(l.buf, v, 10)
}

// end finishes the record and writes it to w.
func (l *csvLine) end(w *bufio.Writer) error {
	l.buf = append(l.buf, '\r', '\n')
	_, err := w.Write(l.buf)
	return err
}

// csvHasSpecial reports whether s holds a byte that makes encoding/csv
// quote a field anywhere in it.
func csvHasSpecial(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n', '\r', '"', ',':
			return true
		}
	}
	return false
}

// csvNeedsQuotes is encoding/csv's fieldNeedsQuotes for a comma-separated
// writer.
func csvNeedsQuotes(s string) bool {
	if s == "" {
		return false
	}
	if s == `\.` || csvHasSpecial(s) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsSpace(r)
}
