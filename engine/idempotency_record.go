package engine

import (
	"bytes"
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
	// store keeps it sealed with the server's Secret (internal/seal); the
	// Service seals and opens it.
	Answer    []byte
	CreatedAt time.Time
	ExpiresAt time.Time
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

// Replayable checks that a retry's body (its SHA-256) is the one the key
// was first used with: validation_failed otherwise.
func (rec *IdempotencyRecord) Replayable(bodyHash []byte) error {
	if !bytes.Equal(bodyHash, rec.BodyHash) {
		return Errorf(CodeValidationFailed, "this Idempotency-Key was used with another body; a key names one request")
	}
	return nil
}
