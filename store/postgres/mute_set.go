package postgres

import (
	"context"

	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fourd-dev/fourd/engine"
)

// ClaimMuteSet claims b's set for building: a new row, or one whose
// unfinished claim is older than staleBefore (taken over under b.Build).
// It reports false when the set is built or claimed by a live build.
func (s *Store) ClaimMuteSet(ctx context.Context, b engine.MuteSetBuild, now, staleBefore time.Time) (ok bool, err error) {
	defer wrap(&err, "ClaimMuteSet(%q, %q)", b.TenantID, b.AuditID)
	tag, err := s.pool.Exec(ctx, `INSERT INTO mute_sets (tenant_id, audit_id, set_key, build, claimed_at)
		VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (tenant_id, audit_id, set_key) DO UPDATE SET build = EXCLUDED.build, claimed_at = EXCLUDED.claimed_at
		WHERE mute_sets.built_at IS NULL AND mute_sets.claimed_at < $6`,
		b.TenantID, b.AuditID, b.Key, b.Build, now, staleBefore)
	if err != nil {
		return false, err
	}
	return tag.RowsAffected() > 0, nil
}

// FinishMuteSet records the build b complete, when b still holds the claim
// (a build taken over since stays unread).
func (s *Store) FinishMuteSet(ctx context.Context, b engine.MuteSetBuild, now time.Time) (err error) {
	defer wrap(&err, "FinishMuteSet(%q, %q)", b.TenantID, b.AuditID)
	_, err = s.pool.Exec(ctx, `UPDATE mute_sets SET built_at = $5, muted = $6
		WHERE tenant_id = $1 AND audit_id = $2 AND set_key = $3 AND build = $4 AND built_at IS NULL`,
		b.TenantID, b.AuditID, b.Key, b.Build, now, b.Muted)
	return err
}

// BuiltMuteSets returns the complete builds of the tenant's sets over the
// given snapshots.
func (s *Store) BuiltMuteSets(ctx context.Context, tenantID string, auditIDs []string) (out []engine.MuteSetBuild, err error) {
	defer wrap(&err, "BuiltMuteSets(%q)", tenantID)
	if len(auditIDs) == 0 {
		return nil, nil
	}
	rows, err := s.pool.Query(ctx, `SELECT audit_id, set_key, build, muted FROM mute_sets
		WHERE tenant_id = $1 AND audit_id = ANY($2) AND built_at IS NOT NULL`, tenantID, auditIDs)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (engine.MuteSetBuild, error) {
		b := engine.MuteSetBuild{TenantID: tenantID}
		err := r.Scan(&b.AuditID, &b.Key, &b.Build, &b.Muted)
		return b, err
	})
}

// SupersedeMuteSets marks the snapshot's built sets other than keep ("":
// all of them) superseded at now, unless they already are, and keep
// current again if it was superseded.
func (s *Store) SupersedeMuteSets(ctx context.Context, tenantID, auditID, keep string, now time.Time) (err error) {
	defer wrap(&err, "SupersedeMuteSets(%q, %q)", tenantID, auditID)
	_, err = s.pool.Exec(ctx, `UPDATE mute_sets
		SET superseded_at = CASE WHEN set_key = $3 THEN NULL ELSE coalesce(superseded_at, $4) END
		WHERE tenant_id = $1 AND audit_id = $2 AND built_at IS NOT NULL
			AND (superseded_at IS NULL) <> (set_key = $3)`,
		tenantID, auditID, keep, now)
	return err
}

// LiveMuteSetAudits returns the snapshots of the tenant with a built set
// not superseded.
func (s *Store) LiveMuteSetAudits(ctx context.Context, tenantID string) (out []string, err error) {
	defer wrap(&err, "LiveMuteSetAudits(%q)", tenantID)
	rows, err := s.pool.Query(ctx, `SELECT DISTINCT audit_id FROM mute_sets
		WHERE tenant_id = $1 AND built_at IS NOT NULL AND superseded_at IS NULL ORDER BY audit_id`, tenantID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// TenantsWithExpiredMutes returns the tenants with a live, enabled mute
// rule that expired in (after, until].
func (s *Store) TenantsWithExpiredMutes(ctx context.Context, after, until time.Time) (out []string, err error) {
	defer wrap(&err, "TenantsWithExpiredMutes")
	rows, err := s.pool.Query(ctx, `SELECT DISTINCT tenant_id FROM mute_rules
		WHERE deleted_at IS NULL AND enabled AND expires_at > $1 AND expires_at <= $2 ORDER BY tenant_id`, after, until)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// DeleteSupersededMuteSets deletes up to limit sets superseded before
// before and returns them: their builds' rows are the caller's to delete.
// Each is returned to one caller only (the replicas sweep alike).
func (s *Store) DeleteSupersededMuteSets(ctx context.Context, before time.Time, limit int) (out []engine.MuteSetBuild, err error) {
	defer wrap(&err, "DeleteSupersededMuteSets")
	rows, err := s.pool.Query(ctx, `DELETE FROM mute_sets WHERE (tenant_id, audit_id, set_key) IN (
			SELECT tenant_id, audit_id, set_key FROM mute_sets WHERE superseded_at < $1
			ORDER BY superseded_at LIMIT $2 FOR UPDATE SKIP LOCKED)
		RETURNING tenant_id, audit_id, set_key, build, coalesce(muted, 0)`, before, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (engine.MuteSetBuild, error) {
		var b engine.MuteSetBuild
		err := r.Scan(&b.TenantID, &b.AuditID, &b.Key, &b.Build, &b.Muted)
		return b, err
	})
}
