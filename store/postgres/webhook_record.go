package postgres

import (
	"context"
	"encoding/json"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fourd-dev/fourd/engine"
)

// recordSQL logs an attempt and, when the delivery is still leased for
// that attempt, applies the plan and keeps the endpoint's failing streak:
// started by a failure, ended by a success (the endpoint row is written
// only when the streak changes). A stale record (the lease was taken over
// and the attempt logged as abandoned) only fills in the log entry. It
// returns the endpoint and whether the delivery was updated, or no row
// when the delivery does not exist.
const recordSQL = `WITH a AS (
		INSERT INTO webhook_delivery_attempts AS w (delivery_id, attempt, started_at, outcome, status_code,
			latency_us, error, next_attempt_at)
		SELECT id, $2, $3, $4, $5, $6, $7, $8 FROM webhook_deliveries WHERE id = $1
		ON CONFLICT (delivery_id, attempt) DO UPDATE SET started_at = excluded.started_at,
			outcome = excluded.outcome, status_code = excluded.status_code, latency_us = excluded.latency_us,
			error = excluded.error, next_attempt_at = excluded.next_attempt_at
		WHERE w.outcome = 'abandoned'
		RETURNING delivery_id),
	d AS (
		UPDATE webhook_deliveries SET status = $9, next_attempt_at = $8, last_status_code = $5, last_error = $7,
			claimed_by = NULL, updated_at = $10::timestamptz,
			delivered_at = CASE WHEN $9::text = 'delivered' THEN $10::timestamptz END
		WHERE id = $1 AND attempts = $2 AND status = 'delivering'
		RETURNING tenant_id, endpoint_id),
	e AS (
		UPDATE webhook_endpoints SET failing_since = CASE WHEN $11 THEN NULL ELSE $3 END
		FROM d WHERE webhook_endpoints.id = d.endpoint_id
			AND (CASE WHEN $11 THEN failing_since IS NOT NULL ELSE failing_since IS NULL END)
		RETURNING 1)
	SELECT t.tenant_id, t.endpoint_id, d.endpoint_id IS NOT NULL
	FROM webhook_deliveries t LEFT JOIN d ON true WHERE t.id = $1`

// RecordDeliveryAttempt stores an attempt's result and applies its plan;
// when the plan or the failing streak says so it disables the endpoint and
// appends a webhook_endpoint.disabled event, in the same transaction.
// not_found when the delivery does not exist.
func (s *Store) RecordDeliveryAttempt(ctx context.Context, rec engine.DeliveryAttemptRecord) (err error) {
	defer wrap(&err, "RecordDeliveryAttempt(%s, %d)", rec.DeliveryID, rec.Attempt)
	var next *time.Time
	if rec.Status == engine.DeliveryPending {
		next = &rec.NextAttemptAt
	}
	ok := rec.Outcome == engine.AttemptSuccess
	args := []any{rec.DeliveryID, rec.Attempt, rec.StartedAt, rec.Outcome, rec.StatusCode, rec.Latency.Microseconds(),
		rec.Error, next, string(rec.Status), rec.Now, ok}
	var (
		tenantID, endpointID string
		current              bool
	)
	if ok {
		// The hot path: one statement, one round trip.
		err := s.pool.QueryRow(ctx, recordSQL, args...).Scan(&tenantID, &endpointID, &current)
		return notFound(err, "delivery", rec.DeliveryID)
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, recordSQL, args...).Scan(&tenantID, &endpointID, &current); err != nil {
			return notFound(err, "delivery", rec.DeliveryID)
		}
		if !current {
			return nil
		}
		reason := rec.DisableReason
		if reason == "" && !rec.FailingLimit.IsZero() {
			var since *time.Time
			if err := tx.QueryRow(ctx, `SELECT failing_since FROM webhook_endpoints WHERE id = $1`, endpointID).Scan(&since); err != nil {
				return err
			}
			if since != nil && !since.After(rec.FailingLimit) {
				reason = "failing continuously since " + since.UTC().Format(time.RFC3339)
			}
		}
		if reason == "" {
			return nil
		}
		return disableEndpoint(ctx, tx, tenantID, endpointID, reason, rec.Now)
	})
}

