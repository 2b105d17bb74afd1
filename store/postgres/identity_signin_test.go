package postgres_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// TestSignInAttempts counts attempts per account and window, one by one
// under concurrency, clears them, and sweeps ended windows (issue 28).
func TestSignInAttempts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	acme := mustTenant(t, s, "acme")
	other := mustTenant(t, s, "other")
	const window = 15 * time.Minute
	count := func(tenantID, account string, at time.Time) (int, time.Time) {
		t.Helper()
		n, until, err := s.CountSignInAttempt(ctx, tenantID, account, at, window)
		if err != nil {
			t.Fatal(err)
		}
		return n, until
	}
	for i := 1; i <= 3; i++ {
		n, until := count(acme.ID, "a", t0.Add(time.Duration(i)*time.Minute))
		if n != i || !until.Equal(t0.Add(time.Minute+window)) {
			t.Errorf("attempt %d: %d until %v, want %d until the first attempt's window end", i, n, until, i)
		}
	}
	if n, _ := count(other.ID, "a", t0); n != 1 {
		t.Errorf("the same account key in another tenant: %d, want 1", n)
	}
	if n, until := count(acme.ID, "a", t0.Add(time.Minute+window)); n != 1 || !until.Equal(t0.Add(time.Minute+2*window)) {
		t.Errorf("first attempt after the window: %d until %v, want a new window", n, until)
	}
	if err := s.ClearSignInAttempts(ctx, acme.ID, "a"); err != nil {
		t.Fatal(err)
	}
	if n, _ := count(acme.ID, "a", t0.Add(window+2*time.Minute)); n != 1 {
		t.Errorf("after clearing: %d, want 1", n)
	}

	var wg sync.WaitGroup
	got := make([]int, 20)
	for i := range got {
		wg.Go(func() {
			n, _, err := s.CountSignInAttempt(ctx, acme.ID, "b", t0, window)
			if err != nil {
				t.Error(err)
			}
			got[i] = n
		})
	}
	wg.Wait()
	slices.Sort(got)
	for i, n := range got {
		if n != i+1 {
			t.Fatalf("concurrent attempts counted %v, want 1..20 once each", got)
		}
	}

	// The sweep deletes windows that ended, not running ones.
	deleted, err := s.PurgeExpired(ctx, engine.SweepCutoffs{SignInAttempts: t0.Add(window + time.Second)})
	if err != nil || deleted != 2 {
		t.Errorf("sweep deleted %d, %v; want 2 (acme's b and other's a, whose windows ended)", deleted, err)
	}
	if n, _ := count(acme.ID, "a", t0.Add(window+3*time.Minute)); n != 2 {
		t.Errorf("account a after the sweep: %d, want 2 (its window still runs)", n)
	}
}
