package postgres_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/identity"
	"github.com/fourd-dev/fourd/store/postgres"
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
	done.Done, done.Answer, done.BodyHash = true, []byte("sealed answer"), []byte{1, 2}
	done.ExpiresAt = now.Add(time.Hour)
	if err := s.CompleteIdempotencyKey(ctx, done); err != nil {
		t.Fatal(err)
	}
	got, claimed, err = s.ClaimIdempotencyKey(ctx, rec)
	if err != nil || claimed || !got.Done || !bytes.Equal(got.Answer, done.Answer) || !bytes.Equal(got.BodyHash, done.BodyHash) {
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

// PurgeExpired deletes what expired before each cutoff and nothing else.
func TestPurgeExpired(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	ten, u, c := oauthFixture(t, s)
	code := func(hash string, expires time.Time) identity.OAuthCode {
		return identity.OAuthCode{Hash: hash, GrantID: "grt_" + hash, TenantID: ten.ID, ClientID: c.ID, UserID: u.ID,
			RedirectURI: "https://app.example/cb", Scopes: []engine.Scope{engine.ScopeFindingsRead}, CreatedAt: expires.Add(-time.Minute), ExpiresAt: expires}
	}
	token := func(n int, expires time.Time) identity.OAuthToken {
		return identity.OAuthToken{ID: newID(engine.PrefixOAuthToken, n), Kind: identity.OAuthAccess, Hash: "h" + newID("x", n), GrantID: "grt_t",
			TenantID: ten.ID, ClientID: c.ID, UserID: u.ID, Scopes: []engine.Scope{engine.ScopeFindingsRead}, CreatedAt: expires.Add(-time.Hour), ExpiresAt: expires}
	}
	for _, cd := range []identity.OAuthCode{code("old", t0.Add(-2*time.Hour)), code("new", t0.Add(time.Minute))} {
		if err := s.CreateOAuthCode(ctx, cd); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CreateOAuthTokens(ctx, token(1, t0.Add(-8*24*time.Hour)), token(2, t0.Add(-time.Hour))); err != nil {
		t.Fatal(err)
	}
	// The live key first: a claim sweeps its tenant's keys expired by then.
	for i, exp := range []time.Time{t0.Add(time.Hour), t0.Add(-time.Second)} {
		rec := engine.IdempotencyRecord{TenantID: ten.ID, Scope: "pat_1", Key: newID("k", i), Request: "POST /v1/audits",
			CreatedAt: exp.Add(-time.Minute), ExpiresAt: exp}
		if _, claimed, err := s.ClaimIdempotencyKey(ctx, rec); err != nil || !claimed {
			t.Fatalf("claim: %v %v", claimed, err)
		}
	}
	n, err := s.PurgeExpired(ctx, engine.SweepCutoffs{OAuthCodes: t0.Add(-time.Hour), OAuthTokens: t0.Add(-7 * 24 * time.Hour), IdempotencyKeys: t0})
	if err != nil || n != 3 {
		t.Fatalf("PurgeExpired: %d deleted (%v), want 3 (one of each)", n, err)
	}
	if n, err := s.PurgeExpired(ctx, engine.SweepCutoffs{OAuthCodes: t0.Add(-time.Hour), OAuthTokens: t0.Add(-7 * 24 * time.Hour), IdempotencyKeys: t0}); err != nil || n != 0 {
		t.Errorf("second sweep: %d (%v), want 0", n, err)
	}
}

// During a rolling upgrade over migration 00190, the build before it claims
// and completes keys in the old columns; this build must never replay, for
// such a record, an answer left in the answer column by an earlier, expired
// use of the key (the retry is a conflict in engine: no answer to open).
func TestIdempotencyKeysAcrossBuilds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := newStore(t)
	acme := mustTenant(t, s, "acme")
	now := time.Now().UTC().Truncate(time.Microsecond)
	rec := engine.IdempotencyRecord{TenantID: acme.ID, Scope: "pat_1", Key: "k1", Request: "POST /v1/policies",
		CreatedAt: now, ExpiresAt: now.Add(time.Minute)}
	if _, claimed, err := s.ClaimIdempotencyKey(ctx, rec); err != nil || !claimed {
		t.Fatalf("claim: %v %v", claimed, err)
	}
	done := rec
	done.Done, done.Answer, done.BodyHash, done.ExpiresAt = true, []byte("first answer"), []byte{1}, now.Add(time.Hour)
	if err := s.CompleteIdempotencyKey(ctx, done); err != nil {
		t.Fatal(err)
	}
	// A day later the old build reuses the key and completes it.
	old := rec
	old.CreatedAt, old.ExpiresAt, old.BodyHash = now.Add(2*time.Hour), now.Add(2*time.Hour+time.Minute), []byte{2}
	if err := postgres.ClaimIdempotencyKeyAsBeforeForTest(ctx, s, old); err != nil {
		t.Fatal(err)
	}
	old.ExpiresAt = now.Add(26 * time.Hour)
	if err := postgres.CompleteIdempotencyKeyAsBeforeForTest(ctx, s, old, 201, []byte("v1:sealed body")); err != nil {
		t.Fatal(err)
	}
	retry := rec
	retry.CreatedAt, retry.ExpiresAt = now.Add(3*time.Hour), now.Add(3*time.Hour+time.Minute)
	got, claimed, err := s.ClaimIdempotencyKey(ctx, retry)
	if err != nil || claimed || !got.Done || !bytes.Equal(got.BodyHash, []byte{2}) {
		t.Fatalf("retry: %+v claimed %v, %v; want the old build's completed record", got, claimed, err)
	}
	if got.Answer != nil {
		t.Errorf("the old build's record carries the answer %q of an earlier use of the key", got.Answer)
	}
}
