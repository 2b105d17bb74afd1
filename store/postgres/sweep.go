package postgres

import (
	"context"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// sweepBatch bounds the rows one DELETE removes, so that a large backlog
// never holds locks for long.
const sweepBatch = 10_000

// PurgeExpired deletes OAuth codes, OAuth tokens, idempotency keys and
// sign-in attempts that expired before their cutoffs (a zero cutoff
// deletes none), a batch at a time.
func (s *Store) PurgeExpired(ctx context.Context, c engine.SweepCutoffs) (deleted int64, err error) {
	defer wrap(&err, "PurgeExpired")
	for _, q := range []struct {
		table  string
		before time.Time
	}{
		{"oauth_codes", c.OAuthCodes}, {"oauth_tokens", c.OAuthTokens}, {"idempotency_keys", c.IdempotencyKeys},
		{"sign_in_attempts", c.SignInAttempts},
	} {
		if q.before.IsZero() {
			continue
		}
		for {
			tag, err := s.pool.Exec(ctx, `DELETE FROM `+q.table+` WHERE ctid IN (
				SELECT ctid FROM `+q.table+` WHERE expires_at < $1 LIMIT $2)`, q.before, sweepBatch)
			if err != nil {
				return deleted, err
			}
			deleted += tag.RowsAffected()
			if tag.RowsAffected() < sweepBatch {
				break
			}
		}
	}
	return deleted, nil
}
