package engine

import "testing"

// Rank and Number are switches; they must agree with the lists that
// define the order, and say 0 for anything else.
func TestSeverityRankAndDimensionNumberFollowTheirLists(t *testing.T) {
	for i, s := range Severities {
		if got := s.Rank(); got != i+1 {
			t.Errorf("%s.Rank() = %d, want %d", s, got, i+1)
		}
		if SeverityFromRank(i+1) != s {
			t.Errorf("SeverityFromRank(%d) = %q, want %q", i+1, SeverityFromRank(i+1), s)
		}
	}
	for i, d := range Dimensions {
		if got := d.Number(); got != i+1 {
			t.Errorf("%s.Number() = %d, want %d", d, got, i+1)
		}
	}
	for _, bad := range []string{"", "Critical", "crit", "security ", "none"} {
		if Severity(bad).Rank() != 0 || Severity(bad).Valid() {
			t.Errorf("severity %q is ranked", bad)
		}
		if Dimension(bad).Number() != 0 || Dimension(bad).Valid() {
			t.Errorf("dimension %q is numbered", bad)
		}
	}
}
