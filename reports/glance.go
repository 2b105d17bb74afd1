package reports

import (
	"fmt"

	"github.com/fourd-dev/fourd/engine"
)

// exposureText says the posture in words a reader outside security
// follows: the share of resources without a critical or high finding, and
// how the critical and high findings moved since the previous audit of the
// trend.
func exposureText(s *engine.ExecutiveSummaryReport) string {
	e := s.Exposure
	if e.ResourcesScanned == 0 {
		return "No resource was scanned."
	}
	text := fmt.Sprintf("%.1f%% of the %s resources scanned have no open critical or high finding; %s have at least one.",
		e.ClearPercent, count(e.ResourcesScanned), count(e.WithCriticalOrHigh))
	if n := len(s.Trend); n >= 2 {
		now, before := s.Trend[n-1].Critical+s.Trend[n-1].High, s.Trend[n-2].Critical+s.Trend[n-2].High
		switch {
		case now < before:
			text += fmt.Sprintf(" Open critical and high findings fell from %s to %s since the previous audit.", count(before), count(now))
		case now > before:
			text += fmt.Sprintf(" Open critical and high findings rose from %s to %s since the previous audit.", count(before), count(now))
		default:
			text += fmt.Sprintf(" Open critical and high findings are unchanged since the previous audit (%s).", count(now))
		}
	}
	return text
}
