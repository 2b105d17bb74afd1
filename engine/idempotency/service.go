package idempotency

import (
	"context"
	"errors"
	"time"

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

// Store keeps idempotency records (store/postgres).
type Store interface {
	// ClaimIdempotencyKey stores rec (under way) unless an unexpired
	// record holds its key; then it returns that record and false.
	ClaimIdempotencyKey(ctx context.Context, rec engine.IdempotencyRecord) (existing engine.IdempotencyRecord, claimed bool, err error)
	// CompleteIdempotencyKey stores the answer of the request holding the
	// key.
	CompleteIdempotencyKey(ctx context.Context, rec engine.IdempotencyRecord) error
	// ReleaseIdempotencyKey forgets the key (a request that failed or
	// whose answer is not kept), so that a retry runs again.
	ReleaseIdempotencyKey(ctx context.Context, tenantID, scope, key string) error
}

// Config holds what a Service needs; Store and Secret are required.
type Config struct {
	Store Store
	// Secret seals the kept answers (the server's, at least 32 bytes).
	Secret []byte
	Now    func() time.Time
}

// Service keeps the keys of requests sent with an Idempotency-Key header
// and their answers; a nil Service refuses the header (unavailable).
type Service struct {
	cfg Config
}

// New returns a Service over cfg.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil {
		return nil, errors.New("idempotency: Store is required")
	}
	if err := engine.CheckSecret("idempotency", cfg.Secret); err != nil {
		return nil, err
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Service{cfg: cfg}, nil
}

// errUnavailable answers a server that keeps no keys.
func errUnavailable() error {
	return engine.Errorf(engine.CodeUnavailable, "idempotency keys are not available on this server")
}

// idempotencyScope is whose key it is: the token's, or the user's of an
// OAuth token.
func idempotencyScope(p engine.Principal) string {
	if p.TokenID != "" {
		return p.TokenID
	}
	return p.UserID
}

// Begin claims key for p's request (method, path and query). It
// returns nil when the request should run (then Finish or Abandon must
// follow), or the completed record whose answer to
// replay once the caller has checked the body's hash against it.
// Errors: invalid_request for a malformed key; validation_failed when the
// key was used for another request; conflict while the first request with
// the key is still under way; unavailable without a store.
func (s *Service) Begin(ctx context.Context, p engine.Principal, key, request string) (*engine.IdempotencyRecord, error) {
	if err := engine.ValidIdempotencyKey(key); err != nil {
		return nil, err
	}
	if !p.Authenticated() {
		return nil, engine.Errorf(engine.CodeUnauthorized, "authentication required")
	}
	if s == nil {
		return nil, errUnavailable()
	}
	now := s.cfg.Now().UTC()
	rec := engine.IdempotencyRecord{TenantID: p.TenantID, Scope: idempotencyScope(p), Key: key, Request: request,
		CreatedAt: now, ExpiresAt: now.Add(engine.IdempotencyLease)}
	existing, claimed, err := s.cfg.Store.ClaimIdempotencyKey(ctx, rec)
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

// Finish keeps rec.Answer, the answer of the request that holds
// rec.Key, for IdempotencyKeyTTL, sealed with the server's Secret. The
// adapter decides which answers are worth keeping (rest: a complete,
// successful one) and abandons the others; an empty answer, or one over
// MaxIdempotentAnswer, is not kept either: the key is released and a retry
// runs again.
func (s *Service) Finish(ctx context.Context, p engine.Principal, rec engine.IdempotencyRecord) error {
	if s == nil {
		return errUnavailable()
	}
	rec.TenantID, rec.Scope, rec.Done = p.TenantID, idempotencyScope(p), true
	if len(rec.Answer) == 0 || len(rec.Answer) > engine.MaxIdempotentAnswer {
		return s.Abandon(ctx, p, rec.Key)
	}
	sealed, err := seal.Seal(s.cfg.Secret, idempotencySealInfo, rec.Answer)
	if err != nil {
		return err
	}
	rec.Answer = []byte(sealed)
	now := s.cfg.Now().UTC()
	rec.CreatedAt, rec.ExpiresAt = now, now.Add(engine.IdempotencyKeyTTL)
	return s.cfg.Store.CompleteIdempotencyKey(ctx, rec)
}

// Abandon releases key: the request it held failed, and a retry
// with the key runs again.
func (s *Service) Abandon(ctx context.Context, p engine.Principal, key string) error {
	if s == nil {
		return errUnavailable()
	}
	return s.cfg.Store.ReleaseIdempotencyKey(ctx, p.TenantID, idempotencyScope(p), key)
}
