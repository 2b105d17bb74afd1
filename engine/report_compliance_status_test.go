package engine

import "testing"

// TestControlStatus checks a control is insufficient data only when no
// rule judged any resource, and passes when one did even though another
// lacked data.
func TestControlStatus(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		failing               int64
		judged                bool
		checked, notEvaluated int64
		want                  string
	}{
		{"a finding fails", 1, true, 10, 0, ControlFail},
		{"a finding fails despite unknowns", 1, false, 10, 10, ControlFail},
		{"all not evaluated", 0, false, 10, 10, ControlInsufficientData},
		{"some judged, some not evaluated", 0, true, 10, 4, ControlPass},
		{"nothing to check", 0, false, 0, 0, ControlNotApplicable},
		{"judged, all passed", 0, true, 10, 0, ControlPass},
	} {
		if got := controlStatus(tc.failing, tc.judged, tc.checked, tc.notEvaluated); got != tc.want {
			t.Errorf("%s: controlStatus = %s; want %s", tc.name, got, tc.want)
		}
	}
}
