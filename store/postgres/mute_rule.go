package postgres

import (
	"context"
	"encoding/json"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fourd-dev/fourd/engine"
)

const muteRuleColumns = `r.id, r.tenant_id, r.expression, r.reason, r.owner_id, r.expires_at, r.enabled, r.version,
	r.created_by, r.created_at, r.updated_at, a.audit_id, a.version, a.matched, a.applied_at`

// muteRuleFrom joins each rule with its latest application at its current
// version (none: NULLs).
const muteRuleFrom = ` FROM mute_rules r LEFT JOIN LATERAL (SELECT audit_id, version, matched, applied_at
	FROM mute_rule_applied x WHERE x.rule_id = r.id AND x.version = r.version
	ORDER BY applied_at DESC, audit_id DESC LIMIT 1) a ON true`

func scanMuteRule(row pgx.Row) (engine.MuteRule, error) {
	var (
		r       engine.MuteRule
		audit   *string
		version *int
		matched *int64
		at      *time.Time
	)
	err := row.Scan(&r.ID, &r.TenantID, &r.Expression, &r.Reason, &r.Owner, &r.ExpiresAt, &r.Enabled, &r.Version,
		&r.CreatedBy, &r.CreatedAt, &r.UpdatedAt, &audit, &version, &matched, &at)
	r.ExpiresAt, r.CreatedAt, r.UpdatedAt = utc(r.ExpiresAt), utc(r.CreatedAt), utc(r.UpdatedAt)
	if err == nil && audit != nil {
		r.Applied = &engine.MuteApplication{TenantID: r.TenantID, RuleID: r.ID, AuditID: *audit, Version: *version,
			Matched: *matched, AppliedAt: utc(*at)}
	}
	return r, err
}

// recordMuteChange appends a change to the rule's history within tx.
func recordMuteChange(ctx context.Context, tx pgx.Tx, ch engine.MuteRuleChange) error {
	enc := func(r *engine.MuteRule) ([]byte, error) {
		if r == nil {
			return nil, nil
		}
		c := *r
		c.Applied = nil // where it was applied is not part of the change
		return json.Marshal(c)
	}
	before, err := enc(ch.Before)
	if err != nil {
		return err
	}
	after, err := enc(ch.After)
	if err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `INSERT INTO mute_rule_history (tenant_id, rule_id, action, actor, at, before, after)
		VALUES ($1, $2, $3, $4, $5, $6, $7)`, ch.TenantID, ch.RuleID, ch.Action, ch.Actor, ch.At, before, after)
	return err
}

// checkOwner refuses an owner that is not a user of the tenant.
func checkOwner(ctx context.Context, tx pgx.Tx, tenantID, owner string) error {
	var ok bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM users WHERE tenant_id = $1 AND id = $2)`,
		tenantID, owner).Scan(&ok); err != nil {
		return err
	}
	if !ok {
		return engine.FieldErrorf("owner", "owner must be a user of the tenant (usr_…); %q is not", owner)
	}
	return nil
}

// CreateMuteRule stores a new rule and its history entry in one
// transaction; validation_failed (field owner) when the owner is not a user
// of the tenant.
func (s *Store) CreateMuteRule(ctx context.Context, r engine.MuteRule, ch engine.MuteRuleChange) (err error) {
	defer wrap(&err, "CreateMuteRule(%q)", r.ID)
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := checkOwner(ctx, tx, r.TenantID, r.Owner); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO mute_rules (id, tenant_id, expression, reason, owner_id, expires_at,
			enabled, version, created_by, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
			r.ID, r.TenantID, r.Expression, r.Reason, r.Owner, r.ExpiresAt, r.Enabled, r.Version, r.CreatedBy,
			r.CreatedAt, r.UpdatedAt); err != nil {
			return err
		}
		return recordMuteChange(ctx, tx, ch)
	})
}

// UpdateMuteRule overwrites a live rule stored at r.Version-1 with r and
// records ch, in one transaction. not_found for a missing, deleted or
// foreign rule; conflict when the version moved on; validation_failed for
// an owner who is not a user of the tenant.
func (s *Store) UpdateMuteRule(ctx context.Context, r engine.MuteRule, ch engine.MuteRuleChange) (err error) {
	defer wrap(&err, "UpdateMuteRule(%q)", r.ID)
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := checkOwner(ctx, tx, r.TenantID, r.Owner); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `UPDATE mute_rules SET expression = $4, reason = $5, owner_id = $6, expires_at = $7,
			enabled = $8, version = $3 + 1, updated_at = $9
			WHERE tenant_id = $1 AND id = $2 AND version = $3 AND deleted_at IS NULL`,
			r.TenantID, r.ID, r.Version-1, r.Expression, r.Reason, r.Owner, r.ExpiresAt, r.Enabled, r.UpdatedAt)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			var exists bool
			if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM mute_rules
				WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL)`, r.TenantID, r.ID).Scan(&exists); err != nil {
				return err
			}
			if !exists {
				return engine.ErrNotFound("mute rule", r.ID)
			}
			return engine.Errorf(engine.CodeConflict,
				"mute rule %q was changed by someone else (it is no longer at version %d); reload it and retry", r.ID, r.Version-1)
		}
		return recordMuteChange(ctx, tx, ch)
	})
}

