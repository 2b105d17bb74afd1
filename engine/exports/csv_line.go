package exports

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
	// lastTime and lastText are the time most recently formatted and its
	// text: a snapshot's rows share a few times (an audit's last_seen_at),
	// so most are formatted once.
	lastTime time.Time
	lastText []byte
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
	if l.lastText == nil || !t.Equal(l.lastTime) {
		l.lastTime, l.lastText = t, t.UTC().AppendFormat(l.lastText[:0], time.RFC3339)
	}
	l.buf = append(l.buf, l.lastText...)
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
		if csvSpecial[s[i]] {
			return true
		}
	}
	return false
}

// csvSpecial marks the bytes csvHasSpecial looks for.
var csvSpecial = [256]bool{'\n': true, '\r': true, '"': true, ',': true}

// csvNeedsQuotes is encoding/csv's fieldNeedsQuotes for a comma-separated
// writer.
func csvNeedsQuotes(s string) bool {
	if s == "" {
		return false
	}
	if s == `\.` || csvHasSpecial(s) {
		return true
	}
	if c := s[0]; c < utf8.RuneSelf {
		return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
	}
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsSpace(r)
}
