package inventory

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/google/go-cmp/cmp"
)

// capturedLine is goodLine for bucket name with "captured_at": value
// (raw JSON) unless value is empty.
func capturedLine(name, value string) string {
	l := strings.ReplaceAll(goodLine, `:a"`, `:`+name+`"`)
	if value == "" {
		return l
	}
	return strings.TrimSuffix(l, "}") + `,"captured_at":` + value + `}`
}

// TestNDJSONCapturedAt: fourd's NDJSON (and its JSON array) carries the
// configuration's capture time as captured_at, RFC 3339 with a zone,
// stored in UTC; absent, null or "" is not known. A bad value rejects its
// line alone, with the line's number and what is wrong, and the lines
// around it are read.
func TestNDJSONCapturedAt(t *testing.T) {
	at := time.Date(2026, 11, 20, 9, 14, 5, 0, time.UTC)
	lines := []struct {
		name, value string
		want        *time.Time // nil: not known
		err         string     // the rejection's message, when rejected
	}{
		{"utc", `"2026-11-20T09:14:05Z"`, &at, ""},
		{"offset", `"2026-11-20T10:14:05+01:00"`, &at, ""},
		{"fraction", `"2026-11-20T09:14:05.000Z"`, &at, ""},
		{"absent", ``, nil, ""},
		{"null", `null`, nil, ""},
		{"empty", `""`, nil, ""},
		{"words", `"yesterday"`, nil, `line 7: captured_at must be an RFC 3339 time with a time zone, e.g. 2026-11-20T09:14:05Z; got "yesterday"`},
		{"no zone", `"2026-11-20T09:14:05"`, nil, `line 8: captured_at must be an RFC 3339 time with a time zone`},
		{"date only", `"2026-11-20"`, nil, `line 9: captured_at must be an RFC 3339 time`},
		{"epoch number", `1763630045`, nil, `line 10: captured_at must not be a JSON number`},
		{"before 1970", `"1969-12-31T23:59:59Z"`, nil, `line 11: captured_at must be between 1970-01-01 and 2106-02-07`},
		{"after 2106", `"2200-01-01T00:00:00Z"`, nil, `line 12: captured_at must be between 1970-01-01 and 2106-02-07`},
		{"object", `{"t":1}`, nil, `line 13: captured_at must not be a JSON object`},
		{"after the bad ones", `"2026-11-20T09:14:05Z"`, &at, ""},
	}
	var in []string
	for _, l := range lines {
		in = append(in, capturedLine(strings.ReplaceAll(l.name, " ", "-"), l.value))
	}
	d := NewNDJSONDecoder(strings.NewReader(strings.Join(in, "\n")))
	for _, l := range lines {
		r, err := d.Next()
		switch {
		case l.err != "":
			var le *LineError
			if !errors.As(err, &le) || engine.ErrorCode(err) != engine.CodeValidationFailed || !strings.HasPrefix(err.Error(), l.err) {
				t.Errorf("%s: got %v (%s), want validation_failed %q", l.name, err, engine.ErrorCode(err), l.err)
			}
		case err != nil:
			t.Errorf("%s: %v", l.name, err)
		case !cmp.Equal(r.CapturedAt, l.want) || r.CapturedAt != nil && r.CapturedAt.Location() != time.UTC:
			t.Errorf("%s: captured_at %v, want %v", l.name, r.CapturedAt, l.want)
		}
	}
	if _, err := d.Next(); !errors.Is(err, io.EOF) {
		t.Errorf("after the last line: %v", err)
	}

	// The same objects as a JSON array: the element is rejected by its
	// offset, the others read.
	a := NewArrayDecoder(strings.NewReader("[" + capturedLine("x", `"2026-11-20T09:14:05Z"`) + "," + capturedLine("y", `"soon"`) + "]"))
	if r, err := a.Next(); err != nil || r.CapturedAt == nil || !r.CapturedAt.Equal(at) {
		t.Errorf("array: %v, captured_at %v", err, r.CapturedAt)
	}
	if _, err := a.Next(); engine.ErrorCode(err) != engine.CodeValidationFailed || !strings.Contains(err.Error(), `captured_at must be an RFC 3339 time`) {
		t.Errorf("array: a bad captured_at gives %v", err)
	}
}

// TestNDJSONCapturedAtFastAsSlow: the fast path reads captured_at as
// encoding/json does, and leaves a line with a near-miss key to it.
func TestNDJSONCapturedAtFastAsSlow(t *testing.T) {
	for _, line := range []string{
		capturedLine("a", `"2026-11-20T09:14:05Z"`), capturedLine("a", `null`), capturedLine("a", `"x\u00e9"`),
		strings.TrimSuffix(goodLine, "}") + `,"Captured_At":"2026-11-20T09:14:05Z"}`,
	} {
		slow, err := slowLine([]byte(line))
		if err != nil {
			t.Fatal(err)
		}
		if fast, ok := fastLine([]byte(line), false, nil); ok {
			if diff := cmp.Diff(slow, asSlow(fast), cmp.AllowUnexported(ndjsonLine{})); diff != "" {
				t.Errorf("%s: (-encoding/json +fast)\n%s", line, diff)
			}
		} else if !strings.Contains(line, "Captured_At") {
			t.Errorf("the fast path gave up on %s", line)
		}
		if strings.Contains(line, "Captured_At") && slow.CapturedAt == "" {
			t.Errorf("encoding/json did not match Captured_At")
		}
	}
}