// DeleteMuteRule soft-deletes a live rule of the tenant and records ch;
// not_found for a missing, deleted or foreign rule.
func (s *Store) DeleteMuteRule(ctx context.Context, tenantID, id string, ch engine.MuteRuleChange) (err error) {
	defer wrap(&err, "DeleteMuteRule(%q, %q)", tenantID, id)
	if !lookupKey(id) {
		return engine.ErrNotFound("mute rule", id)
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE mute_rules SET deleted_at = $3, enabled = false, updated_at = $3
			WHERE tenant_id = $1 AND id = $2 AND deleted_at IS NULL`, tenantID, id, ch.At)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return engine.ErrNotFound("mute rule", id)
		}
		return recordMuteChange(ctx, tx, ch)
	})
}

// GetMuteRule returns a live rule of the tenant with its latest
// application at its version; not_found otherwise.
func (s *Store) GetMuteRule(ctx context.Context, tenantID, id string) (r engine.MuteRule, err error) {
	defer wrap(&err, "GetMuteRule(%q, %q)", tenantID, id)
	if !lookupKey(id) {
		return engine.MuteRule{}, engine.ErrNotFound("mute rule", id)
	}
	r, err = scanMuteRule(s.pool.QueryRow(ctx, `SELECT `+muteRuleColumns+muteRuleFrom+`
		WHERE r.tenant_id = $1 AND r.id = $2 AND r.deleted_at IS NULL`, tenantID, id))
	return r, notFound(err, "mute rule", id)
}

// ListMuteRules returns up to q.Limit live rules of the tenant, newest
// first, strictly before q.BeforeID; invalid_limit outside 1..1000.
func (s *Store) ListMuteRules(ctx context.Context, q engine.MuteRuleQuery) (out []engine.MuteRule, err error) {
	defer wrap(&err, "ListMuteRules(%q)", q.TenantID)
	if err := checkLimit(q.Limit); err != nil {
		return nil, err
	}
	sql, args := `SELECT `+muteRuleColumns+muteRuleFrom+` WHERE r.tenant_id = $1 AND r.deleted_at IS NULL`, []any{q.TenantID}
	if q.BeforeID != "" {
		args = append(args, q.BeforeID)
		sql += ` AND r.id < $2`
	}
	args = append(args, q.Limit)
	sql += ` ORDER BY r.id DESC LIMIT $` + strconv.Itoa(len(args))
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (engine.MuteRule, error) { return scanMuteRule(r) })
}

// EnabledMuteRules returns the tenant's live, enabled rules unexpired at
// now, oldest first.
func (s *Store) EnabledMuteRules(ctx context.Context, tenantID string, now time.Time) (out []engine.MuteRule, err error) {
	defer wrap(&err, "EnabledMuteRules(%q)", tenantID)
	rows, err := s.pool.Query(ctx, `SELECT `+muteRuleColumns+muteRuleFrom+` WHERE r.tenant_id = $1
		AND r.deleted_at IS NULL AND r.enabled AND r.expires_at > $2 ORDER BY r.id`, tenantID, now)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (engine.MuteRule, error) { return scanMuteRule(r) })
}

// ActiveMutes returns, for the tenant's enabled rules unexpired at now,
// every snapshot their current version was applied to, oldest rule first.
func (s *Store) ActiveMutes(ctx context.Context, tenantID string, now time.Time) (out []engine.ActiveMute, err error) {
	defer wrap(&err, "ActiveMutes(%q)", tenantID)
	rows, err := s.pool.Query(ctx, `SELECT r.id, r.version, a.audit_id, r.expires_at FROM mute_rules r
		JOIN mute_rule_applied a ON a.rule_id = r.id AND a.version = r.version
		WHERE r.tenant_id = $1 AND r.deleted_at IS NULL AND r.enabled AND r.expires_at > $2
		ORDER BY r.id, a.audit_id`, tenantID, now)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (engine.ActiveMute, error) {
		var m engine.ActiveMute
		err := r.Scan(&m.RuleID, &m.Version, &m.AuditID, &m.ExpiresAt)
		m.ExpiresAt = utc(m.ExpiresAt)
		return m, err
	})
}

// PutMuteApplication records that a.Version of the rule was applied to
// a.AuditID's snapshot, when the rule is still live at that version; it
// reports whether it did.
func (s *Store) PutMuteApplication(ctx context.Context, a engine.MuteApplication) (ok bool, err error) {
	defer wrap(&err, "PutMuteApplication(%q, %q)", a.RuleID, a.AuditID)
	tag, err := s.pool.Exec(ctx, `INSERT INTO mute_rule_applied (tenant_id, rule_id, audit_id, version, matched, applied_at)
		SELECT tenant_id, id, $3, version, $5, $6 FROM mute_rules
		WHERE tenant_id = $1 AND id = $2 AND version = $4 AND deleted_at IS NULL
		ON CONFLICT (rule_id, audit_id) DO UPDATE SET version = EXCLUDED.version, matched = EXCLUDED.matched,
			applied_at = EXCLUDED.applied_at`,
		a.TenantID, a.RuleID, a.AuditID, a.Version, a.Matched, a.AppliedAt)
	if err != nil {
		return false, err
	}
	return tag.RowsAffected() > 0, nil
}

// ListMuteRuleHistory returns up to limit changes of the tenant's rule
// (deleted or not) after afterID, oldest first; invalid_limit outside
// 1..1000. A rule without history is not_found.
func (s *Store) ListMuteRuleHistory(ctx context.Context, tenantID, ruleID string, afterID int64, limit int) (out []engine.MuteRuleChange, err error) {
	defer wrap(&err, "ListMuteRuleHistory(%q, %q)", tenantID, ruleID)
	if err := checkLimit(limit); err != nil {
		return nil, err
	}
	if !lookupKey(ruleID) {
		return nil, engine.ErrNotFound("mute rule", ruleID)
	}
	rows, err := s.pool.Query(ctx, `SELECT id, rule_id, action, actor, at, before, after FROM mute_rule_history
		WHERE tenant_id = $1 AND rule_id = $2 AND id > $3 ORDER BY id LIMIT $4`, tenantID, ruleID, afterID, limit)
	if err != nil {
		return nil, err
	}
	out, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (engine.MuteRuleChange, error) {
		var (
			c             engine.MuteRuleChange
			before, after []byte
		)
		if err := r.Scan(&c.ID, &c.RuleID, &c.Action, &c.Actor, &c.At, &before, &after); err != nil {
			return c, err
		}
		c.TenantID, c.At = tenantID, utc(c.At)
		for _, p := range []struct {
			raw []byte
			dst **engine.MuteRule
		}{{before, &c.Before}, {after, &c.After}} {
			if p.raw != nil {
				*p.dst = new(engine.MuteRule)
				if err := json.Unmarshal(p.raw, *p.dst); err != nil {
					return c, err
				}
			}
		}
		return c, nil
	})
	if err == nil && len(out) == 0 && afterID == 0 {
		return nil, engine.ErrNotFound("mute rule", ruleID)
	}
	return out, err
}
