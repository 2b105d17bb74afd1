package engine

import (
	"fmt"
	"log/slog"
	"time"
)

// MinSecretLen is the shortest secret (FOURD_SECRET) a service accepts, in
// bytes: it keys cursors, token hashes and sealed values.
const MinSecretLen = 32

// DefaultCursorTTL is how long a cursor stays valid when a service's
// configuration leaves its CursorTTL 0.
const DefaultCursorTTL = 24 * time.Hour

// CheckSecret returns an error naming the service ("policies: Secret must
// be at least 32 bytes") when secret is shorter than MinSecretLen.
func CheckSecret(service string, secret []byte) error {
	if len(secret) < MinSecretLen {
		return fmt.Errorf("%s: Secret must be at least %d bytes", service, MinSecretLen)
	}
	return nil
}

// Keyed is what a concern's Service takes from the fields every keyed
// configuration has (Secret, CursorTTL, Now, Logger): the clock, log and
// cursor lifetime with their defaults, and the cursors the secret keys.
type Keyed struct {
	Now       func() time.Time
	Logger    *slog.Logger
	CursorTTL time.Duration
	Cursors   *Cursors
}

// NewKeyed checks secret (CheckSecret, naming the service) and returns now
// (nil: time.Now), logger (nil: slog.Default()) and cursorTTL (0:
// DefaultCursorTTL) with the cursors secret keys on that clock and
// lifetime.
func NewKeyed(service string, secret []byte, cursorTTL time.Duration, now func() time.Time, logger *slog.Logger) (Keyed, error) {
	if err := CheckSecret(service, secret); err != nil {
		return Keyed{}, err
	}
	if now == nil {
		now = time.Now
	}
	if logger == nil {
		logger = slog.Default()
	}
	if cursorTTL == 0 {
		cursorTTL = DefaultCursorTTL
	}
	return Keyed{Now: now, Logger: logger, CursorTTL: cursorTTL, Cursors: NewCursors(secret, cursorTTL, now)}, nil
}
