package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fourd-dev/fourd/engine"
)

// PutCompliancePostures records one audit's posture per framework,
// replacing what was recorded for that audit, in one transaction. Rows of
// an audit the tenant no longer has are skipped (the INSERT … SELECT finds
// no audit), so a deletion racing the recording leaves nothing behind.
func (s *Store) PutCompliancePostures(ctx context.Context, tenantID string, postures []engine.CompliancePosture) (err error) {
	defer wrap(&err, "PutCompliancePostures(%q)", tenantID)
	if !lookupKey(tenantID) {
		return nil
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		for _, p := range postures {
			if p.AuditCompletedAt == nil || !lookupKey(p.AuditID) {
				continue
			}
			c := p.Counts
			if _, err := tx.Exec(ctx, `INSERT INTO compliance_postures (tenant_id, audit_id, framework_id, completed_at,
					controls, passed, failed, insufficient_data, not_applicable, manual, not_assessed)
				SELECT tenant_id, id, $3, $4, $5, $6, $7, $8, $9, $10, $11 FROM audits WHERE tenant_id = $1 AND id = $2
				ON CONFLICT (tenant_id, audit_id, framework_id) DO UPDATE SET completed_at = EXCLUDED.completed_at,
					controls = EXCLUDED.controls, passed = EXCLUDED.passed, failed = EXCLUDED.failed,
					insufficient_data = EXCLUDED.insufficient_data, not_applicable = EXCLUDED.not_applicable,
					manual = EXCLUDED.manual, not_assessed = EXCLUDED.not_assessed`,
				tenantID, p.AuditID, p.ID, *p.AuditCompletedAt, p.Controls, c.Passed, c.Failed, c.InsufficientData,
				c.NotApplicable, c.Manual, c.NotAssessed); err != nil {
				return err
			}
		}
		return nil
	})
}

// ListCompliancePostures returns one framework's recorded postures, newest
// audit first, after q.After, at most q.Limit (the primary key's order).
func (s *Store) ListCompliancePostures(ctx context.Context, q engine.CompliancePostureQuery) (out []engine.CompliancePosture, err error) {
	defer wrap(&err, "ListCompliancePostures(%q, %q)", q.TenantID, q.FrameworkID)
	if !lookupKey(q.TenantID) || !lookupKey(q.FrameworkID) {
		return nil, nil
	}
	sql := `SELECT audit_id, framework_id, completed_at, controls, passed, failed, insufficient_data, not_applicable, manual, not_assessed
		FROM compliance_postures WHERE tenant_id = $1 AND framework_id = $2`
	args := []any{q.TenantID, q.FrameworkID, q.Limit}
	if q.After != nil {
		sql += ` AND (completed_at, audit_id) < ($4, $5)`
		args = append(args, q.After.At, q.After.AuditID)
	}
	sql += ` ORDER BY completed_at DESC, audit_id DESC LIMIT $3`
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (engine.CompliancePosture, error) {
		var p engine.CompliancePosture
		var at = new(time.Time)
		c := &p.Counts
		err := r.Scan(&p.AuditID, &p.ID, at, &p.Controls, &c.Passed, &c.Failed, &c.InsufficientData, &c.NotApplicable, &c.Manual, &c.NotAssessed)
		p.AuditCompletedAt = utcp(at)
		return p, err
	})
}
