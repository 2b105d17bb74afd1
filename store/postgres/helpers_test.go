package postgres_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/postgres"
	"github.com/fourd-dev/fourd/store/postgres/pgtest"
)

// t0 is the tests' epoch; PostgreSQL keeps microseconds, so test times are
// whole microseconds.
var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// clock is a settable test clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// newStore returns a store on a fresh database with a clock at t0.
func newStore(t *testing.T) (*postgres.Store, *clock) {
	t.Helper()
	c := &clock{now: t0}
	return pgtest.Open(t, postgres.Config{Now: c.Now}), c
}

// at returns t0 plus d, as a pointer for the nullable fields.
func at(d time.Duration) *time.Time {
	v := t0.Add(d)
	return &v
}

// newID returns an id whose time part is t0+ms, so that ids made in a test
// sort in the order they are made.
func newID(prefix string, ms int) string {
	return engine.NewID(prefix, t0.Add(time.Duration(ms)*time.Millisecond))
}

// mustTenant returns a new tenant with the given slug.
func mustTenant(t *testing.T, s *postgres.Store, slug string) engine.Tenant {
	t.Helper()
	ten, err := s.EnsureTenant(context.Background(), slug, "Tenant "+slug)
	if err != nil {
		t.Fatalf("EnsureTenant(%q): %v", slug, err)
	}
	return ten
}

// mustUser returns a new admin of the tenant.
func mustUser(t *testing.T, s *postgres.Store, tenantID, email string) engine.User {
	t.Helper()
	u, err := s.EnsureUser(context.Background(), tenantID, email, engine.RoleAdmin)
	if err != nil {
		t.Fatalf("EnsureUser(%q): %v", email, err)
	}
	return u
}

// wantCode fails the test unless err carries the code ("" for no error).
func wantCode(t *testing.T, what string, err error, code string) {
	t.Helper()
	if got := engine.ErrorCode(err); got != code {
		t.Fatalf("%s: error %v has code %q; want %q", what, err, got, code)
	}
}

// diff compares want and got, treating nil and empty slices and maps alike.
func diff(t *testing.T, what string, want, got any) {
	t.Helper()
	if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", what, d)
	}
}

// pageAll pages through a newest-first list with the given page size and
// returns the ids in the order seen, failing on a repeated id.
func pageAll(t *testing.T, limit int, list func(before string, limit int) ([]string, error)) []string {
	t.Helper()
	var all []string
	seen := map[string]bool{}
	before := ""
	for range 1000 {
		ids, err := list(before, limit)
		if err != nil {
			t.Fatalf("list before %q: %v", before, err)
		}
		if len(ids) > limit {
			t.Fatalf("list returned %d items; limit %d", len(ids), limit)
		}
		for _, id := range ids {
			if seen[id] {
				t.Fatalf("id %s returned twice", id)
			}
			seen[id] = true
		}
		all = append(all, ids...)
		if len(ids) < limit {
			return all
		}
		before = ids[len(ids)-1]
	}
	t.Fatal("paging did not end")
	return nil
}
