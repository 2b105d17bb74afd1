package postgres

import (
	"context"
	"time"
)

// CountSignInAttempt counts one password sign-in attempt on an account of
// the tenant and returns the attempts of its current window, this one
// included, and when the window ends. A window opens at the first attempt
// after the previous one ended and lasts window. Concurrent attempts are
// counted one by one (a row lock), so none slips past a limit.
func (s *Store) CountSignInAttempt(ctx context.Context, tenantID, account string, at time.Time, window time.Duration) (n int, until time.Time, err error) {
	defer wrap(&err, "CountSignInAttempt(%q)", tenantID)
	err = s.pool.QueryRow(ctx, `INSERT INTO sign_in_attempts AS a (tenant_id, account, attempts, expires_at)
		VALUES ($1, $2, 1, $4) ON CONFLICT (tenant_id, account) DO UPDATE SET
			attempts = CASE WHEN a.expires_at <= $3 THEN 1 ELSE a.attempts + 1 END,
			expires_at = CASE WHEN a.expires_at <= $3 THEN $4 ELSE a.expires_at END
		RETURNING attempts, expires_at`, tenantID, account, at, at.Add(window)).Scan(&n, &until)
	return n, utc(until), err
}

// ClearSignInAttempts forgets an account's attempts (after a successful
// sign-in).
func (s *Store) ClearSignInAttempts(ctx context.Context, tenantID, account string) (err error) {
	defer wrap(&err, "ClearSignInAttempts(%q)", tenantID)
	_, err = s.pool.Exec(ctx, `DELETE FROM sign_in_attempts WHERE tenant_id = $1 AND account = $2`, tenantID, account)
	return err
}
