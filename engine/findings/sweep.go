package findings

import (
	"context"

	"github.com/fourd-dev/fourd/engine"
)

// SweepExpired deletes the OAuth codes and tokens and the idempotency keys
// that expired longer ago than their retention, and the sign-in attempts
// whose window ended, and returns how many. It
// does nothing when no store can.
func (o *Operator) SweepExpired(ctx context.Context) (int64, error) {
	s := o.s
	sw := s.cfg.Sweeper
	if sw == nil {
		return 0, nil
	}
	now := s.now().UTC()
	return sw.PurgeExpired(ctx, engine.SweepCutoffs{OAuthCodes: now.Add(-engine.OAuthCodeRetention),
		OAuthTokens: now.Add(-engine.OAuthTokenRetention), IdempotencyKeys: now, SignInAttempts: now})
}
