package postgres

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fourd-dev/fourd/engine"
)

const auditColumns = `id, tenant_id, status, COALESCE(parent_id, ''), requested_by, progress, summary, error,
	created_at, started_at, completed_at, attempts`

func scanAudit(row pgx.Row) (engine.Audit, error) {
	var a engine.Audit
	err := row.Scan(&a.ID, &a.TenantID, &a.Status, &a.ParentID, &a.RequestedBy, &a.Progress, &a.Summary, &a.Error,
		&a.CreatedAt, &a.StartedAt, &a.CompletedAt, &a.Attempts)
	a.CreatedAt, a.StartedAt, a.CompletedAt = utc(a.CreatedAt), utcp(a.StartedAt), utcp(a.CompletedAt)
	return a, err
}

// CreateAudit stores a new audit. conflict when the id exists or when it is
// queued or running while the tenant already has an audit queued or running
// (the audits_one_active_per_tenant index decides between concurrent
// inserts); validation_failed for an unknown status or a parent that is not
// the tenant's.
func (s *Store) CreateAudit(ctx context.Context, a engine.Audit) (err error) {
	defer s.metrics.Observe("audits", "CreateAudit", time.Now(), &err)
	defer wrap(&err, "CreateAudit(%q)", a.ID)
	_, err = s.pool.Exec(ctx, `INSERT INTO audits (id, tenant_id, status, parent_id, requested_by, progress, summary, error,
		created_at, started_at, completed_at, attempts) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
		a.ID, a.TenantID, string(a.Status), nullIfEmpty(a.ParentID), a.RequestedBy, a.Progress, a.Summary, a.Error,
		a.CreatedAt, a.StartedAt, a.CompletedAt, a.Attempts)
	return err
}

// GetAudit returns one audit of the tenant; not_found for a missing id or
// another tenant's.
func (s *Store) GetAudit(ctx context.Context, tenantID, id string) (a engine.Audit, err error) {
	defer s.metrics.Observe("audits", "GetAudit", time.Now(), &err)
	defer wrap(&err, "GetAudit(%q, %q)", tenantID, id)
	if !lookupKey(id) {
		return engine.Audit{}, engine.ErrNotFound("audit", id)
	}
	a, err = scanAudit(s.pool.QueryRow(ctx, `SELECT `+auditColumns+` FROM audits WHERE tenant_id = $1 AND id = $2`, tenantID, id))
	return a, notFound(err, "audit", id)
}

// LatestCompletedAudit returns the tenant's most recently completed audit;
// not_found when it has none.
func (s *Store) LatestCompletedAudit(ctx context.Context, tenantID string) (a engine.Audit, err error) {
	defer s.metrics.Observe("audits", "LatestCompletedAudit", time.Now(), &err)
	defer wrap(&err, "LatestCompletedAudit(%q)", tenantID)
	a, err = scanAudit(s.pool.QueryRow(ctx, `SELECT `+auditColumns+` FROM audits
		WHERE tenant_id = $1 AND status = 'completed' ORDER BY completed_at DESC, id DESC LIMIT 1`, tenantID))
	if errors.Is(err, pgx.ErrNoRows) {
		return engine.Audit{}, engine.Errorf(engine.CodeNotFound, "the tenant has no completed audit yet")
	}
	return a, err
}

// ListAudits returns up to q.Limit audits of the tenant (only those with
// q.Status when set), newest first, strictly before q.BeforeID.
// invalid_limit when q.Limit is not in 1..1000.
func (s *Store) ListAudits(ctx context.Context, q engine.AuditQuery) (as []engine.Audit, err error) {
	defer s.metrics.Observe("audits", "ListAudits", time.Now(), &err)
	defer wrap(&err, "ListAudits(%q)", q.TenantID)
	if err := checkLimit(q.Limit); err != nil {
		return nil, err
	}
	// Conditions are added only when set, so that the keyset bound is always
	// an index condition on (tenant_id, id), never a filter.
	sql, args := `SELECT `+auditColumns+` FROM audits WHERE tenant_id = $1`, []any{q.TenantID}
	if q.BeforeID != "" {
		args = append(args, q.BeforeID)
		sql += ` AND id < $2`
	}
	if q.Status != "" {
		args = append(args, string(q.Status))
		sql += ` AND status = $` + strconv.Itoa(len(args))
	}
	args = append(args, q.Limit)
	sql += ` ORDER BY id DESC LIMIT $` + strconv.Itoa(len(args))
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (engine.Audit, error) { return scanAudit(r) })
}

// UpdateAudit overwrites the mutable fields (status, progress, summary,
// error, timestamps; not the worker's attempts) of an audit of its tenant. Leaving the queued and
// running states releases the worker's claim. not_found for a missing audit;
// conflict when it would give the tenant a second queued or running audit.
func (s *Store) UpdateAudit(ctx context.Context, a engine.Audit) (err error) {
	defer s.metrics.Observe("audits", "UpdateAudit", time.Now(), &err)
	defer wrap(&err, "UpdateAudit(%q)", a.ID)
	if !lookupKey(a.ID) {
		return engine.ErrNotFound("audit", a.ID)
	}
	return updateAudit(ctx, s.pool, a)
}

// updateAudit is UpdateAudit on a pool or in a transaction.
func updateAudit(ctx context.Context, db querier, a engine.Audit) error {
	tag, err := db.Exec(ctx, `UPDATE audits SET status = $3, progress = $4, summary = $5, error = $6,
		started_at = $7, completed_at = $8,
		claimed_by = CASE WHEN $3 IN ('queued', 'running') THEN claimed_by END,
		claimed_until = CASE WHEN $3 IN ('queued', 'running') THEN claimed_until END
		WHERE tenant_id = $1 AND id = $2`,
		a.TenantID, a.ID, string(a.Status), a.Progress, a.Summary, a.Error, a.StartedAt, a.CompletedAt)
	if err == nil && tag.RowsAffected() == 0 {
		return engine.ErrNotFound("audit", a.ID)
	}
	return err
}

// ClaimAudit gives a worker the oldest audit to run, for leaseFor: a queued
// audit of a tenant that runs none, or a running audit whose lease expired
// (its worker died). The audit is marked running (started now, unless it was
// started before) and its Attempts counted: above 1 it is a retry. not_found when there is nothing
// to run. Concurrent workers never get the same audit.
func (s *Store) ClaimAudit(ctx context.Context, workerID string, leaseFor time.Duration) (a engine.Audit, err error) {
	defer wrap(&err, "ClaimAudit(%q)", workerID)
	if workerID == "" || leaseFor <= 0 {
		return engine.Audit{}, engine.Errorf(engine.CodeValidationFailed, "a worker id and a positive lease are required")
	}
	// Locking the tenant's row too (FOR NO KEY UPDATE, which does not block
	// inserts referencing it) keeps two workers from starting two audits of
	// one tenant at once: the second skips that tenant. In the rare case that
	// the second worker's snapshot predates the first one's commit, it hits
	// the one-running-per-tenant index and tries again, and then sees the
	// running audit.
	for range 5 {
		now := s.now()
		a, err = scanAudit(s.pool.QueryRow(ctx, `UPDATE audits SET status = 'running', claimed_by = $1, claimed_until = $3,
			attempts = attempts + 1, started_at = COALESCE(started_at, $2)
			WHERE id = (
				SELECT q.id FROM audits q JOIN tenants t ON t.id = q.tenant_id
				WHERE (q.status = 'running' AND q.claimed_until < $2)
				   OR (q.status = 'queued' AND NOT EXISTS (
				       SELECT 1 FROM audits r WHERE r.tenant_id = q.tenant_id AND r.status = 'running'))
				ORDER BY q.id LIMIT 1
				FOR UPDATE OF q SKIP LOCKED FOR NO KEY UPDATE OF t SKIP LOCKED)
			RETURNING `+auditColumns, workerID, now, now.Add(leaseFor)))
		if errors.Is(err, pgx.ErrNoRows) {
			return engine.Audit{}, engine.Errorf(engine.CodeNotFound, "no audit is waiting")
		}
		if !isUniqueViolation(err) {
			return a, err
		}
	}
	return a, err
}

// ExtendAuditLease renews a worker's claim on a running audit until
// now+leaseFor. not_found when the audit is no longer running under this
// worker's claim (it finished, was canceled, or its lease expired and
// another worker took it over): the worker should stop.
func (s *Store) ExtendAuditLease(ctx context.Context, tenantID, id, workerID string, leaseFor time.Duration) (err error) {
	defer wrap(&err, "ExtendAuditLease(%q, %q)", tenantID, id)
	tag, err := s.pool.Exec(ctx, `UPDATE audits SET claimed_until = $4
		WHERE tenant_id = $1 AND id = $2 AND status = 'running' AND claimed_by = $3`,
		tenantID, id, workerID, s.now().Add(leaseFor))
	if err == nil && tag.RowsAffected() == 0 {
		return engine.ErrNotFound("audit", id)
	}
	return err
}
