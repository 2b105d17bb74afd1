package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// Events nobody subscribes to at commit are stored fanned out: the
// dispatcher finds only the wanted ones, which reach their endpoints; all
// of them are listed. Small appends (INSERT), large ones (COPY) and an
// audit's events (CompleteAudit) alike.
func TestEventsNobodyWantsAreFannedOutAtCommit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	wants := mustTenant(t, s, "wants")
	others := mustTenant(t, s, "others")   // an endpoint for other types only
	disabled := mustTenant(t, s, "off")    // its only endpoint is disabled
	deleted := mustTenant(t, s, "deleted") // its only endpoint is deleted
	none := mustTenant(t, s, "none")
	ep := mustEndpoint(t, s, wants.ID, 1, engine.EventResourceAdded)
	mustEndpoint(t, s, others.ID, 2, engine.EventAuditCompleted)
	off := mustEndpoint(t, s, disabled.ID, 3, "*")
	off.Enabled, off.UpdatedAt = false, t0.Add(time.Second)
	if _, err := s.UpdateWebhookEndpoint(ctx, off); err != nil {
		t.Fatal(err)
	}
	gone := mustEndpoint(t, s, deleted.ID, 4, "*")
	if err := s.DeleteWebhookEndpoint(ctx, deleted.ID, gone.ID, t0.Add(time.Second)); err != nil {
		t.Fatal(err)
	}

	var wanted []engine.Event
	ms := 100
	for _, tenant := range []string{wants.ID, others.ID, disabled.ID, deleted.ID, none.ID} {
		for _, n := range []int{3, 2500} { // INSERT, COPY
			evs := fresh(tenant, ms, n) // resource.added
			ms += n
			if err := s.AppendEvents(ctx, evs); err != nil {
				t.Fatal(err)
			}
			if tenant == wants.ID {
				wanted = append(wanted, evs...)
			}
		}
	}
	// An audit of a tenant without webhooks.
	a := queued(none.ID, 1)
	a.Status, a.StartedAt = engine.AuditRunning, at(0)
	mustCreateAudit(t, s, a)
	done := a
	done.Status, done.CompletedAt = engine.AuditCompleted, at(time.Minute)
	if err := s.CompleteAudit(ctx, seq(fresh(none.ID, 90000, 5), nil), func() engine.Audit { return done }); err != nil {
		t.Fatal(err)
	}

	fanned := 0
	for {
		n, err := s.FanOutEvents(ctx, 1000, t0)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
		fanned += n
	}
	if fanned != len(wanted) {
		t.Errorf("the dispatcher fanned out %d events; want %d (those of the tenant with a subscribed endpoint)", fanned, len(wanted))
	}
	var delivered int
	for before := ""; ; {
		ds, err := s.ListDeliveries(ctx, engine.DeliveryQuery{TenantID: wants.ID, EndpointID: ep.ID, BeforeID: before, Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		if len(ds) == 0 {
			break
		}
		delivered += len(ds)
		before = ds[len(ds)-1].ID
	}
	if delivered != len(wanted) {
		t.Errorf("%d deliveries to the subscribed endpoint; want %d", delivered, len(wanted))
	}
	for tenant, want := range map[string]int{wants.ID: 2503, others.ID: 2503, disabled.ID: 2503, deleted.ID: 2503, none.ID: 2508} {
		if got := len(mustEvents(t, s, tenant)); got != want {
			t.Errorf("tenant %s has %d events; want %d", tenant, got, want)
		}
	}
}
