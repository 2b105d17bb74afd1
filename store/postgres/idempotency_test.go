package postgres_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

func TestIdempotencyKeys(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	acme, other := mustTenant(t, s, "acme"), mustTenant(t, s, "other")
	now := time.Now().UTC().Truncate(time.Microsecond)
	rec := engine.IdempotencyRecord{TenantID: acme.ID, Scope: "pat_1", Key: "k1", Request: "POST /v1/policies",
		CreatedAt: now, ExpiresAt: now.Add(time.Minute)}
	if _, claimed, err := s.ClaimIdempotencyKey(ctx, rec); err != nil || !claimed {
		t.Fatalf("first claim: claimed %v, %v", claimed, err)
	}
	got, claimed, err := s.ClaimIdempotencyKey(ctx, rec)
	if err != nil || claimed || got.Done || got.Request != rec.Request {
		t.Fatalf("second claim: %+v claimed %v, %v; want the record under way", got, claimed, err)
	}
	// Another caller, another tenant: other keys.
	for _, r := range []engine.IdempotencyRecord{
		{TenantID: acme.ID, Scope: "pat_2", Key: "k1", Request: "x", CreatedAt: now, ExpiresAt: now.Add(time.Minute)},
		{TenantID: other.ID, Scope: "pat_1", Key: "k1", Request: "x", CreatedAt: now, ExpiresAt: now.Add(time.Minute)},
	} {
		if _, claimed, err := s.ClaimIdempotencyKey(ctx, r); err != nil || !claimed {
			t.Errorf("claim %s/%s: claimed %v, %v", r.TenantID, r.Scope, claimed, err)
		}
	}
	done := rec
	done.Done, done.Status, done.ContentType, done.Location, done.Body, done.BodyHash = true, 201, "application/json", "/v1/policies/pol_1", []byte(`{"id":"pol_1"}`), []byte{1, 2}
	done.ExpiresAt = now.Add(time.Hour)
	if err := s.CompleteIdempotencyKey(ctx, done); err != nil {
		t.Fatal(err)
	}
	got, claimed, err = s.ClaimIdempotencyKey(ctx, rec)
	if err != nil || claimed || !got.Done || got.Status != 201 || got.Location != done.Location ||
		!bytes.Equal(got.Body, done.Body) || !bytes.Equal(got.BodyHash, done.BodyHash) {
		t.Fatalf("claim after completion: %+v claimed %v, %v; want the answer", got, claimed, err)
	}
	// Expired: the key can be used again (and the expired rows are swept).
	later := rec
	later.CreatedAt, later.ExpiresAt, later.Request = now.Add(2*time.Hour), now.Add(2*time.Hour+time.Minute), "POST /v1/audits"
	if _, claimed, err := s.ClaimIdempotencyKey(ctx, later); err != nil || !claimed {
		t.Fatalf("claim after expiry: claimed %v, %v", claimed, err)
	}
	if err := s.ReleaseIdempotencyKey(ctx, acme.ID, "pat_1", "k1"); err != nil {
		t.Fatal(err)
	}
	if _, claimed, err := s.ClaimIdempotencyKey(ctx, rec); err != nil || !claimed {
		t.Fatalf("claim after release: claimed %v, %v", claimed, err)
	}
}
