package idempotency

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/seal"
)

// memIdempotency is an in-memory Store.
type memIdempotency struct {
	recs map[string]engine.IdempotencyRecord
}

func (m *memIdempotency) k(tenant, scope, key string) string { return tenant + "/" + scope + "/" + key }

func (m *memIdempotency) ClaimIdempotencyKey(_ context.Context, rec engine.IdempotencyRecord) (engine.IdempotencyRecord, bool, error) {
	if old, ok := m.recs[m.k(rec.TenantID, rec.Scope, rec.Key)]; ok && !old.ExpiresAt.Before(rec.CreatedAt) {
		return old, false, nil
	}
	m.recs[m.k(rec.TenantID, rec.Scope, rec.Key)] = rec
	return engine.IdempotencyRecord{}, true, nil
}

func (m *memIdempotency) CompleteIdempotencyKey(_ context.Context, rec engine.IdempotencyRecord) error {
	m.recs[m.k(rec.TenantID, rec.Scope, rec.Key)] = rec
	return nil
}

func (m *memIdempotency) ReleaseIdempotencyKey(_ context.Context, tenant, scope, key string) error {
	delete(m.recs, m.k(tenant, scope, key))
	return nil
}

func TestIdempotentRules(t *testing.T) {
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	store := &memIdempotency{recs: map[string]engine.IdempotencyRecord{}}
	svc, err := New(Config{Store: store, Secret: []byte(strings.Repeat("s", 32)), Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	p := engine.Principal{TenantID: "ten_a", UserID: "usr_a", TokenID: "pat_a", Scopes: engine.AllScopes}
	if _, err := svc.Begin(ctx, engine.Principal{}, "k", "POST /v1/audits"); engine.ErrorCode(err) != engine.CodeUnauthorized {
		t.Errorf("no caller: %v", err)
	}
	for _, bad := range []string{"", strings.Repeat("x", engine.MaxIdempotencyKey+1), "has space", "é"} {
		if _, err := svc.Begin(ctx, p, bad, "POST /v1/audits"); engine.ErrorCode(err) != engine.CodeInvalidRequest {
			t.Errorf("key %q: %v, want invalid_request", bad, err)
		}
	}
	// Which answers are kept: one that fits (the adapter decides which are
	// worth keeping: rest's tests).
	for _, c := range []struct {
		name   string
		answer int
		kept   bool
	}{
		{"answer", 10, true},
		{"largest", engine.MaxIdempotentAnswer, true},
		{"nothing", 0, false},
		{"too large", engine.MaxIdempotentAnswer + 1, false},
	} {
		key := "key " + c.name
		key = strings.ReplaceAll(key, " ", "-")
		if prior, err := svc.Begin(ctx, p, key, "POST /v1/audits"); err != nil || prior != nil {
			t.Fatalf("%s: begin %v %v", c.name, prior, err)
		}
		if _, err := svc.Begin(ctx, p, key, "POST /v1/audits"); engine.ErrorCode(err) != engine.CodeConflict {
			t.Errorf("%s: a retry while under way: %v, want conflict", c.name, err)
		}
		if _, err := svc.Begin(ctx, p, key, "POST /v1/policies"); engine.ErrorCode(err) != engine.CodeValidationFailed {
			t.Errorf("%s: another request with the key: %v, want validation_failed", c.name, err)
		}
		rec := engine.IdempotencyRecord{Key: key, Request: "POST /v1/audits", BodyHash: []byte{1}, Answer: make([]byte, c.answer)}
		if err := svc.Finish(ctx, p, rec); err != nil {
			t.Fatal(err)
		}
		prior, err := svc.Begin(ctx, p, key, "POST /v1/audits")
		if err != nil {
			t.Fatalf("%s: retry: %v", c.name, err)
		}
		if kept := prior != nil; kept != c.kept {
			t.Errorf("%s: kept %v, want %v", c.name, kept, c.kept)
		}
		if prior != nil {
			if len(prior.Answer) != c.answer {
				t.Errorf("%s: replayed %d bytes, want %d", c.name, len(prior.Answer), c.answer)
			}
			if err := prior.Replayable([]byte{1}); err != nil {
				t.Errorf("%s: same body: %v", c.name, err)
			}
			if err := prior.Replayable([]byte{2}); engine.ErrorCode(err) != engine.CodeValidationFailed {
				t.Errorf("%s: another body: %v, want validation_failed", c.name, err)
			}
		}
	}
}

// A kept answer is stored sealed with the server's Secret and opened for
// the replay; under another Secret it cannot be replayed (conflict), and
// the request does not run again either (issue 28).
func TestIdempotentAnswerSealed(t *testing.T) {
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	store := &memIdempotency{recs: map[string]engine.IdempotencyRecord{}}
	newSvc := func(secret string) *Service {
		svc, err := New(Config{Store: store, Secret: []byte(strings.Repeat(secret, 32)), Now: func() time.Time { return now }})
		if err != nil {
			t.Fatal(err)
		}
		return svc
	}
	svc := newSvc("s")
	ctx := context.Background()
	p := engine.Principal{TenantID: "ten_a", UserID: "usr_a", TokenID: "pat_a", Scopes: engine.AllScopes}
	body := `{"secret":"pat_0123456789abcdefghijklmnop"}`
	if prior, err := svc.Begin(ctx, p, "k", "POST /v1/tokens"); err != nil || prior != nil {
		t.Fatalf("begin: %v %v", prior, err)
	}
	rec := engine.IdempotencyRecord{Key: "k", Request: "POST /v1/tokens", BodyHash: []byte{1}, Answer: []byte(body)}
	if err := svc.Finish(ctx, p, rec); err != nil {
		t.Fatal(err)
	}
	for _, r := range store.recs {
		if strings.Contains(string(r.Answer), "pat_") || !strings.HasPrefix(string(r.Answer), "v1:") {
			t.Errorf("stored answer %q, want it sealed", r.Answer)
		}
	}
	prior, err := svc.Begin(ctx, p, "k", "POST /v1/tokens")
	if err != nil || prior == nil || string(prior.Answer) != body {
		t.Fatalf("replay: %v %v", prior, err)
	}
	if _, err := newSvc("o").Begin(ctx, p, "k", "POST /v1/tokens"); engine.ErrorCode(err) != engine.CodeConflict {
		t.Errorf("replay under another Secret: %v, want conflict", err)
	}
}

// TestNilServiceIsUnavailable: a server given no idempotency service
// refuses the header (unavailable), never a panic.
func TestNilServiceIsUnavailable(t *testing.T) {
	var s *Service
	ctx := context.Background()
	p := engine.Principal{TenantID: "ten_a", TokenID: "pat_a", Scopes: engine.AllScopes}
	if _, err := s.Begin(ctx, p, "k", "POST /v1/audits"); engine.ErrorCode(err) != engine.CodeUnavailable {
		t.Errorf("Begin on a nil Service: %v, want unavailable", err)
	}
	if err := s.Abandon(ctx, p, "k"); engine.ErrorCode(err) != engine.CodeUnavailable {
		t.Errorf("Abandon on a nil Service: %v, want unavailable", err)
	}
	if _, err := New(Config{Secret: []byte(strings.Repeat("s", 32))}); err == nil {
		t.Error("New without Store: no error")
	}
}

// TestSecretSeals: the shortest secret New accepts seals the kept
// answers, and a shorter one is refused.
func TestSecretSeals(t *testing.T) {
	secret := []byte(strings.Repeat("s", engine.MinSecretLen))
	if _, err := New(Config{Store: &memIdempotency{}, Secret: secret[:len(secret)-1]}); err == nil || err.Error() != "idempotency: Secret must be at least 32 bytes" {
		t.Errorf("a short secret: %v", err)
	}
	if _, err := New(Config{Store: &memIdempotency{}, Secret: secret}); err != nil {
		t.Fatal(err)
	}
	if _, err := seal.Seal(secret, idempotencySealInfo, []byte(`{"ok":true}`)); err != nil {
		t.Errorf("New accepts a %d-byte secret that cannot seal: %v", len(secret), err)
	}
}
