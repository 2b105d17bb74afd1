package identity

import (
	"context"
	"strings"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// Password sign-in is throttled per account, beside the per-address rate
// limit of the HTTP layer: an attacker spreading guesses over many
// addresses still gets MaxSignInFailures tries per account and
// SignInWindow. The window opens at the first attempt and is not extended
// by refused ones; a successful sign-in clears it.
const (
	MaxSignInFailures = 5
	SignInWindow      = 15 * time.Minute
)

// SignInThrottle counts password sign-in attempts per account, across
// replicas; Store implementations provide it.
type SignInThrottle interface {
	// CountSignInAttempt counts one attempt on an account of the tenant and
	// returns the attempts of its current window, this one included, and
	// when the window ends; a window opens at the first attempt after the
	// previous one ended and lasts window. Concurrent attempts are counted
	// one by one.
	CountSignInAttempt(ctx context.Context, tenantID, account string, at time.Time, window time.Duration) (int, time.Time, error)
	// ClearSignInAttempts forgets an account's attempts.
	ClearSignInAttempts(ctx context.Context, tenantID, account string) error
}

// throttleSignIn counts an attempt on the account (the tenant and the
// lower-cased email, stored hashed: an unknown email is throttled like a
// known one, so the answer tells nothing about which exist) and returns
// rate_limited past MaxSignInFailures attempts in the window. Counting
// before checking the password keeps concurrent guesses within the limit;
// the returned clear, called after a success, forgets the attempts.
func (s *Service) throttleSignIn(ctx context.Context, ids Store, tenantID, email string) (clear func() error, err error) {
	account := HashToken(tenantID + "\x00" + strings.ToLower(email))
	now := s.now()
	n, until, err := ids.CountSignInAttempt(ctx, tenantID, account, now, SignInWindow)
	if err != nil {
		return nil, err
	}
	if n > MaxSignInFailures {
		mins := int((until.Sub(now) + time.Minute - 1) / time.Minute)
		return nil, engine.Errorf(engine.CodeRateLimited, "too many failed sign-ins for this account: try again in %d minutes", max(mins, 1))
	}
	return func() error { return ids.ClearSignInAttempts(ctx, tenantID, account) }, nil
}
