package postgres

import (
	"context"

	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fourd-dev/fourd/engine"
)

var _ engine.MuteSetStore = (*Store)(nil)

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
