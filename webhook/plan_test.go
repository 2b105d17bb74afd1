package webhook

import (
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/google/go-cmp/cmp"
)

func TestPlan(t *testing.T) {
	first := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	b := DefaultBackoff()
	b.Jitter = JitterNone
	tests := []struct {
		name string
		n    int
		now  time.Time
		r    Result
		want Plan
	}{
		{"success", 1, first, Result{Outcome: OutcomeSuccess, StatusCode: 200}, Plan{State: StateDelivered}},
		{"gone disables the endpoint", 2, first, Result{Outcome: OutcomeGone, StatusCode: 410}, Plan{State: StateFailed, DisableEndpoint: true}},
		{"invalid delivery fails at once", 1, first, Result{Outcome: OutcomeFailed}, Plan{State: StateFailed}},
		{"retry scheduled", 1, first, Result{Outcome: OutcomeRetry, StatusCode: 500}, Plan{State: StatePending, NextAttemptAt: first.Add(time.Minute)}},
		{"retry-after honoured", 1, first, Result{Outcome: OutcomeRetry, StatusCode: 429, RetryAfter: time.Hour}, Plan{State: StatePending, NextAttemptAt: first.Add(time.Hour)}},
		{"last attempt failed", 8, first.Add(18 * time.Hour), Result{Outcome: OutcomeRetry, StatusCode: 500}, Plan{State: StateFailed}},
		{"window over", 4, first.Add(25 * time.Hour), Result{Outcome: OutcomeRetry}, Plan{State: StateFailed}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, b.Plan(tt.n, first, tt.now, tt.r)); diff != "" {
				t.Errorf("Plan() (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPlanWholeSchedule follows a delivery that always fails: exactly 8
// attempts, all within 24 hours, whatever the jitter.
func TestPlanWholeSchedule(t *testing.T) {
	first := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	for _, r := range []float64{0, 0.5, 0.999} {
		b := DefaultBackoff()
		b.Rand = seq(r)
		now, attempts := first, 0
		for {
			attempts++
			p := b.Plan(attempts, first, now.Add(DefaultTimeout), Result{Outcome: OutcomeRetry, StatusCode: 503})
			if p.State != StatePending {
				break
			}
			now = p.NextAttemptAt
		}
		if attempts != 8 || now.Sub(first) > 24*time.Hour {
			t.Errorf("rand %v: %d attempts, last at +%s", r, attempts, now.Sub(first))
		}
	}
}

func TestEventBody(t *testing.T) {
	tests := []struct {
		name string
		ev   engine.Event
		want string
	}{
		{"finding.created", engine.Event{ID: "evt_1", TenantID: "ten_hidden", Type: engine.EventFindingCreated,
			CreatedAt: time.Date(2026, 11, 21, 6, 21, 10, 0, time.FixedZone("CET", 3600)),
			Data:      []byte(`{"finding":{"title":"a<b & c"}}`)},
			`{"event_id":"evt_1","type":"finding.created","created_at":"2026-11-21T05:21:10Z","data":{"finding":{"title":"a<b & c"}}}`},
		{"no data", engine.Event{ID: "evt_2", Type: engine.EventAuditStarted, CreatedAt: time.Unix(0, 0)},
			`{"event_id":"evt_2","type":"audit.started","created_at":"1970-01-01T00:00:00Z","data":{}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := EventBody(tt.ev)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("EventBody() (-want +got):\n%s", diff)
			}
		})
	}
	if _, err := EventBody(engine.Event{ID: "evt_3", Type: "x", Data: []byte("{not json")}); err == nil {
		t.Error("EventBody accepted invalid data")
	}
}
