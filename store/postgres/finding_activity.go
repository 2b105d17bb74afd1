package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/fourd-dev/fourd/engine"
)

// ChangeOverride writes the decision on a finding and appends acts to its
// activity in one transaction, so the history never misses a change nor
// records one that did not happen.
func (s *Store) ChangeOverride(ctx context.Context, o engine.FindingOverride, acts []engine.FindingActivity) (err error) {
	defer wrap(&err, "ChangeOverride(%q, %q)", o.TenantID, o.FindingID)
	if !lookupKey(o.FindingID) || !lookupKey(o.TenantID) {
		return engine.ErrNotFound("finding", o.FindingID)
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, putOverrideSQL, overrideArgs(o)...); err != nil {
			return err
		}
		for _, a := range acts {
			if _, err := tx.Exec(ctx, `INSERT INTO finding_activity
				(tenant_id, finding_id, at, actor, kind, from_value, to_value, note)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
				o.TenantID, o.FindingID, a.At, a.Actor, string(a.Kind), a.From, a.To, a.Note); err != nil {
				return err
			}
		}
		return nil
	})
}

// ListFindingActivity returns a finding's recorded activity, newest first.
func (s *Store) ListFindingActivity(ctx context.Context, tenantID, findingID string, limit int) (out []engine.FindingActivity, err error) {
	defer wrap(&err, "ListFindingActivity(%q, %q)", tenantID, findingID)
	if !lookupKey(findingID) || !lookupKey(tenantID) {
		return nil, nil
	}
	rows, err := s.pool.Query(ctx, `SELECT at, actor, kind, from_value, to_value, note FROM finding_activity
		WHERE tenant_id = $1 AND finding_id = $2 ORDER BY seq DESC LIMIT $3`, tenantID, findingID, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (engine.FindingActivity, error) {
		var a engine.FindingActivity
		var kind string
		err := r.Scan(&a.At, &a.Actor, &kind, &a.From, &a.To, &a.Note)
		a.Kind, a.At = engine.ActivityKind(kind), utc(a.At)
		return a, err
	})
}
