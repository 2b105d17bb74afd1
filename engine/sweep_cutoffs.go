package engine

import (
	"time"
)

// What expires is kept a while, then deleted: an OAuth code a short time
// (long enough to tell a replayed code from an unknown one in the logs),
// an OAuth token a week (its revocation and use stay visible to whoever
// investigates a grant), an idempotency key at once (its expiry already
// includes its day of replays).
const (
	OAuthCodeRetention  = time.Hour
	OAuthTokenRetention = 7 * 24 * time.Hour
	// SweepInterval is how often `fourd serve` deletes what expired.
	SweepInterval = 10 * time.Minute
)

// SweepCutoffs says what to delete: records that expired before each time.
type SweepCutoffs struct {
	OAuthCodes, OAuthTokens, IdempotencyKeys time.Time
	// SignInAttempts: sign-in throttling windows that ended.
	SignInAttempts time.Time
}
