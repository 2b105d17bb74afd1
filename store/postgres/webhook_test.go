package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/postgres"
)

// mustEndpoint stores an enabled endpoint subscribed to types.
func mustEndpoint(t *testing.T, s *postgres.Store, tenantID string, ms int, types ...string) engine.WebhookEndpoint {
	t.Helper()
	now := t0.Add(time.Duration(ms) * time.Millisecond)
	e := engine.WebhookEndpoint{ID: newID(engine.PrefixWebhook, ms), TenantID: tenantID, URL: "https://hooks.example.com/" + fmt.Sprint(ms),
		EventTypes: types, Description: "d", Enabled: true, SealedSecret: "v1:sealed-" + fmt.Sprint(ms), CreatedAt: now, UpdatedAt: now}
	if err := s.CreateWebhookEndpoint(context.Background(), e); err != nil {
		t.Fatalf("CreateWebhookEndpoint: %v", err)
	}
	return e
}

// appendTyped appends events of the given types, one millisecond apart.
func appendTyped(t *testing.T, s *postgres.Store, tenantID string, ms int, types ...string) []engine.Event {
	t.Helper()
	var evs []engine.Event
	for i, typ := range types {
		at := t0.Add(time.Duration(ms+i) * time.Millisecond)
		evs = append(evs, engine.Event{ID: engine.NewID(engine.PrefixEvent, at), TenantID: tenantID, Type: typ,
			CreatedAt: at, Data: json.RawMessage(`{"n":` + fmt.Sprint(i) + `}`)})
	}
	if err := s.AppendEvents(context.Background(), evs); err != nil {
		t.Fatalf("AppendEvents: %v", err)
	}
	return evs
}

