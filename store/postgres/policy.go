package postgres

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fourd-dev/fourd/engine"
)

const policyColumns = `id, tenant_id, name, description, expression, dimension, severity, resource_types, title,
	remediation, enabled, version, created_at, updated_at, effect`

func scanPolicy(row pgx.Row) (engine.Policy, error) {
	var p engine.Policy
	err := row.Scan(&p.ID, &p.TenantID, &p.Name, &p.Description, &p.Expression, &p.Dimension, &p.Severity,
		&p.ResourceTypes, &p.Title, &p.Remediation, &p.Enabled, &p.Version, &p.CreatedAt, &p.UpdatedAt, &p.Effect)
	p.CreatedAt, p.UpdatedAt = utc(p.CreatedAt), utc(p.UpdatedAt)
	return p, err
}

// CreatePolicy stores a new policy (version 1 when p.Version is 0, effect
// raise when p.Effect is empty).
// conflict when the id exists or a live policy of the tenant has the same
// name (case-insensitively); validation_failed for an unknown dimension or
// severity, or an empty name or expression.
func (s *Store) CreatePolicy(ctx context.Context, p engine.Policy) (err error) {
	defer s.metrics.Observe("policies", "CreatePolicy", time.Now(), &err)
	defer wrap(&err, "CreatePolicy(%q)", p.ID)
	if p.Version == 0 {
		p.Version = 1
	}
	if p.Effect == "" {
		p.Effect = engine.PolicyRaise
	}
	if p.ResourceTypes == nil {
		p.ResourceTypes = []string{}
	}
	_, err = s.pool.Exec(ctx, `INSERT INTO policies (`+policyColumns+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
		p.ID, p.TenantID, p.Name, p.Description, p.Expression, string(p.Dimension), string(p.Severity),
		p.ResourceTypes, p.Title, p.Remediation, p.Enabled, p.Version, p.CreatedAt, p.UpdatedAt, string(p.Effect))
	return err
}

// GetPolicy returns a live policy of the tenant; not_found for a missing
// id, a deleted policy or another tenant's.
func (s *Store) GetPolicy(ctx context.Context, tenantID, id string) (p engine.Policy, err error) {
	defer s.metrics.Observe("policies", "GetPolicy", time.Now(), &err)
	defer wrap(&err, "GetPolicy(%q, %q)", tenantID, id)
	if !lookupKey(id) {
		return engine.Policy{}, engine.ErrNotFound("policy", id)
	}
	p, err = scanPolicy(s.pool.QueryRow(ctx, `SELECT `+policyColumns+` FROM policies
		WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL`, tenantID, id))
	return p, notFound(err, "policy", id)
}

// ListPolicies returns up to q.Limit live policies of the tenant, newest
// first, strictly before q.BeforeID. invalid_limit when q.Limit is not in
// 1..1000.
func (s *Store) ListPolicies(ctx context.Context, q engine.PolicyQuery) (ps []engine.Policy, err error) {
	defer s.metrics.Observe("policies", "ListPolicies", time.Now(), &err)
	defer wrap(&err, "ListPolicies(%q)", q.TenantID)
	if err := checkLimit(q.Limit); err != nil {
		return nil, err
	}
	sql, args := `SELECT `+policyColumns+` FROM policies WHERE tenant_id = $1 AND deleted_at IS NULL`, []any{q.TenantID}
	if q.BeforeID != "" {
		args = append(args, q.BeforeID)
		sql += ` AND id < $2`
	}
	args = append(args, q.Limit)
	sql += ` ORDER BY id DESC LIMIT $` + strconv.Itoa(len(args))
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (engine.Policy, error) { return scanPolicy(r) })
}

// UpdatePolicy overwrites the editable fields of a live policy whose stored
// version is p.Version, and returns it with the version incremented and
// updated_at set to now (optimistic concurrency: two editors cannot silently
// overwrite each other). not_found for a missing, deleted or foreign policy;
// conflict when the version moved on or the new name is taken.
func (s *Store) UpdatePolicy(ctx context.Context, p engine.Policy) (out engine.Policy, err error) {
	defer s.metrics.Observe("policies", "UpdatePolicy", time.Now(), &err)
	defer wrap(&err, "UpdatePolicy(%q)", p.ID)
	if !lookupKey(p.ID) {
		return engine.Policy{}, engine.ErrNotFound("policy", p.ID)
	}
	if p.ResourceTypes == nil {
		p.ResourceTypes = []string{}
	}
	if p.Effect == "" {
		p.Effect = engine.PolicyRaise
	}
	out, err = scanPolicy(s.pool.QueryRow(ctx, `UPDATE policies SET name = $4, description = $5, expression = $6,
		dimension = $7, severity = $8, resource_types = $9, title = $10, remediation = $11, enabled = $12,
		version = version + 1, updated_at = $13, effect = $14
		WHERE tenant_id = $1 AND id = $2 AND version = $3 AND deleted_at IS NULL
		RETURNING `+policyColumns,
		p.TenantID, p.ID, p.Version, p.Name, p.Description, p.Expression, string(p.Dimension), string(p.Severity),
		p.ResourceTypes, p.Title, p.Remediation, p.Enabled, s.now(), string(p.Effect)))
	if errors.Is(err, pgx.ErrNoRows) {
		if _, gerr := s.GetPolicy(ctx, p.TenantID, p.ID); gerr != nil {
			return engine.Policy{}, gerr
		}
		return engine.Policy{}, engine.Errorf(engine.CodeConflict,
			"policy %q was changed by someone else (it is no longer at version %d); reload it and retry", p.ID, p.Version)
	}
	return out, err
}

// DeletePolicy soft-deletes a live policy of the tenant at the given time:
// it disappears from Get and List, and its name is free again. not_found for
// a missing, already deleted or foreign policy.
func (s *Store) DeletePolicy(ctx context.Context, tenantID, id string, at time.Time) (err error) {
	defer s.metrics.Observe("policies", "DeletePolicy", time.Now(), &err)
	defer wrap(&err, "DeletePolicy(%q, %q)", tenantID, id)
	if !lookupKey(id) {
		return engine.ErrNotFound("policy", id)
	}
	tag, err := s.pool.Exec(ctx, `UPDATE policies SET deleted_at = $3, enabled = false, updated_at = $3
		WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL`, tenantID, id, at)
	if err == nil && tag.RowsAffected() == 0 {
		return engine.ErrNotFound("policy", id)
	}
	return err
}

// AllPolicies returns every live policy of the tenant, enabled or not, in
// id order: an audit evaluates the enabled ones and reports on the rest.
func (s *Store) AllPolicies(ctx context.Context, tenantID string) (ps []engine.Policy, err error) {
	defer wrap(&err, "AllPolicies(%q)", tenantID)
	rows, err := s.pool.Query(ctx, `SELECT `+policyColumns+` FROM policies
		WHERE tenant_id = $1 AND deleted_at IS NULL ORDER BY id`, tenantID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (engine.Policy, error) { return scanPolicy(r) })
}
