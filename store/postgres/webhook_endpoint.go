package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/webhooks"
)

var (
	_ webhooks.Store       = (*Store)(nil)
	_ engine.DeliveryQueue = (*Store)(nil)
)

const endpointColumns = `id, tenant_id, url, event_types, description, enabled, disabled_reason, disabled_at,
	failing_since, secret_sealed, coalesce(previous_secret_sealed, ''), previous_expires_at, created_at, updated_at`

func scanEndpoint(row pgx.Row) (engine.WebhookEndpoint, error) {
	var e engine.WebhookEndpoint
	err := row.Scan(&e.ID, &e.TenantID, &e.URL, &e.EventTypes, &e.Description, &e.Enabled, &e.DisabledReason,
		&e.DisabledAt, &e.FailingSince, &e.SealedSecret, &e.PreviousSealedSecret, &e.PreviousSecretExpiresAt,
		&e.CreatedAt, &e.UpdatedAt)
	e.DisabledAt, e.FailingSince, e.PreviousSecretExpiresAt = utcp(e.DisabledAt), utcp(e.FailingSince), utcp(e.PreviousSecretExpiresAt)
	e.CreatedAt, e.UpdatedAt = utc(e.CreatedAt), utc(e.UpdatedAt)
	return e, err
}

// CreateWebhookEndpoint stores a new endpoint with its sealed secret.
func (s *Store) CreateWebhookEndpoint(ctx context.Context, e engine.WebhookEndpoint) (err error) {
	defer wrap(&err, "CreateWebhookEndpoint(%s)", e.ID)
	_, err = s.pool.Exec(ctx, `INSERT INTO webhook_endpoints (id, tenant_id, url, event_types, description, enabled,
		secret_sealed, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		e.ID, e.TenantID, e.URL, e.EventTypes, e.Description, e.Enabled, e.SealedSecret, e.CreatedAt, e.UpdatedAt)
	return err
}

// GetWebhookEndpoint returns a live endpoint; not_found when missing or
// deleted.
func (s *Store) GetWebhookEndpoint(ctx context.Context, tenantID, id string) (_ engine.WebhookEndpoint, err error) {
	defer wrap(&err, "GetWebhookEndpoint(%s)", id)
	if !lookupKey(id) {
		return engine.WebhookEndpoint{}, engine.ErrNotFound("webhook endpoint", id)
	}
	e, err := scanEndpoint(s.pool.QueryRow(ctx, `SELECT `+endpointColumns+` FROM webhook_endpoints
		WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL`, tenantID, id))
	return e, notFound(err, "webhook endpoint", id)
}

// ListWebhookEndpoints returns up to q.Limit live endpoints, newest first,
// strictly before q.BeforeID.
func (s *Store) ListWebhookEndpoints(ctx context.Context, q engine.WebhookEndpointQuery) (_ []engine.WebhookEndpoint, err error) {
	defer wrap(&err, "ListWebhookEndpoints")
	if err := checkLimit(q.Limit); err != nil {
		return nil, err
	}
	rows, err := s.pool.Query(ctx, `SELECT `+endpointColumns+` FROM webhook_endpoints
		WHERE tenant_id = $1 AND deleted_at IS NULL AND ($2 = '' OR id < $2)
		ORDER BY id DESC LIMIT $3`, q.TenantID, q.BeforeID, q.Limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (engine.WebhookEndpoint, error) { return scanEndpoint(r) })
}

// UpdateWebhookEndpoint overwrites the editable fields of a live endpoint.
// Enabling clears the disabled state and the failing streak; disabling by
// hand leaves no reason.
func (s *Store) UpdateWebhookEndpoint(ctx context.Context, e engine.WebhookEndpoint) (_ engine.WebhookEndpoint, err error) {
	defer wrap(&err, "UpdateWebhookEndpoint(%s)", e.ID)
	out, err := scanEndpoint(s.pool.QueryRow(ctx, `UPDATE webhook_endpoints SET url = $3, event_types = $4,
		description = $5, updated_at = $6,
		disabled_reason = CASE WHEN $7 THEN '' WHEN enabled THEN '' ELSE disabled_reason END,
		disabled_at = CASE WHEN $7 THEN NULL WHEN enabled THEN $6 ELSE disabled_at END,
		failing_since = CASE WHEN $7 AND NOT enabled THEN NULL ELSE failing_since END,
		enabled = $7
		WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL
		RETURNING `+endpointColumns, e.TenantID, e.ID, e.URL, e.EventTypes, e.Description, e.UpdatedAt, e.Enabled))
	return out, notFound(err, "webhook endpoint", e.ID)
}

// DeleteWebhookEndpoint marks a live endpoint deleted and ends its pending
// deliveries as failed, in one transaction.
func (s *Store) DeleteWebhookEndpoint(ctx context.Context, tenantID, id string, at time.Time) (err error) {
	defer wrap(&err, "DeleteWebhookEndpoint(%s)", id)
	if !lookupKey(id) {
		return engine.ErrNotFound("webhook endpoint", id)
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE webhook_endpoints SET deleted_at = $3, updated_at = $3, enabled = false
			WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL`, tenantID, id, at)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return engine.ErrNotFound("webhook endpoint", id)
		}
		_, err = tx.Exec(ctx, `UPDATE webhook_deliveries SET status = 'failed', last_error = 'endpoint deleted',
			updated_at = $3, next_attempt_at = NULL
			WHERE tenant_id = $1 AND endpoint_id = $2 AND status = 'pending'`, tenantID, id, at)
		return err
	})
}

// RotateWebhookSecret makes sealed the current secret; the replaced one
// signs X-Service-Signature-Previous until previousUntil.
func (s *Store) RotateWebhookSecret(ctx context.Context, tenantID, id, sealed string, previousUntil, at time.Time) (_ engine.WebhookEndpoint, err error) {
	defer wrap(&err, "RotateWebhookSecret(%s)", id)
	e, err := scanEndpoint(s.pool.QueryRow(ctx, `UPDATE webhook_endpoints SET previous_secret_sealed = secret_sealed,
		secret_sealed = $3, previous_expires_at = $4, updated_at = $5
		WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL RETURNING `+endpointColumns,
		tenantID, id, sealed, previousUntil, at))
	return e, notFound(err, "webhook endpoint", id)
}