func TestWebhookEndpointCRUD(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	a, b := mustTenant(t, s, "a"), mustTenant(t, s, "b")
	var ids []string
	for i := range 5 {
		ids = append([]string{mustEndpoint(t, s, a.ID, i, "*").ID}, ids...)
	}
	got := pageAll(t, 2, func(before string, limit int) ([]string, error) {
		es, err := s.ListWebhookEndpoints(ctx, engine.WebhookEndpointQuery{TenantID: a.ID, BeforeID: before, Limit: limit})
		var out []string
		for _, e := range es {
			out = append(out, e.ID)
		}
		return out, err
	})
	diff(t, "ids newest first", ids, got)

	_, err := s.GetWebhookEndpoint(ctx, b.ID, ids[0])
	wantCode(t, "Get of another tenant's endpoint", err, engine.CodeNotFound)

	e, err := s.GetWebhookEndpoint(ctx, a.ID, ids[0])
	if err != nil {
		t.Fatal(err)
	}
	// A person disables it; fourd had set no reason.
	e.Enabled, e.URL, e.EventTypes, e.UpdatedAt = false, "https://new.example.com/h", []string{engine.EventAuditCompleted}, t0.Add(time.Hour)
	upd, err := s.UpdateWebhookEndpoint(ctx, e)
	if err != nil {
		t.Fatal(err)
	}
	diff(t, "updated", struct {
		URL     string
		Types   []string
		Enabled bool
		At      *time.Time
	}{e.URL, e.EventTypes, false, at(time.Hour)}, struct {
		URL     string
		Types   []string
		Enabled bool
		At      *time.Time
	}{upd.URL, upd.EventTypes, upd.Enabled, upd.DisabledAt})

	rot, err := s.RotateWebhookSecret(ctx, a.ID, e.ID, "v1:new", t0.Add(25*time.Hour), t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	diff(t, "rotated secrets", []string{"v1:new", e.SealedSecret}, []string{rot.SealedSecret, rot.PreviousSealedSecret})

	if err := s.DeleteWebhookEndpoint(ctx, a.ID, e.ID, t0.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "second delete", s.DeleteWebhookEndpoint(ctx, a.ID, e.ID, t0.Add(2*time.Hour)), engine.CodeNotFound)
	_, err = s.GetWebhookEndpoint(ctx, a.ID, e.ID)
	wantCode(t, "Get after delete", err, engine.CodeNotFound)
	_, err = s.RotateWebhookSecret(ctx, a.ID, e.ID, "v1:x", t0, t0)
	wantCode(t, "rotate after delete", err, engine.CodeNotFound)
}

func TestFanOutMatchesSubscriptions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	a, b := mustTenant(t, s, "a"), mustTenant(t, s, "b")
	all := mustEndpoint(t, s, a.ID, 1, "*")
	audits := mustEndpoint(t, s, a.ID, 2, engine.EventAuditCompleted, engine.EventAuditStarted)
	other := mustEndpoint(t, s, b.ID, 3, "*")
	evA := appendTyped(t, s, a.ID, 10, engine.EventFindingCreated, engine.EventAuditCompleted)
	evB := appendTyped(t, s, b.ID, 20, engine.EventResourceAdded)

	n, err := s.FanOutEvents(ctx, 100, t0)
	if err != nil || n != 3 {
		t.Fatalf("FanOutEvents = %d, %v; want 3 events", n, err)
	}
	if n, err := s.FanOutEvents(ctx, 100, t0); err != nil || n != 0 {
		t.Fatalf("second FanOutEvents = %d, %v; want 0", n, err)
	}
	tests := []struct {
		endpoint string
		tenant   string
		want     []string
	}{
		{all.ID, a.ID, []string{evA[1].ID, evA[0].ID}},
		{audits.ID, a.ID, []string{evA[1].ID}},
		{other.ID, b.ID, []string{evB[0].ID}},
	}
	for _, tt := range tests {
		t.Run(tt.endpoint, func(t *testing.T) {
			ds, err := s.ListDeliveries(ctx, engine.DeliveryQuery{TenantID: tt.tenant, EndpointID: tt.endpoint, Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range ds {
				got = append(got, d.EventID)
				if d.Status != engine.DeliveryPending || d.Origin != "fanout" || d.NextAttemptAt == nil {
					t.Errorf("delivery %+v; want pending fanout with a next attempt", d)
				}
			}
			diff(t, "events delivered (newest first)", tt.want, got)
		})
	}
}

// claimOne claims exactly one delivery at now or fails the test.
func claimOne(t *testing.T, s *postgres.Store, worker string, now time.Time) engine.ClaimedDelivery {
	t.Helper()
	cs, err := s.ClaimDeliveries(context.Background(), worker, now, 10, time.Minute)
	if err != nil || len(cs) != 1 {
		t.Fatalf("ClaimDeliveries at %s = %d deliveries, %v; want 1", now, len(cs), err)
	}
	return cs[0]
}

func TestClaimRecordLifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	a := mustTenant(t, s, "a")
	ep := mustEndpoint(t, s, a.ID, 1, "*")
	ev := appendTyped(t, s, a.ID, 10, engine.EventFindingCreated)[0]
	if _, err := s.FanOutEvents(ctx, 10, t0); err != nil {
		t.Fatal(err)
	}

	c1 := claimOne(t, s, "w1", t0)
	var data map[string]int
	if err := json.Unmarshal(c1.Event.Data, &data); err != nil {
		t.Fatal(err)
	}
	diff(t, "claim", []any{1, ep.ID, ep.URL, ep.SealedSecret, ev.ID, ev.Type, map[string]int{"n": 0}},
		[]any{c1.Attempt, c1.EndpointID, c1.URL, c1.SealedSecret, c1.Event.ID, c1.Event.Type, data})
	if cs, _ := s.ClaimDeliveries(ctx, "w2", t0.Add(30*time.Second), 10, time.Minute); len(cs) != 0 {
		t.Fatalf("a leased delivery was claimed again before its lease ended: %v", cs)
	}
	// w1 dies; after the lease w2 takes over, and the log says so.
	c2 := claimOne(t, s, "w2", t0.Add(61*time.Second))
	if c2.Attempt != 2 || !c2.FirstAttemptAt.Equal(t0) {
		t.Fatalf("re-claim attempt %d first %s; want 2 and %s", c2.Attempt, c2.FirstAttemptAt, t0)
	}
	// w1's late result fills in attempt 1 without moving the delivery.
	late := engine.DeliveryAttemptRecord{DeliveryID: c1.ID, Attempt: 1, StartedAt: t0, Outcome: engine.AttemptSuccess,
		StatusCode: 200, Latency: 3 * time.Millisecond, Status: engine.DeliveryDelivered, Now: t0.Add(62 * time.Second)}
	if err := s.RecordDeliveryAttempt(ctx, late); err != nil {
		t.Fatal(err)
	}
	next := t0.Add(5 * time.Minute)
	fail := engine.DeliveryAttemptRecord{DeliveryID: c2.ID, Attempt: 2, StartedAt: t0.Add(61 * time.Second),
		Outcome: engine.AttemptRetry, StatusCode: 500, Latency: time.Millisecond, Error: "endpoint answered HTTP 500",
		Status: engine.DeliveryPending, NextAttemptAt: next, Now: t0.Add(62 * time.Second)}
	if err := s.RecordDeliveryAttempt(ctx, fail); err != nil {
		t.Fatal(err)
	}
	if cs, _ := s.ClaimDeliveries(ctx, "w2", next.Add(-time.Second), 10, time.Minute); len(cs) != 0 {
		t.Fatal("claimed before its next attempt")
	}
	c3 := claimOne(t, s, "w2", next)
	ok := engine.DeliveryAttemptRecord{DeliveryID: c3.ID, Attempt: 3, StartedAt: next, Outcome: engine.AttemptSuccess,
		StatusCode: 204, Latency: 2 * time.Millisecond, Status: engine.DeliveryDelivered, Now: next}
	if err := s.RecordDeliveryAttempt(ctx, ok); err != nil {
		t.Fatal(err)
	}
	ds, err := s.ListDeliveries(ctx, engine.DeliveryQuery{TenantID: a.ID, EventID: ev.ID, Limit: 10})
	if err != nil || len(ds) != 1 {
		t.Fatalf("ListDeliveries = %v, %v", ds, err)
	}
	d := ds[0]
	want := engine.Delivery{ID: c1.ID, TenantID: a.ID, EventID: ev.ID, EventType: ev.Type, EndpointID: ep.ID, Origin: "fanout",
		Status: engine.DeliveryDelivered, Attempts: 3, LastStatusCode: 204, CreatedAt: t0, UpdatedAt: next, DeliveredAt: &next,
		AttemptLog: []engine.DeliveryAttempt{
			{Attempt: 1, StartedAt: t0, Outcome: engine.AttemptSuccess, StatusCode: 200, LatencyMS: 3},
			{Attempt: 2, StartedAt: t0.Add(61 * time.Second), Outcome: engine.AttemptRetry, StatusCode: 500, LatencyMS: 1,
				Error: "endpoint answered HTTP 500", NextAttemptAt: &next},
			{Attempt: 3, StartedAt: next, Outcome: engine.AttemptSuccess, StatusCode: 204, LatencyMS: 2},
		}}
	diff(t, "delivery", want, d)
	wantCode(t, "record of a missing delivery", s.RecordDeliveryAttempt(ctx, engine.DeliveryAttemptRecord{
		DeliveryID: newID(engine.PrefixDelivery, 1), Attempt: 1, StartedAt: t0, Outcome: engine.AttemptSuccess,
		Status: engine.DeliveryDelivered, Now: t0}), engine.CodeNotFound)
}

func TestDisablingEndpoints(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		rec        func(c engine.ClaimedDelivery, now time.Time) engine.DeliveryAttemptRecord
		wantReason string
	}{
		{"410 gone", func(c engine.ClaimedDelivery, now time.Time) engine.DeliveryAttemptRecord {
			return engine.DeliveryAttemptRecord{DeliveryID: c.ID, Attempt: c.Attempt, StartedAt: now, Outcome: engine.AttemptGone,
				StatusCode: 410, Status: engine.DeliveryFailed, DisableReason: "endpoint answered 410 Gone", Now: now}
		}, "endpoint answered 410 Gone"},
		{"failing past the limit", func(c engine.ClaimedDelivery, now time.Time) engine.DeliveryAttemptRecord {
			return engine.DeliveryAttemptRecord{DeliveryID: c.ID, Attempt: c.Attempt, StartedAt: now, Outcome: engine.AttemptRetry,
				StatusCode: 500, Status: engine.DeliveryPending, NextAttemptAt: now.Add(time.Hour), FailingLimit: now, Now: now}
		}, "failing continuously since " + t0.Format(time.RFC3339)},
		{"failing within the limit", func(c engine.ClaimedDelivery, now time.Time) engine.DeliveryAttemptRecord {
			return engine.DeliveryAttemptRecord{DeliveryID: c.ID, Attempt: c.Attempt, StartedAt: now, Outcome: engine.AttemptRetry,
				StatusCode: 500, Status: engine.DeliveryPending, NextAttemptAt: now.Add(time.Hour), FailingLimit: now.Add(-time.Hour), Now: now}
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			s, _ := newStore(t)
			a := mustTenant(t, s, "a")
			ep := mustEndpoint(t, s, a.ID, 1, "*")
			watcher := mustEndpoint(t, s, a.ID, 2, engine.EventWebhookEndpointDisabled)
			appendTyped(t, s, a.ID, 10, engine.EventFindingCreated)
			if _, err := s.FanOutEvents(ctx, 10, t0); err != nil {
				t.Fatal(err)
			}
			c := claimOne(t, s, "w", t0)
			if err := s.RecordDeliveryAttempt(ctx, tt.rec(c, t0)); err != nil {
				t.Fatal(err)
			}
			got, err := s.GetWebhookEndpoint(ctx, a.ID, ep.ID)
			if err != nil {
				t.Fatal(err)
			}
			diff(t, "enabled, reason", []any{tt.wantReason == "", tt.wantReason}, []any{got.Enabled, got.DisabledReason})
			evs, err := s.ListEvents(ctx, engine.EventQuery{TenantID: a.ID, Type: engine.EventWebhookEndpointDisabled, Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			if want := map[bool]int{true: 0, false: 1}[tt.wantReason == ""]; len(evs) != want {
				t.Fatalf("%d disabled events; want %d", len(evs), want)
			}
			if tt.wantReason == "" {
				return
			}
			// The event reaches the endpoint that watches for it.
			if _, err := s.FanOutEvents(ctx, 10, t0); err != nil {
				t.Fatal(err)
			}
			ds, err := s.ListDeliveries(ctx, engine.DeliveryQuery{TenantID: a.ID, EndpointID: watcher.ID, Limit: 10})
			if err != nil || len(ds) != 1 || ds[0].EventID != evs[0].ID {
				t.Fatalf("watcher deliveries = %+v, %v; want the disabled event", ds, err)
			}
			// Redelivery to a disabled endpoint is refused.
			_, err = s.RedeliverEvent(ctx, a.ID, evs[0].ID, ep.ID, t0)
			wantCode(t, "redeliver to disabled", err, engine.CodeConflict)
		})
	}
}

func TestRedeliverRecoverDirected(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	a := mustTenant(t, s, "a")
	ep := mustEndpoint(t, s, a.ID, 1, engine.EventFindingCreated)
	mustEndpoint(t, s, a.ID, 2, engine.EventAuditCompleted)
	evs := appendTyped(t, s, a.ID, 10, engine.EventFindingCreated, engine.EventFindingCreated)
	if _, err := s.FanOutEvents(ctx, 10, t0); err != nil {
		t.Fatal(err)
	}
	// Both deliveries fail for good.
	cs, err := s.ClaimDeliveries(ctx, "w", t0, 10, time.Minute)
	if err != nil || len(cs) != 2 {
		t.Fatalf("claimed %d, %v; want 2", len(cs), err)
	}
	for _, c := range cs {
		if err := s.RecordDeliveryAttempt(ctx, engine.DeliveryAttemptRecord{DeliveryID: c.ID, Attempt: 1, StartedAt: t0,
			Outcome: engine.AttemptRetry, StatusCode: 500, Status: engine.DeliveryFailed, Now: t0}); err != nil {
			t.Fatal(err)
		}
	}
	later := t0.Add(time.Hour)
	n, err := s.RecoverFailedDeliveries(ctx, a.ID, ep.ID, t0, later)
	if err != nil || n != 2 {
		t.Fatalf("RecoverFailedDeliveries = %d, %v; want 2", n, err)
	}
	if n, err := s.RecoverFailedDeliveries(ctx, a.ID, ep.ID, t0, later.Add(time.Second)); err != nil || n != 0 {
		t.Fatalf("second RecoverFailedDeliveries = %d, %v; want 0 (each failed delivery once)", n, err)
	}
	// Redeliver to all: only the subscribed endpoint.
	ds, err := s.RedeliverEvent(ctx, a.ID, evs[0].ID, "", later)
	if err != nil || len(ds) != 1 || ds[0].EndpointID != ep.ID || ds[0].Origin != "redeliver" {
		t.Fatalf("RedeliverEvent(all) = %+v, %v", ds, err)
	}
	_, err = s.RedeliverEvent(ctx, a.ID, engine.NewID(engine.PrefixEvent, t0), "", later)
	wantCode(t, "redeliver of a missing event", err, engine.CodeNotFound)

	test := engine.Event{ID: engine.NewID(engine.PrefixEvent, later), TenantID: a.ID, Type: engine.EventWebhookTest,
		CreatedAt: later, Data: json.RawMessage(`{}`)}
	d, err := s.AppendDirectedEvent(ctx, test, ep.ID)
	if err != nil || d.Origin != "test" || d.EventID != test.ID {
		t.Fatalf("AppendDirectedEvent = %+v, %v", d, err)
	}
	if n, err := s.FanOutEvents(ctx, 10, later); err != nil || n != 0 {
		t.Fatalf("a directed event was fanned out: %d, %v", n, err)
	}
	cs, err = s.ClaimDeliveries(ctx, "w", later, 10, time.Minute)
	if err != nil || len(cs) != 4 {
		t.Fatalf("claimed %d, %v; want 2 recovered + 1 redelivered + 1 test", len(cs), err)
	}
}

func TestRecordDeliveredAttempts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	a := mustTenant(t, s, "a")
	mustEndpoint(t, s, a.ID, 1, "*")
	appendTyped(t, s, a.ID, 10, engine.EventFindingCreated, engine.EventFindingResolved, engine.EventAuditCompleted)
	if _, err := s.FanOutEvents(ctx, 10, t0); err != nil {
		t.Fatal(err)
	}
	cs, err := s.ClaimDeliveries(ctx, "w", t0, 10, time.Minute)
	if err != nil || len(cs) != 3 {
		t.Fatalf("claimed %d, %v", len(cs), err)
	}
	missing := newID(engine.PrefixDelivery, 99)
	var recs []engine.DeliveryAttemptRecord
	for _, c := range append(cs, engine.ClaimedDelivery{ID: missing, Attempt: 1}) {
		recs = append(recs, engine.DeliveryAttemptRecord{DeliveryID: c.ID, Attempt: c.Attempt, StartedAt: t0,
			Outcome: engine.AttemptSuccess, StatusCode: 204, Latency: time.Millisecond, Status: engine.DeliveryDelivered, Now: t0})
	}
	gone, err := s.RecordDeliveredAttempts(ctx, recs)
	if err != nil {
		t.Fatal(err)
	}
	diff(t, "missing", []string{missing}, gone)
	for _, c := range cs {
		ds, err := s.ListDeliveries(ctx, engine.DeliveryQuery{TenantID: a.ID, EventID: c.Event.ID, Limit: 5})
		if err != nil || len(ds) != 1 {
			t.Fatalf("ListDeliveries: %v, %v", ds, err)
		}
		diff(t, "delivered with one logged attempt", []any{engine.DeliveryDelivered, 1, 204},
			[]any{ds[0].Status, len(ds[0].AttemptLog), ds[0].AttemptLog[0].StatusCode})
	}
	_, err = s.RecordDeliveredAttempts(ctx, []engine.DeliveryAttemptRecord{{DeliveryID: cs[0].ID, Outcome: engine.AttemptRetry}})
	wantCode(t, "a failed attempt in the batch", err, engine.CodeValidationFailed)
}
