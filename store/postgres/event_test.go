package postgres_test

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"slices"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/postgres"
)

func newEvent(tenantID string, ms int) engine.Event {
	return engine.Event{ID: newID(engine.PrefixEvent, ms), TenantID: tenantID, Type: engine.EventResourceAdded,
		CreatedAt: t0.Add(time.Duration(ms) * time.Millisecond), Data: json.RawMessage(`{"n": ` + itoa(ms) + `}`)}
}

func mustEvents(t *testing.T, s *postgres.Store, tenantID string) []engine.Event {
	t.Helper()
	evs, err := postgres.EventsForTest(context.Background(), s, tenantID)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

func TestAppendEvents(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	acme := mustTenant(t, s, "acme")
	other := mustTenant(t, s, "other")
	var all, wantAcme, wantOther []engine.Event
	for i := range 2500 { // more than one batch
		tenant := acme.ID
		if i%10 == 0 {
			tenant = other.ID
		}
		e := newEvent(tenant, i)
		all = append(all, e)
		if tenant == acme.ID {
			wantAcme = append(wantAcme, e)
		} else {
			wantOther = append(wantOther, e)
		}
	}
	if err := s.AppendEvents(ctx, all); err != nil {
		t.Fatal(err)
	}
	// A retried append stores nothing twice, small (INSERTs) or large (a
	// COPY that finds stored ids, then INSERTs).
	if err := s.AppendEvents(ctx, all[:1200]); err != nil {
		t.Fatalf("appending again: %v", err)
	}
	extra := newEvent(acme.ID, 2600)
	if err := s.AppendEvents(ctx, append(slices.Clone(all), extra)); err != nil {
		t.Fatalf("appending all again: %v", err)
	}
	wantAcme = append(wantAcme, extra)
	diff(t, "acme's outbox", wantAcme, mustEvents(t, s, acme.ID))
	diff(t, "other's outbox", wantOther, mustEvents(t, s, other.ID))

	badJSON := newEvent(acme.ID, 5000)
	badJSON.Data = json.RawMessage(`{oops`)
	tests := []struct {
		name   string
		events []engine.Event
		code   string
	}{
		{"nothing", nil, ""},
		{"data not JSON", []engine.Event{newEvent(acme.ID, 5001), badJSON}, engine.CodeValidationFailed},
		{"unknown tenant", []engine.Event{newEvent(acme.ID, 5002), newEvent("ten_nope", 5003)}, engine.CodeValidationFailed},
		{"data not JSON, large", append(fresh(acme.ID, 6000, 2500), badJSON), engine.CodeValidationFailed},
		{"unknown tenant, large", append(fresh(acme.ID, 9000, 2500), newEvent("ten_nope", 12000)), engine.CodeValidationFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantCode(t, "AppendEvents", s.AppendEvents(ctx, tt.events), tt.code)
		})
	}
	// The failed batches stored none of their events.
	if n := len(mustEvents(t, s, acme.ID)); n != len(wantAcme) {
		t.Errorf("acme has %d events after failed appends; want %d", n, len(wantAcme))
	}
}

// fresh returns n new events of a tenant numbered from first.
func fresh(tenantID string, first, n int) []engine.Event {
	out := make([]engine.Event, n)
	for i := range out {
		out[i] = newEvent(tenantID, first+i)
	}
	return out
}

// seq yields the events, then err when it is not nil.
func seq(events []engine.Event, err error) iter.Seq2[engine.Event, error] {
	return func(yield func(engine.Event, error) bool) {
		for _, e := range events {
			if !yield(e, nil) {
				return
			}
		}
		if err != nil {
			yield(engine.Event{}, err)
		}
	}
}

