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
	batchID   string // the batch that holds the event, "" for a row
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
				SELECT id, status AS old_status, updated_at AS old_updated, tenant_id, event_id, batch_id, endpoint_id
				FROM webhook_deliveries
				WHERE status IN ('pending', 'delivering') AND next_attempt_at <= $1
				ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED)
			UPDATE webhook_deliveries d SET status = 'delivering', attempts = d.attempts + 1, claimed_by = $3,
				next_attempt_at = $4, first_attempt_at = coalesce(d.first_attempt_at, $1), updated_at = $1
			FROM due JOIN webhook_endpoints e ON e.id = due.endpoint_id
				LEFT JOIN events ev ON due.batch_id IS NULL AND ev.tenant_id = due.tenant_id AND ev.id = due.event_id
				LEFT JOIN event_batches eb ON eb.tenant_id = due.tenant_id AND eb.id = due.batch_id
			WHERE d.id = due.id AND (ev.id IS NOT NULL OR eb.id IS NOT NULL)
			RETURNING d.id, d.tenant_id, d.endpoint_id, d.attempts, d.first_attempt_at, due.old_status = 'delivering', due.old_updated,
				e.url, e.secret_sealed, CASE WHEN e.previous_expires_at > $1 THEN e.previous_secret_sealed ELSE '' END,
				e.enabled, e.deleted_at IS NOT NULL, d.event_id, coalesce(ev.type, eb.type), coalesce(ev.created_at, eb.created_at),
				ev.data, coalesce(d.batch_id, '')`,
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
				&c.Event.ID, &c.Event.Type, &c.Event.CreatedAt, &data, &c.batchID)
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
		if err := fillBatchedData(ctx, tx, claimed); err != nil {
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

// fillBatchedData reads the data of the claimed deliveries' batched
// events, each batch's array once.
func fillBatchedData(ctx context.Context, db querier, claimed []claimedRow) error {
	type key struct{ tenant, batch string }
	spans := map[key]*batchSpan{}
	offsets := make([]int, len(claimed))
	for i, c := range claimed {
		if c.batchID == "" {
			continue
		}
		first, _ := parseEventID(c.batchID)
		id, _ := parseEventID(c.Event.ID)
		off, _ := first.offset(id) // the insert checked that the batch holds it
		offsets[i] = off
		k := key{c.tenantID, c.batchID}
		if sp := spans[k]; sp == nil {
			spans[k] = &batchSpan{id: c.batchID, lo: off, hi: off}
		} else {
			sp.lo, sp.hi = min(sp.lo, off), max(sp.hi, off)
		}
	}
	byTenant := map[string][]batchSpan{}
	for k, sp := range spans {
		byTenant[k.tenant] = append(byTenant[k.tenant], *sp)
	}
	for tenant, list := range byTenant {
		data, err := batchData(ctx, db, tenant, list)
		if err != nil {
			return err
		}
		for i := range claimed {
			c := &claimed[i]
			if c.batchID == "" || c.tenantID != tenant {
				continue
			}
			c.Event.Data = data[c.batchID][offsets[i]-spans[key{tenant, c.batchID}].lo]
		}
	}
	return nil
}
