package clickhouse

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
)

func TestAddPageFilterForcedStatuses(t *testing.T) {
	a, b := engine.FindingID("t", "r", "a"), engine.FindingID("t", "r", "b")
	tests := []struct {
		name     string
		status   engine.FindingStatus
		fc       forced
		wantSQL  string
		wantArgs int
	}{
		{"no decisions", engine.StatusOpen, forced{}, "status = ?", 1},
		{"no status filter", "", forced{resolved: []string{a}}, "", 0},
		{"open minus accepted", engine.StatusOpen, forced{resolved: []string{a}}, "(status = ? AND id NOT IN ?)", 2},
		// A decision without a resolution (reopened, in progress, assigned)
		// never brings a fixed finding into the open list nor takes it out
		// of the resolved one (issue 33).
		{"open plus reopened", engine.StatusOpen, forced{open: []string{b}}, "((status = ?) OR (id IN ? AND resolution != 'fixed'))", 2},
		{"resolved both ways", engine.StatusResolved, forced{resolved: []string{a}, open: []string{b}},
			"((status = ? AND (id NOT IN ? OR resolution = 'fixed')) OR id IN ?)", 3},
		// An id no stored finding can have is left out of the lists.
		{"malformed ids", engine.StatusOpen, forced{resolved: []string{"fnd_x"}, open: []string{"res_1"}}, "(status = ?)", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c conds
			addPageFilter(&c, engine.FindingFilter{Status: tt.status}, tt.fc, conds{})
			if diff := cmp.Diff(tt.wantSQL, c.sql()); diff != "" {
				t.Errorf("sql (-want +got):\n%s", diff)
			}
			if len(c.args) != tt.wantArgs {
				t.Errorf("args = %v, want %d", c.args, tt.wantArgs)
			}
		})
	}
}

func TestClassifyChange(t *testing.T) {
	open := engine.Finding{Status: engine.StatusOpen, Severity: engine.SeverityHigh}
	resolved := engine.Finding{Status: engine.StatusResolved, Severity: engine.SeverityHigh}
	tests := []struct {
		name       string
		f          engine.Finding
		inPrev     bool
		prevSev    engine.Severity
		prevStatus engine.FindingStatus
		want       string
	}{
		{"new", open, false, "", "", engine.EventFindingCreated},
		{"reappeared", open, true, engine.SeverityHigh, engine.StatusResolved, engine.EventFindingCreated},
		{"fixed", resolved, true, engine.SeverityHigh, engine.StatusOpen, engine.EventFindingResolved},
		{"raised", open, true, engine.SeverityLow, engine.StatusOpen, engine.EventFindingSeverityChanged},
		{"unchanged", open, true, engine.SeverityHigh, engine.StatusOpen, ""},
		{"still resolved", resolved, true, engine.SeverityHigh, engine.StatusResolved, ""},
		{"new but accepted", resolved, false, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ch, ok := classifyChange(tt.f, tt.inPrev, tt.prevSev, tt.prevStatus)
			if got := map[bool]string{true: ch.Kind}[ok]; got != tt.want {
				t.Errorf("kind = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestAuditTime(t *testing.T) {
	want := time.Date(2026, 11, 21, 9, 30, 15, 0, time.UTC)
	id := engine.NewID(engine.PrefixAudit, want.Add(789*time.Millisecond))
	if got := auditTime(id); !got.Equal(want) {
		t.Errorf("auditTime(%s) = %v, want %v", id, got, want)
	}
}
