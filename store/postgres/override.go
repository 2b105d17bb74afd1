package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fourd-dev/fourd/engine"
)

// PutOverride creates or replaces the decision on a finding.
func (s *Store) PutOverride(ctx context.Context, o engine.FindingOverride) (err error) {
	defer wrap(&err, "PutOverride(%q, %q)", o.TenantID, o.FindingID)
	if !lookupKey(o.FindingID) || !lookupKey(o.TenantID) {
		return engine.ErrNotFound("finding", o.FindingID)
	}
	_, err = s.pool.Exec(ctx, putOverrideSQL, overrideArgs(o)...)
	return err
}

const putOverrideSQL = `INSERT INTO finding_overrides
		(tenant_id, finding_id, resolution, note, created_by, created_at, expires_at, state, assignee)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, NULLIF($9, ''))
		ON CONFLICT (tenant_id, finding_id) DO UPDATE SET resolution = EXCLUDED.resolution,
			note = EXCLUDED.note, created_by = EXCLUDED.created_by, created_at = EXCLUDED.created_at,
			expires_at = EXCLUDED.expires_at, state = EXCLUDED.state, assignee = EXCLUDED.assignee`

func overrideArgs(o engine.FindingOverride) []any {
	return []any{o.TenantID, o.FindingID, string(o.Resolution), o.Note, o.CreatedBy, o.CreatedAt, o.ExpiresAt,
		string(o.State), o.Assignee}
}

// ListOverrides returns the tenant's decisions that have not expired at
// now, oldest first.
func (s *Store) ListOverrides(ctx context.Context, tenantID string, now time.Time) (out []engine.FindingOverride, err error) {
	defer wrap(&err, "ListOverrides(%q)", tenantID)
	rows, err := s.pool.Query(ctx, `SELECT tenant_id, finding_id, resolution, note, created_by, created_at, expires_at,
			state, coalesce(assignee, '')
		FROM finding_overrides WHERE tenant_id = $1 AND (expires_at IS NULL OR expires_at > $2)
		ORDER BY created_at, finding_id`, tenantID, now)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (engine.FindingOverride, error) {
		var o engine.FindingOverride
		var res, state string
		err := r.Scan(&o.TenantID, &o.FindingID, &res, &o.Note, &o.CreatedBy, &o.CreatedAt, &o.ExpiresAt, &state, &o.Assignee)
		o.Resolution, o.State, o.CreatedAt = engine.Resolution(res), engine.WorkflowStatus(state), utc(o.CreatedAt)
		if o.ExpiresAt != nil {
			t := utc(*o.ExpiresAt)
			o.ExpiresAt = &t
		}
		return o, err
	})
}
