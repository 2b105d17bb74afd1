package audit

import (
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// firstSeenIndex keys findings by the bytes their ids encode: every id
// finds its own time back (to the nanosecond, in UTC), and an id it does
// not hold, or a malformed one, finds none.
func TestFirstSeenIndex(t *testing.T) {
	x := firstSeenIndex{}
	base := time.Date(2026, 3, 1, 12, 0, 0, 0, time.FixedZone("CET", 3600))
	var ids []string
	for i := range 1000 {
		id := engine.FindingID("ten_x", "rule", strings.Repeat("r", i%7)+string(rune('a'+i%26))+time.Duration(i).String())
		k, ok := engine.ParseID(engine.PrefixFinding, id)
		if !ok {
			t.Fatalf("ParseID(%q) failed", id)
		}
		x[k] = base.Add(time.Duration(i) * 1001 * time.Microsecond).UnixNano()
		ids = append(ids, id)
	}
	for i, id := range ids {
		got, ok := x.at(id)
		want := base.Add(time.Duration(i) * 1001 * time.Microsecond)
		if !ok || !got.Equal(want) || got.Location() != time.UTC {
			t.Fatalf("at(%q) = %v, %v; want %v in UTC", id, got, ok, want)
		}
	}
	for _, id := range []string{engine.FindingID("ten_y", "rule", "r"), "fnd_short", "res_" + ids[0][4:], ""} {
		if got, ok := x.at(id); ok {
			t.Errorf("at(%q) = %v, want none", id, got)
		}
	}
}
