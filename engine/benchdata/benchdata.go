// Package benchdata writes synthetic bench data (`fourd loadgen`) to the
// stores, past the use cases on purpose: resources stored without
// resource.added, and an audit recorded as completed without evaluating
// anything, its snapshot written as generated, with no events. It exists
// so that benchmarks can build a 10M-finding tenant in minutes, and so
// that this bypass is one named, operator-only surface rather than direct
// store calls in cmd: only cmd/fourd's loadgen holds an Operator, and no
// API adapter takes one.
package benchdata

import (
	"context"
	"errors"
	"iter"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// Control is what the Operator needs of the control store
// (store/postgres).
type Control interface {
	EnsureTenant(ctx context.Context, slug, name string) (engine.Tenant, error)
	CreateAudit(ctx context.Context, a engine.Audit) error
	UpdateAudit(ctx context.Context, a engine.Audit) error
}

// Analytics is what the Operator needs of the analytics store
// (store/clickhouse).
type Analytics interface {
	WriteResources(ctx context.Context, tenantID string, resources iter.Seq2[engine.Resource, error]) (engine.WriteResourcesResult, error)
	WriteSnapshot(ctx context.Context, tenantID, auditID string, findings iter.Seq2[engine.Finding, error]) (int64, error)
}

// Config holds the Operator's stores; both are required.
type Config struct {
	Control   Control
	Analytics Analytics
	// Now is the clock of completion times; nil means time.Now.
	Now func() time.Time
}

// Operator writes bench data; see the package comment.
type Operator struct{ cfg Config }

// RequestedBy is what the audits the Operator records say requested them.
const RequestedBy = "loadgen"

// New returns the Operator over cfg.
func New(cfg Config) (*Operator, error) {
	if cfg.Control == nil || cfg.Analytics == nil {
		return nil, errors.New("benchdata: Control and Analytics are required")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Operator{cfg: cfg}, nil
}

// Tenant returns the tenant with the slug, creating it when missing.
func (o *Operator) Tenant(ctx context.Context, slug string) (engine.Tenant, error) {
	return o.cfg.Control.EnsureTenant(ctx, slug, slug)
}

// WriteResources stores resource observations as given (ids, tenant and
// times already set), announcing none: no resource.added.
func (o *Operator) WriteResources(ctx context.Context, tenantID string, resources iter.Seq2[engine.Resource, error]) (engine.WriteResourcesResult, error) {
	return o.cfg.Analytics.WriteResources(ctx, tenantID, resources)
}

// StartAudit records a running audit of the tenant, started at at, that
// no worker will claim: WriteSnapshot and CompleteAudit finish it.
func (o *Operator) StartAudit(ctx context.Context, tenantID string, at time.Time) (engine.Audit, error) {
	a := engine.Audit{ID: engine.NewID(engine.PrefixAudit, at), TenantID: tenantID, Status: engine.AuditRunning,
		RequestedBy: RequestedBy, CreatedAt: at, StartedAt: &at}
	if err := o.cfg.Control.CreateAudit(ctx, a); err != nil {
		return engine.Audit{}, err
	}
	return a, nil
}

// WriteSnapshot writes the audit's finding snapshot as generated (no
// evaluation, no carried-forward findings, no events) and returns how many
// findings it wrote.
func (o *Operator) WriteSnapshot(ctx context.Context, a engine.Audit, findings iter.Seq2[engine.Finding, error]) (int64, error) {
	return o.cfg.Analytics.WriteSnapshot(ctx, a.TenantID, a.ID, findings)
}

// CompleteAudit marks the audit completed over resources resources with
// findings open findings, all new, and returns it: its snapshot becomes
// the tenant's latest. No audit.completed is announced. Its summary says
// that no check was evaluated, so no compliance control passes on it.
func (o *Operator) CompleteAudit(ctx context.Context, a engine.Audit, resources, findings int64) (engine.Audit, error) {
	done := o.cfg.Now().UTC()
	a.Status, a.CompletedAt = engine.AuditCompleted, &done
	a.Progress = engine.AuditProgress{ResourcesTotal: resources, ResourcesScanned: resources}
	// No check ran: Evaluated says so (empty, not null), so that the
	// compliance posture passes no control on this audit.
	a.Summary = &engine.AuditSummary{ResourcesScanned: resources, FindingsOpen: findings, FindingsNew: findings,
		Evaluated: map[string]int64{}}
	if err := o.cfg.Control.UpdateAudit(ctx, a); err != nil {
		return engine.Audit{}, err
	}
	return a, nil
}