func TestCompleteAudit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	acme := mustTenant(t, s, "acme")
	a := queued(acme.ID, 0)
	a.Status, a.StartedAt = engine.AuditRunning, at(0)
	mustCreateAudit(t, s, a)
	events := []engine.Event{newEvent(acme.ID, 1), newEvent(acme.ID, 2), newEvent(acme.ID, 3)}
	ended := func(status engine.AuditStatus) engine.Audit {
		e := a
		e.Status, e.CompletedAt = status, at(time.Minute)
		e.Summary = &engine.AuditSummary{FindingsNew: 3}
		return e
	}

	missing := ended(engine.AuditFailed)
	missing.ID = newID(engine.PrefixAudit, 9)
	failures := []struct {
		name   string
		events iter.Seq2[engine.Event, error]
		final  engine.Audit
		code   string
	}{
		{"events fail midway", seq(events, errors.New("snapshot diff broke")), ended(engine.AuditCompleted), engine.CodeInternal},
		{"not a final status", seq(events, nil), ended(engine.AuditRunning), engine.CodeValidationFailed},
		{"missing audit", seq(events, nil), missing, engine.CodeNotFound},
		{"event of an unknown tenant", seq(append(slices.Clone(events), newEvent("ten_nope", 4)), nil), ended(engine.AuditCompleted), engine.CodeValidationFailed},
	}
	for _, tt := range failures {
		t.Run(tt.name, func(t *testing.T) {
			err := s.CompleteAudit(ctx, tt.events, func() engine.Audit { return tt.final })
			wantCode(t, "CompleteAudit", err, tt.code)
			if evs := mustEvents(t, s, acme.ID); len(evs) != 0 {
				t.Errorf("%d events stored by a failed CompleteAudit", len(evs))
			}
			got, err := s.GetAudit(ctx, acme.ID, a.ID)
			if err != nil {
				t.Fatal(err)
			}
			diff(t, "audit left as it was", a, got)
		})
	}

	t.Run("completes", func(t *testing.T) {
		counted := 0
		counting := func(yield func(engine.Event, error) bool) {
			for _, e := range events {
				counted++
				if !yield(e, nil) {
					return
				}
			}
		}
		want := ended(engine.AuditCompleted)
		err := s.CompleteAudit(ctx, counting, func() engine.Audit {
			w := want
			w.Summary = &engine.AuditSummary{FindingsNew: int64(counted)}
			return w
		})
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.GetAudit(ctx, acme.ID, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		diff(t, "completed audit", want, got)
		diff(t, "outbox", events, mustEvents(t, s, acme.ID))
		latest, err := s.LatestCompletedAudit(ctx, acme.ID)
		if err != nil || latest.ID != a.ID {
			t.Errorf("LatestCompletedAudit = %s, %v; want %s", latest.ID, err, a.ID)
		}
	})
}

// Events have no foreign key to tenants (migration 00070): deleting a
// tenant still deletes its events, and their deliveries with them, and
// nothing of another tenant.
func TestDeletingATenantDeletesItsEvents(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	gone := mustTenant(t, s, "gone")
	kept := mustTenant(t, s, "kept")
	goneEvents, keptEvents := fresh(gone.ID, 0, 2500), fresh(kept.ID, 0, 3) // COPY and INSERT
	for _, evs := range [][]engine.Event{goneEvents, keptEvents} {
		if err := s.AppendEvents(ctx, evs); err != nil {
			t.Fatal(err)
		}
	}
	if err := postgres.DeleteTenantForTest(ctx, s, gone.ID); err != nil {
		t.Fatal(err)
	}
	if evs := mustEvents(t, s, gone.ID); len(evs) != 0 {
		t.Errorf("%d events left of a deleted tenant", len(evs))
	}
	diff(t, "the other tenant's events", keptEvents, mustEvents(t, s, kept.ID))
	// Appending to the deleted tenant now fails as it did with the foreign key.
	wantCode(t, "AppendEvents to a deleted tenant", s.AppendEvents(ctx, fresh(gone.ID, 5000, 1)), engine.CodeValidationFailed)
}
