package engine

import (
	"bytes"
	"context"
	"time"
)

// Idempotency keys: a client that sends a mutating POST with an
// Idempotency-Key header and retries it (a timeout, a dropped connection)
// gets the first attempt's answer again instead of a second effect. A key
// belongs to its caller (the token, or the user of an OAuth token, in a
// tenant): another caller's identical key is another key. It names one
// request — the same method, path and query, and the same body — for a day.

const (
	// IdempotencyKeyTTL is how long a completed request's answer is kept.
	IdempotencyKeyTTL = 24 * time.Hour
	// IdempotencyLease is how long a request under way holds its key: a
	// retry within it is conflict; after it (the process died), the key
	// can be used again.
	IdempotencyLease = 5 * time.Minute
	// MaxIdempotencyKey is the longest key accepted, in bytes.
	MaxIdempotencyKey = 255
	// MaxIdempotentAnswer is the largest answer kept for replay, as the
	// adapter encoded it; a larger one releases its key (the request is
	// not replayable).
	MaxIdempotentAnswer = 1 << 20
)

// idempotencySealInfo names the key that seals kept answers: an answer can
// carry a secret shown once (a token, a webhook signing secret, an OAuth
// client secret), so none is stored in clear. v2 answers are the adapter's
// whole encoded answer (v1 held only an HTTP body, its status and headers
// beside it): neither build can open the other's, so neither replays a
// record it would misread; the key is spent (conflict) instead.
const idempotencySealInfo = "fourd/idempotency/answer/v2"

// IdempotencyRecord is a use of an idempotency key: under way (Done false)
// or completed with the answer to replay.
type IdempotencyRecord struct {
	TenantID string
	Scope    string // the caller: token or user id
	Key      string
	// Request is the method, path and query the key was first used with;
	// BodyHash the SHA-256 of that request's body (set on completion).
	Request  string
	BodyHash []byte
	Done     bool
	// Answer is what the request answered, as the API adapter encoded it
	// (rest: status, headers and body); engine does not read it. The
	// store keeps it sealed with the server's Secret (engine.Seal); the
	// Service seals and opens it.
	Answer    []byte
	CreatedAt time.Time
	ExpiresAt time.Time
}

// IdempotencyStore keeps idempotency records.
type IdempotencyStore interface {
	// ClaimIdempotencyKey stores rec (under way) unless an unexpired
	// record holds its key; then it returns that record and false.
	ClaimIdempotencyKey(ctx context.Context, rec IdempotencyRecord) (existing IdempotencyRecord, claimed bool, err error)
	// CompleteIdempotencyKey stores the answer of the request holding the
	// key.
	CompleteIdempotencyKey(ctx context.Context, rec IdempotencyRecord) error
	// ReleaseIdempotencyKey forgets the key (a request that failed or
	// whose answer is not kept), so that a retry runs again.
	ReleaseIdempotencyKey(ctx context.Context, tenantID, scope, key string) error
}

// ValidIdempotencyKey checks a key: 1 to MaxIdempotencyKey visible ASCII
// characters (a UUID is the usual choice).
func ValidIdempotencyKey(key string) error {
	if key == "" || len(key) > MaxIdempotencyKey {
		return Errorf(CodeInvalidRequest, "Idempotency-Key must be 1 to %d characters long", MaxIdempotencyKey)
	}
	for i := 0; i < len(key); i++ {
		if key[i] < 0x21 || key[i] > 0x7e {
			return Errorf(CodeInvalidRequest, "Idempotency-Key must be visible ASCII (a UUID, for example)")
		}
	}
	return nil
}

func idempotencyScope(p Principal) string {
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
func (s *Service) BeginIdempotent(ctx context.Context, p Principal, key, request string) (*IdempotencyRecord, error) {
	if err := ValidIdempotencyKey(key); err != nil {
		return nil, err
	}
	if !p.Authenticated() {
		return nil, Errorf(CodeUnauthorized, "authentication required")
	}
	if s.cfg.Idempotency == nil {
		return nil, Errorf(CodeUnavailable, "idempotency keys are not available on this server")
	}
	now := s.now().UTC()
	rec := IdempotencyRecord{TenantID: p.TenantID, Scope: idempotencyScope(p), Key: key, Request: request,
		CreatedAt: now, ExpiresAt: now.Add(IdempotencyLease)}
	existing, claimed, err := s.cfg.Idempotency.ClaimIdempotencyKey(ctx, rec)
	switch {
	case err != nil:
		return nil, err
	case claimed:
		return nil, nil
	case existing.Request != request:
		return nil, Errorf(CodeValidationFailed, "this Idempotency-Key was used for %s; a key names one request", existing.Request)
	case !existing.Done:
		return nil, Errorf(CodeConflict, "the request with this Idempotency-Key is still under way; retry once it has answered")
	}
	answer, err := Open(s.cfg.Secret, idempotencySealInfo, string(existing.Answer))
	if err != nil {
		// Sealed under another FOURD_SECRET: running the request again
		// could repeat its effect, so the key is spent.
		return nil, Errorf(CodeConflict, "the answer kept for this Idempotency-Key can no longer be read (the server key changed); send the request with a new key")
	}
	existing.Answer = answer
	return &existing, nil
}

// Replayable checks that a retry's body (its SHA-256) is the one the key
// was first used with: validation_failed otherwise.
func (rec *IdempotencyRecord) Replayable(bodyHash []byte) error {
	if !bytes.Equal(bodyHash, rec.BodyHash) {
		return Errorf(CodeValidationFailed, "this Idempotency-Key was used with another body; a key names one request")
	}
	return nil
}

// FinishIdempotent keeps rec.Answer, the answer of the request that holds
// rec.Key, for IdempotencyKeyTTL, sealed with the server's Secret. The
// adapter decides which answers are worth keeping (rest: a complete,
// successful one) and abandons the others; an empty answer, or one over
// MaxIdempotentAnswer, is not kept either: the key is released and a retry
// runs again.
func (s *Service) FinishIdempotent(ctx context.Context, p Principal, rec IdempotencyRecord) error {
	rec.TenantID, rec.Scope, rec.Done = p.TenantID, idempotencyScope(p), true
	if len(rec.Answer) == 0 || len(rec.Answer) > MaxIdempotentAnswer {
		return s.AbandonIdempotent(ctx, p, rec.Key)
	}
	sealed, err := Seal(s.cfg.Secret, idempotencySealInfo, rec.Answer)
	if err != nil {
		return err
	}
	rec.Answer = []byte(sealed)
	now := s.now().UTC()
	rec.CreatedAt, rec.ExpiresAt = now, now.Add(IdempotencyKeyTTL)
	return s.cfg.Idempotency.CompleteIdempotencyKey(ctx, rec)
}

// AbandonIdempotent releases key: the request it held failed, and a retry
// with the key runs again.
func (s *Service) AbandonIdempotent(ctx context.Context, p Principal, key string) error {
	return s.cfg.Idempotency.ReleaseIdempotencyKey(ctx, p.TenantID, idempotencyScope(p), key)
}
