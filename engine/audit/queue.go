package audit

import (
	"context"

	"github.com/fourd-dev/fourd/engine"
)

func (s *Service) auditsAvailable() error {
	if s == nil {
		return unconfigured()
	}
	if s.cfg.Snapshots == nil || s.cfg.Inventory == nil || s.cfg.Queue == nil || s.cfg.Evaluators == nil ||
		s.cfg.Findings == nil || s.cfg.Resources == nil || s.cfg.Reads == nil {
		return unconfigured()
	}
	return nil
}

// unconfigured is the answer of every audit operation on a server without
// the audit engine (a nil Service included).
func unconfigured() error {
	return engine.Errorf(engine.CodeUnavailable, "the audit engine is not configured on this server")
}

// StartAudit queues an audit of the tenant's current inventory. A tenant has
// at most one audit queued or running (AuditStore.CreateAudit enforces it,
// also between concurrent starts): another start is conflict.
func (s *Service) StartAudit(ctx context.Context, p engine.Principal) (engine.Audit, error) {
	if err := p.Require(engine.ScopeAuditsWrite); err != nil {
		return engine.Audit{}, err
	}
	return s.queueAudit(ctx, p, "")
}

// ReanalyzeAudit queues a new audit, linked to a completed one, that
// re-evaluates the tenant's inventory with the current rules and policies.
// Only completed audits can be reanalyzed (conflict otherwise).
func (s *Service) ReanalyzeAudit(ctx context.Context, p engine.Principal, id string) (engine.Audit, error) {
	if err := p.Require(engine.ScopeAuditsWrite); err != nil {
		return engine.Audit{}, err
	}
	if s == nil {
		return engine.Audit{}, unconfigured()
	}
	if !engine.ValidID(engine.PrefixAudit, id) {
		return engine.Audit{}, engine.ErrNotFound("audit", id)
	}
	parent, err := s.cfg.Audits.GetAudit(ctx, p.TenantID, id)
	if err != nil {
		return engine.Audit{}, err
	}
	if parent.Status != engine.AuditCompleted {
		return engine.Audit{}, engine.Errorf(engine.CodeConflict, "audit %s is %s; only completed audits can be reanalyzed", id, parent.Status)
	}
	return s.queueAudit(ctx, p, parent.ID)
}

func (s *Service) queueAudit(ctx context.Context, p engine.Principal, parentID string) (engine.Audit, error) {
	if err := s.auditsAvailable(); err != nil {
		return engine.Audit{}, err
	}
	// One audit at a time per tenant: snapshots are diffed in order, and a
	// second pass queued behind the first would audit the same inventory
	// again. The store enforces it (a check here and an insert after it
	// would let two racing starts both queue); its conflict names nothing,
	// so the active audit is looked up for the message.
	now := s.now().UTC()
	a := engine.Audit{ID: engine.NewID(engine.PrefixAudit, now), TenantID: p.TenantID, Status: engine.AuditQueued, ParentID: parentID,
		RequestedBy: p.UserID, CreatedAt: now}
	err := s.cfg.Audits.CreateAudit(ctx, a)
	if engine.ErrorCode(err) == engine.CodeConflict {
		return engine.Audit{}, s.activeAuditConflict(ctx, p.TenantID)
	}
	if err != nil {
		return engine.Audit{}, err
	}
	return a, nil
}

// activeAuditConflict is the conflict a start answers while the tenant has
// an audit queued or running, naming it when it is still there.
func (s *Service) activeAuditConflict(ctx context.Context, tenantID string) error {
	for _, st := range []engine.AuditStatus{engine.AuditRunning, engine.AuditQueued} {
		active, err := s.cfg.Audits.ListAudits(ctx, engine.AuditQuery{TenantID: tenantID, Status: st, Limit: 1})
		if err == nil && len(active) > 0 {
			return engine.Errorf(engine.CodeConflict, "audit %s of this tenant is %s; start another once it ends (or cancel it)", active[0].ID, st)
		}
	}
	return engine.Errorf(engine.CodeConflict, "an audit of this tenant is already queued or running; start another once it ends (or cancel it)")
}

// CancelAudit cancels a queued or running audit; a running one stops at its
// next progress check and its partial snapshot is dropped. Canceling a
// finished audit is conflict.
func (s *Service) CancelAudit(ctx context.Context, p engine.Principal, id string) (engine.Audit, error) {
	if err := p.Require(engine.ScopeAuditsWrite); err != nil {
		return engine.Audit{}, err
	}
	if s == nil {
		return engine.Audit{}, unconfigured()
	}
	if !engine.ValidID(engine.PrefixAudit, id) {
		return engine.Audit{}, engine.ErrNotFound("audit", id)
	}
	a, err := s.cfg.Audits.GetAudit(ctx, p.TenantID, id)
	if err != nil {
		return engine.Audit{}, err
	}
	if a.Status != engine.AuditQueued && a.Status != engine.AuditRunning {
		return engine.Audit{}, engine.Errorf(engine.CodeConflict, "audit %s is %s; only queued or running audits can be canceled", id, a.Status)
	}
	now := s.now().UTC()
	a.Status, a.CompletedAt = engine.AuditCanceled, &now
	if err := s.cfg.Audits.UpdateAudit(ctx, a); err != nil {
		return engine.Audit{}, err
	}
	return a, nil
}
