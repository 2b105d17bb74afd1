package engine

import (
	"reflect"
	"testing"
)

// TestControlStatus checks a control is insufficient data only when no
// rule judged any resource, and passes when one did even though another
// lacked data.
func TestControlStatus(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		failing               int64
		judged                bool
		checked, notEvaluated int64
		want                  ControlStatus
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

// TestDistinctResources: a resource failing several of a control's rules is
// listed once, with its first (most severe) finding; the cap counts
// resources, and covered counts the findings of the listed resources.
func TestDistinctResources(t *testing.T) {
	r := func(id string, sev Severity) AffectedResource { return AffectedResource{ResourceID: id, Severity: sev} }
	rs := []AffectedResource{r("a", SeverityCritical), r("b", SeverityHigh), r("a", SeverityHigh), r("c", SeverityLow), r("b", SeverityLow), r("d", SeverityLow)}
	kept, covered := distinctResources(rs, 2)
	if len(kept) != 2 || !reflect.DeepEqual(kept[0], r("a", SeverityCritical)) || !reflect.DeepEqual(kept[1], r("b", SeverityHigh)) {
		t.Errorf("kept %v; want a (critical) and b (high) once each", kept)
	}
	if covered != 4 { // a twice, b twice; c and d are not listed
		t.Errorf("covered %d; want 4", covered)
	}
}
