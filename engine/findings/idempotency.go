package findings

import (
	"context"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/seal"
)

// idempotencySealInfo names the key that seals kept answers: an answer can
// carry a secret shown once (a token, a webhook signing secret, an OAuth
// client secret), so none is stored in clear. v2 answers are the adapter's
// whole encoded answer (v1 held only an HTTP body, its status and headers
// beside it): neither build can open the other's, so neither replays a
// record it would misread; the key is spent (conflict) instead.
const idempotencySealInfo = "fourd/idempotency/answer/v2"

func idempotencyScope(p engine.Principal) string {
	if p.TokenID != "" {
		return p.TokenID
	}
	return p.UserID
}

// BeginIdempotent claims key for p's request (method, path and query). It
// returns nil when the request should run (then FinishIdempotent or
// AbandonIdempotent must follow), or the completed record whose answer to
// replay once the caller has checked the body's hash against it.
// Errors: invalid_request for a malformed key; validation_failed when the
// key was used for another request; conflict while the first request with
// the key is still under way; unavailable without a store.
func (s *Service) BeginIdempotent(ctx context.Context, p engine.Principal, key, request string) (*engine.IdempotencyRecord, error) {
	if err := engine.ValidIdempotencyKey(key); err != nil {
		return nil, err
	}
	if !p.Authenticated() {
		return nil, engine.Errorf(engine.CodeUnauthorized, "authentication required")
	}
	if s.cfg.Idempotency == nil {
		return nil, engine.Errorf(engine.CodeUnavailable, "idempotency keys are not available on this server")
	}
	now := s.now().UTC()
	rec := engine.IdempotencyRecord{TenantID: p.TenantID, Scope: idempotencyScope(p), Key: key, Request: request,
		CreatedAt: now, ExpiresAt: now.Add(engine.IdempotencyLease)}
	existing, claimed, err := s.cfg.Idempotency.ClaimIdempotencyKey(ctx, rec)
	switch {
	case err != nil:
		return nil, err
	case claimed:
		return nil, nil
	case existing.Request != request:
		return nil, engine.Errorf(engine.CodeValidationFailed, "this Idempotency-Key was used for %s; a key names one request", existing.Request)
	case !existing.Done:
		return nil, engine.Errorf(engine.CodeConflict, "the request with this Idempotency-Key is still under way; retry once it has answered")
	}
	answer, err := seal.Open(s.cfg.Secret, idempotencySealInfo, string(existing.Answer))
	if err != nil {
		// Sealed under another FOURD_SECRET: running the request again
		// could repeat its effect, so the key is spent.
		return nil, engine.Errorf(engine.CodeConflict, "the answer kept for this Idempotency-Key can no longer be read (the server key changed); send the request with a new key")
	}
	existing.Answer = answer
	return &existing, nil
}

// FinishIdempotent keeps rec.Answer, the answer of the request that holds
// rec.Key, for IdempotencyKeyTTL, sealed with the server's Secret. The
// adapter decides which answers are worth keeping (rest: a complete,
// successful one) and abandons the others; an empty answer, or one over
// MaxIdempotentAnswer, is not kept either: the key is released and a retry
// runs again.
func (s *Service) FinishIdempotent(ctx context.Context, p engine.Principal, rec engine.IdempotencyRecord) error {
	rec.TenantID, rec.Scope, rec.Done = p.TenantID, idempotencyScope(p), true
	if len(rec.Answer) == 0 || len(rec.Answer) > engine.MaxIdempotentAnswer {
		return s.AbandonIdempotent(ctx, p, rec.Key)
	}
	sealed, err := seal.Seal(s.cfg.Secret, idempotencySealInfo, rec.Answer)
	if err != nil {
		return err
	}
	rec.Answer = []byte(sealed)
	now := s.now().UTC()
	rec.CreatedAt, rec.ExpiresAt = now, now.Add(engine.IdempotencyKeyTTL)
	return s.cfg.Idempotency.CompleteIdempotencyKey(ctx, rec)
}

// AbandonIdempotent releases key: the request it held failed, and a retry
// with the key runs again.
func (s *Service) AbandonIdempotent(ctx context.Context, p engine.Principal, key string) error {
	return s.cfg.Idempotency.ReleaseIdempotencyKey(ctx, p.TenantID, idempotencyScope(p), key)
}
