package reports

import (
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// TestTrendLabel: audits of the same day get their time on the axis, so
// the points can be told apart (they all read "Nov 27" before).
func TestTrendLabel(t *testing.T) {
	at := func(s string) engine.ReportTrendPoint {
		ts, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return engine.ReportTrendPoint{CompletedAt: ts}
	}
	sameDay := []engine.ReportTrendPoint{at("2026-11-27T04:10:00Z"), at("2026-11-27T05:20:00Z"), at("2026-11-27T06:30:00Z")}
	for i, want := range []string{"#1 Nov 27 04:10", "#2 Nov 27 05:20", "#3 Nov 27 06:30"} {
		if got := trendLabel(sameDay, i); got != want {
			t.Errorf("same day, point %d: %q, want %q", i, got, want)
		}
	}
	weekly := []engine.ReportTrendPoint{at("2026-10-13T14:30:00Z"), at("2026-10-20T14:30:00Z")}
	if got := trendLabel(weekly, 1); got != "#2 Oct 20" {
		t.Errorf("weekly: %q, want #2 Oct 20", got)
	}
}
