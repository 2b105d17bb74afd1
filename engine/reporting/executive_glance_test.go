package reporting

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// TestKeyMessages covers the sentences' edge cases: a first audit, no open
// findings, cost findings none of which has a price.
func TestKeyMessages(t *testing.T) {
	rep := &engine.ExecutiveSummaryReport{CostWaste: engine.CostWaste{NotEstimated: 3,
		ByRule: []engine.CostWasteRule{{RuleID: "aws-logs-001", Title: "Log group never expires", Findings: 3, Basis: "not_estimated"}}}}
	got := keyMessages(rep, nil, false)
	want := []string{"No open findings of weight", "first audit", "3 open cost findings, none with a known price: not estimated"}
	if len(got) != 3 {
		t.Fatalf("%d messages, want 3", len(got))
	}
	for i, m := range got {
		if !strings.Contains(m.Text, want[i]) {
			t.Errorf("%s: %q, want it to say %q", m.Kind, m.Text, want[i])
		}
	}
	prev := 30.0
	rep = &engine.ExecutiveSummaryReport{Posture: engine.PostureScore{Score: 25, PreviousScore: &prev, WeightedOpen: 40},
		Changes: engine.AuditChanges{New: 4, Resolved: 1},
		CostWaste: engine.CostWaste{ByRule: []engine.CostWasteRule{{RuleID: "aws-ebs-004", Title: "EBS volume is not attached", Findings: 2,
			Estimated: 2, MonthlyUSD: 22.25, Basis: "evidence"}}}}
	actions := []engine.TopAction{{RuleID: "aws-s3-004", Title: "cheap", RiskRemoved: 10, Open: 5, Severity: engine.SeverityMedium},
		{RuleID: "aws-ec2-004", Title: "open SG", RiskRemoved: 30, Open: 3, Severity: engine.SeverityCritical}}
	got = keyMessages(rep, actions, true)
	want = []string{`"open SG" (aws-ec2-004): 3 open critical findings, 75% of the weighted risk`,
		"4 new findings, 1 resolved; the posture score moved from 30.0 to 25.0", "about $22.25 a month"}
	for i, m := range got {
		if !strings.Contains(m.Text, want[i]) {
			t.Errorf("%s: %q, want it to say %q", m.Kind, m.Text, want[i])
		}
	}

	// A rule whose findings span severities (a policy moved some, or a
	// custom rule) is not said to have them all at its highest; large
	// figures are written with separators.
	rep = &engine.ExecutiveSummaryReport{Posture: engine.PostureScore{WeightedOpen: 2599248}, Changes: engine.AuditChanges{New: 1234567, Resolved: 1000},
		CostWaste: engine.CostWaste{NotEstimated: 199946}}
	actions = []engine.TopAction{{RuleID: "custom-001", Title: "mixed", RiskRemoved: 2599248, Open: 1000000, Severity: engine.SeverityCritical,
		BySeverity: map[engine.Severity]int64{engine.SeverityCritical: 69906, engine.SeverityHigh: 180074, engine.SeverityLow: 750020}}}
	got = keyMessages(rep, actions, true)
	want = []string{`"mixed" (custom-001): 1,000,000 open findings, 69,906 of them critical, 100% of the weighted risk`,
		"1,234,567 new findings, 1,000 resolved", "199,946 open cost findings"}
	for i, m := range got {
		if !strings.Contains(m.Text, want[i]) {
			t.Errorf("%s: %q, want it to say %q", m.Kind, m.Text, want[i])
		}
	}
	for _, n := range []int64{0, 7, 999, 1000, -1000, 1000000, -123456789} {
		want := fmt.Sprint(n)
		if got := strings.ReplaceAll(groupDigits(n), ",", ""); got != want {
			t.Errorf("groupDigits(%d) = %q", n, groupDigits(n))
		}
	}
	if groupDigits(-1234567) != "-1,234,567" || groupDigits(123456) != "123,456" {
		t.Errorf("groupDigits: %q, %q", groupDigits(-1234567), groupDigits(123456))
	}
}

// TestDistinctResources: a resource failing several of a control's rules is
// listed once, with its first (most severe) finding; the cap counts
// resources, and covered counts the findings of the listed resources.
func TestDistinctResources(t *testing.T) {
	r := func(id string, sev engine.Severity) engine.AffectedResource {
		return engine.AffectedResource{ResourceID: id, Severity: sev}
	}
	rs := []engine.AffectedResource{r("a", engine.SeverityCritical), r("b", engine.SeverityHigh), r("a", engine.SeverityHigh), r("c", engine.SeverityLow), r("b", engine.SeverityLow), r("d", engine.SeverityLow)}
	kept, covered := distinctResources(rs, 2)
	if len(kept) != 2 || !reflect.DeepEqual(kept[0], r("a", engine.SeverityCritical)) || !reflect.DeepEqual(kept[1], r("b", engine.SeverityHigh)) {
		t.Errorf("kept %v; want a (critical) and b (high) once each", kept)
	}
	if covered != 4 { // a twice, b twice; c and d are not listed
		t.Errorf("covered %d; want 4", covered)
	}
}