// disableEndpoint disables an enabled endpoint and appends the
// webhook_endpoint.disabled event that says so; a no-op when the endpoint
// is already disabled.
func disableEndpoint(ctx context.Context, tx pgx.Tx, tenantID, endpointID, reason string, now time.Time) error {
	var url string
	err := tx.QueryRow(ctx, `UPDATE webhook_endpoints SET enabled = false, disabled_reason = $3, disabled_at = $4,
		updated_at = $4 WHERE tenant_id = $1 AND id = $2 AND enabled RETURNING url`,
		tenantID, endpointID, reason, now).Scan(&url)
	if err == pgx.ErrNoRows {
		return nil
	}
	if err != nil {
		return err
	}
	now = now.UTC()
	data, err := json.Marshal(map[string]any{"webhook_endpoint": map[string]any{
		"id": endpointID, "url": url, "disabled_reason": reason, "disabled_at": now}})
	if err != nil {
		return err
	}
	return appendEvents(ctx, tx, []engine.Event{{ID: engine.NewID(engine.PrefixEvent, now), TenantID: tenantID,
		Type: engine.EventWebhookEndpointDisabled, CreatedAt: now, Data: data}})
}

// recordDeliveredSQL is recordSQL for a batch of successful attempts.
const recordDeliveredSQL = `WITH r AS (
		SELECT * FROM unnest($1::text[], $2::int[], $3::timestamptz[], $4::int[], $5::bigint[])
			AS r(id, attempt, started_at, status_code, latency_us)),
	a AS (
		INSERT INTO webhook_delivery_attempts AS w (delivery_id, attempt, started_at, outcome, status_code, latency_us)
		SELECT r.id, r.attempt, r.started_at, 'success', r.status_code, r.latency_us
		FROM r JOIN webhook_deliveries x ON x.id = r.id
		ON CONFLICT (delivery_id, attempt) DO UPDATE SET started_at = excluded.started_at, outcome = 'success',
			status_code = excluded.status_code, latency_us = excluded.latency_us, error = '', next_attempt_at = NULL
		WHERE w.outcome = 'abandoned'
		RETURNING 1),
	d AS (
		UPDATE webhook_deliveries d SET status = 'delivered', next_attempt_at = NULL, last_status_code = r.status_code,
			last_error = '', claimed_by = NULL, updated_at = $6, delivered_at = $6
		FROM r WHERE d.id = r.id AND d.attempts = r.attempt AND d.status = 'delivering'
		RETURNING d.endpoint_id),
	e AS (
		UPDATE webhook_endpoints SET failing_since = NULL
		WHERE id IN (SELECT endpoint_id FROM d) AND failing_since IS NOT NULL
		RETURNING 1)
	SELECT r.id FROM r WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries x WHERE x.id = r.id)`

// RecordDeliveredAttempts records many successful attempts in one
// statement, as RecordDeliveryAttempt would one by one. It returns the ids
// of deliveries that do not exist.
func (s *Store) RecordDeliveredAttempts(ctx context.Context, recs []engine.DeliveryAttemptRecord) (_ []string, err error) {
	defer wrap(&err, "RecordDeliveredAttempts(%d)", len(recs))
	if len(recs) == 0 {
		return nil, nil
	}
	ids := make([]string, len(recs))
	attempts := make([]int32, len(recs))
	started := make([]time.Time, len(recs))
	codes := make([]int32, len(recs))
	latency := make([]int64, len(recs))
	now := recs[0].Now
	for i, r := range recs {
		if r.Outcome != engine.AttemptSuccess {
			return nil, engine.Errorf(engine.CodeValidationFailed, "RecordDeliveredAttempts takes successful attempts only")
		}
		ids[i], attempts[i], started[i], codes[i], latency[i] = r.DeliveryID, int32(r.Attempt), r.StartedAt, int32(r.StatusCode), r.Latency.Microseconds()
		now = later(now, r.Now)
	}
	rows, err := s.pool.Query(ctx, recordDeliveredSQL, ids, attempts, started, codes, latency, now)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
