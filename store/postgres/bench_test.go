package postgres_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/identity"
	"github.com/fourd-dev/fourd/store/postgres"
	"github.com/fourd-dev/fourd/store/postgres/pgtest"
)

// benchTenant is a tenant with a user, in a fresh database.
func benchTenant(b *testing.B) (*postgres.Store, engine.Tenant, engine.User) {
	b.Helper()
	ctx := context.Background()
	s := pgtest.New(b)
	ten, err := s.EnsureTenant(ctx, "bench", "Bench")
	if err != nil {
		b.Fatal(err)
	}
	u, err := s.EnsureUser(ctx, ten.ID, "bench@example.com", engine.RoleAdmin)
	if err != nil {
		b.Fatal(err)
	}
	return s, ten, u
}

// BenchmarkGetTokenByHash is the database part of authenticating a request.
func BenchmarkGetTokenByHash(b *testing.B) {
	ctx := context.Background()
	s, ten, u := benchTenant(b)
	const n = 1000
	for i := range n {
		tk := engine.Token{ID: newID(engine.PrefixToken, i), TenantID: ten.ID, UserID: u.ID,
			Hash: identity.HashToken(fmt.Sprint("secret", i)), Scopes: engine.AllScopes, CreatedAt: t0}
		if err := s.CreateToken(ctx, tk); err != nil {
			b.Fatal(err)
		}
	}
	i := 0
	for b.Loop() {
		if _, err := s.GetTokenByHash(ctx, identity.HashToken(fmt.Sprint("secret", i%n))); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkListAudits pages 50 at a time from the middle of 10,000 audits
// of one tenant (among 20,000): the keyset keeps it independent of depth.
func BenchmarkListAudits(b *testing.B) {
	ctx := context.Background()
	s, ten, _ := benchTenant(b)
	noise, err := s.EnsureTenant(ctx, "noise", "Noise")
	if err != nil {
		b.Fatal(err)
	}
	var ids []string
	for i := range 20000 {
		tenant := ten.ID
		if i%2 == 1 {
			tenant = noise.ID
		}
		a := queued(tenant, i)
		a.Status, a.CompletedAt = engine.AuditFailed, at(time.Hour)
		if err := s.CreateAudit(ctx, a); err != nil {
			b.Fatal(err)
		}
		if tenant == ten.ID {
			ids = append(ids, a.ID)
		}
	}
	for _, depth := range []int{0, 5000, 9900} {
		before := ""
		if depth > 0 {
			before = ids[len(ids)-depth]
		}
		b.Run(fmt.Sprintf("depth=%d", depth), func(b *testing.B) {
			for b.Loop() {
				as, err := s.ListAudits(ctx, engine.AuditQuery{TenantID: ten.ID, BeforeID: before, Limit: 51})
				if err != nil || len(as) == 0 {
					b.Fatalf("ListAudits: %d, %v", len(as), err)
				}
			}
		})
	}
}

// BenchmarkAppendEvents commits 1,000 events to the outbox per operation.
func BenchmarkAppendEvents(b *testing.B) {
	ctx := context.Background()
	s, ten, _ := benchTenant(b)
	ms := 0
	for b.Loop() {
		evs := make([]engine.Event, 1000)
		for i := range evs {
			evs[i] = newEvent(ten.ID, ms)
			ms++
		}
		if err := s.AppendEvents(ctx, evs); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(ms), "ns/event")
}

// BenchmarkClaimAudit claims from a queue of waiting audits, one per
// tenant, and completes each claimed audit.
func BenchmarkClaimAudit(b *testing.B) {
	ctx := context.Background()
	s := pgtest.New(b)
	const tenants = 2000
	for i := range tenants {
		ten, err := s.EnsureTenant(ctx, fmt.Sprint("t", i), "T")
		if err != nil {
			b.Fatal(err)
		}
		if err := s.CreateAudit(ctx, queued(ten.ID, i)); err != nil {
			b.Fatal(err)
		}
	}
	claimed := 0
	for b.Loop() {
		if claimed == tenants {
			b.StopTimer()
			b.Fatal("queue exhausted: run with -benchtime below 2000x")
		}
		a, err := s.ClaimAudit(ctx, "bench", time.Minute)
		if err != nil {
			b.Fatal(err)
		}
		a.Status, a.CompletedAt = engine.AuditCompleted, at(time.Minute)
		if err := s.UpdateAudit(ctx, a); err != nil {
			b.Fatal(err)
		}
		claimed++
	}
}
