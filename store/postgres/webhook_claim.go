package postgres

import (
	"context"
	"encoding/json"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fourd-dev/fourd/engine"
)

// claimedRow is a claimed delivery with what the claim needs to decide.
type claimedRow struct {
	engine.ClaimedDelivery
	tenantID  string
	wasLeased bool      // the previous lease expired without a result
	leasedAt  time.Time // when that lease began
	enabled   bool
	deleted   bool
}

// ClaimDeliveries leases up to limit due deliveries (earliest due first)
// to worker, skipping rows other dispatchers hold (FOR UPDATE SKIP LOCKED).
// In the same transaction it logs an abandoned attempt for each delivery
// whose previous lease expired, and ends as failed the deliveries of
// endpoints that were disabled or deleted since they were created.
func (s *Store) ClaimDeliveries(ctx context.Context, worker string, now time.Time, limit int, lease time.Duration) (_ []engine.ClaimedDelivery, err error) {
	defer wrap(&err, "ClaimDeliveries")
	if err := checkLimit(limit); err != nil {
		return nil, err
	}
	var out []engine.ClaimedDelivery
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `WITH due AS (
				SELECT id, status AS old_status, updated_at AS old_updated FROM webhook_deliveries
				WHERE status IN ('pending', 'delivering') AND next_attempt_at <= $1
				ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED)
			UPDATE webhook_deliveries d SET status = 'delivering', attempts = d.attempts + 1, claimed_by = $3,
				next_attempt_at = $4, first_attempt_at = coalesce(d.first_attempt_at, $1), updated_at = $1
			FROM due, webhook_endpoints e, events ev
			WHERE d.id = due.id AND e.id = d.endpoint_id AND ev.tenant_id = d.tenant_id AND ev.id = d.event_id
			RETURNING d.id, d.tenant_id, d.endpoint_id, d.attempts, d.first_attempt_at, due.old_status = 'delivering', due.old_updated,
				e.url, e.secret_sealed, CASE WHEN e.previous_expires_at > $1 THEN e.previous_secret_sealed ELSE '' END,
				e.enabled, e.deleted_at IS NOT NULL, ev.id, ev.type, ev.created_at, ev.data`,
			now, limit, worker, now.Add(lease))
		if err != nil {
			return err
		}
		claimed, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (claimedRow, error) {
			var c claimedRow
			var prev *string
			var data []byte
			err := r.Scan(&c.ID, &c.tenantID, &c.EndpointID, &c.Attempt, &c.FirstAttemptAt, &c.wasLeased, &c.leasedAt,
				&c.URL, &c.SealedSecret, &prev, &c.enabled, &c.deleted,
				&c.Event.ID, &c.Event.Type, &c.Event.CreatedAt, &data)
			if prev != nil {
				c.PreviousSealedSecret = *prev
			}
			c.Event.TenantID, c.Event.CreatedAt, c.Event.Data = c.tenantID, utc(c.Event.CreatedAt), json.RawMessage(data)
			c.FirstAttemptAt = utc(c.FirstAttemptAt)
			return c, err
		})
		if err != nil {
			return err
		}
		var abandonedIDs, stopIDs, stopReasons []string
		var abandonedAttempts []int32
		var abandonedAt []time.Time
		for _, c := range claimed {
			if c.wasLeased {
				abandonedIDs = append(abandonedIDs, c.ID)
				abandonedAttempts = append(abandonedAttempts, int32(c.Attempt-1))
				abandonedAt = append(abandonedAt, c.leasedAt)
			}
			switch {
			case c.deleted:
				stopIDs, stopReasons = append(stopIDs, c.ID), append(stopReasons, "endpoint deleted")
			case !c.enabled:
				stopIDs, stopReasons = append(stopIDs, c.ID), append(stopReasons, "endpoint disabled")
			default:
				out = append(out, c.ClaimedDelivery)
			}
		}
		if len(abandonedIDs) > 0 {
			if _, err := tx.Exec(ctx, `INSERT INTO webhook_delivery_attempts (delivery_id, attempt, started_at, outcome, error)
				SELECT a.id, a.n, a.at, 'abandoned',
					'the dispatcher stopped before recording a result; the endpoint may have received it'
				FROM unnest($1::text[], $2::int[], $3::timestamptz[]) AS a(id, n, at)
				ON CONFLICT DO NOTHING`, abandonedIDs, abandonedAttempts, abandonedAt); err != nil {
				return err
			}
		}
		if len(stopIDs) > 0 {
			// No attempt is made: take back the count.
			if _, err := tx.Exec(ctx, `UPDATE webhook_deliveries d SET status = 'failed', attempts = d.attempts - 1,
				next_attempt_at = NULL, claimed_by = NULL, last_error = s.reason
				FROM unnest($1::text[], $2::text[]) AS s(id, reason) WHERE d.id = s.id`, stopIDs, stopReasons); err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}
