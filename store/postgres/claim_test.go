package postgres_test

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

func itoa(n int) string { return strconv.Itoa(n) }

func TestClaimAudit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, clk := newStore(t)
	acme := mustTenant(t, s, "acme")
	other := mustTenant(t, s, "other")
	const lease = time.Minute

	_, err := s.ClaimAudit(ctx, "w1", lease)
	wantCode(t, "claim from an empty queue", err, engine.CodeNotFound)
	_, err = s.ClaimAudit(ctx, "", lease)
	wantCode(t, "claim without a worker id", err, engine.CodeValidationFailed)
	_, err = s.ClaimAudit(ctx, "w1", 0)
	wantCode(t, "claim without a lease", err, engine.CodeValidationFailed)

	a1 := mustCreateAudit(t, s, queued(acme.ID, 1))
	b1 := mustCreateAudit(t, s, queued(other.ID, 3))

	claim := func(worker string) engine.Audit {
		t.Helper()
		a, err := s.ClaimAudit(ctx, worker, lease)
		if err != nil {
			t.Fatalf("ClaimAudit(%s): %v", worker, err)
		}
		return a
	}
	got := claim("w1")
	want := a1
	want.Status, want.StartedAt, want.Attempts = engine.AuditRunning, at(0), 1
	diff(t, "first claim", want, got)

	// acme already runs a1: w2 gets the other tenant's audit.
	if got := claim("w2"); got.ID != b1.ID {
		t.Fatalf("second claim got %s; want %s", got.ID, b1.ID)
	}
	_, err = s.ClaimAudit(ctx, "w3", lease)
	wantCode(t, "claim while every tenant runs one", err, engine.CodeNotFound)

	// w1 renews its lease; w2 does not. After the first lease ran out, only
	// w2's audit is claimable again.
	clk.Advance(40 * time.Second)
	if err := s.ExtendAuditLease(ctx, acme.ID, a1.ID, "w1", lease); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "extend by a worker without the claim", s.ExtendAuditLease(ctx, acme.ID, a1.ID, "w9", lease), engine.CodeNotFound)
	wantCode(t, "extend through another tenant", s.ExtendAuditLease(ctx, other.ID, a1.ID, "w1", lease), engine.CodeNotFound)
	clk.Advance(30 * time.Second)
	again := claim("w3")
	want = b1
	want.Status, want.StartedAt, want.Attempts = engine.AuditRunning, at(0), 2 // started_at kept from the first attempt
	diff(t, "reclaimed expired audit", want, again)
	wantCode(t, "extend a lost lease", s.ExtendAuditLease(ctx, other.ID, b1.ID, "w2", lease), engine.CodeNotFound)

	// Completing a1 lets acme queue a2, which then runs.
	done := a1
	done.Status, done.StartedAt, done.CompletedAt = engine.AuditCompleted, at(0), at(time.Minute)
	if err := s.UpdateAudit(ctx, done); err != nil {
		t.Fatal(err)
	}
	a2 := mustCreateAudit(t, s, queued(acme.ID, 2))
	if got := claim("w1"); got.ID != a2.ID {
		t.Fatalf("claim after completion got %s; want %s", got.ID, a2.ID)
	}
	wantCode(t, "extend a finished audit", s.ExtendAuditLease(ctx, acme.ID, a1.ID, "w1", lease), engine.CodeNotFound)
}

func TestClaimAuditConcurrent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	const tenants = 12
	for i := range tenants {
		ten := mustTenant(t, s, fmt.Sprintf("t%d", i))
		mustCreateAudit(t, s, queued(ten.ID, i*10)) // one queued audit per tenant at most
	}
	var mu sync.Mutex
	claimed := map[string]string{} // audit id → worker
	perTenant := map[string]int{}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := range 8 {
		worker := "w" + itoa(w)
		wg.Go(func() {
			for {
				a, err := s.ClaimAudit(ctx, worker, time.Hour)
				if engine.IsNotFound(err) {
					return
				}
				if err != nil {
					errs <- err
					return
				}
				mu.Lock()
				if prev, ok := claimed[a.ID]; ok {
					errs <- fmt.Errorf("audit %s claimed by %s and %s", a.ID, prev, worker)
				}
				claimed[a.ID] = worker
				perTenant[a.TenantID]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// One running audit per tenant: exactly one claim each.
	if len(claimed) != tenants {
		t.Errorf("%d audits claimed; want %d (one per tenant)", len(claimed), tenants)
	}
	for ten, n := range perTenant {
		if n != 1 {
			t.Errorf("tenant %s: %d audits claimed; want 1", ten, n)
		}
	}
}
