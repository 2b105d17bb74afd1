package triage

import (
	"context"
	"errors"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// Reads is what triage needs of the read path (engine/findings gives it
// through TriageReads).
type Reads interface {
	// GetFinding returns one finding as of the latest completed audit, with
	// people's decisions applied; not_found when there is none.
	GetFinding(ctx context.Context, p engine.Principal, id string) (engine.Finding, error)
	// Decisions returns the tenant's live decisions by finding id, read
	// from the store.
	Decisions(ctx context.Context, tenantID string) (map[string]engine.FindingOverride, error)
	// SelectLatest returns, decisions applied as of now, the findings of
	// the latest snapshot with the ids, or matching filter when it is not
	// nil (at most MaxBulkFindings, more is validation_failed).
	SelectLatest(ctx context.Context, tenantID string, ids []string, filter *engine.FindingFilter, now time.Time) ([]engine.Finding, error)
	// Redecide returns f (as read) with decision o in place of its own,
	// unmuted: MarkMuted marks it again.
	Redecide(f engine.Finding, o engine.FindingOverride, now time.Time) engine.Finding
	// MarkMuted marks the open findings among items (of the latest
	// snapshot) that an active mute rule mutes, as reads show them.
	MarkMuted(ctx context.Context, tenantID string, items []engine.Finding) error
	// Invalidate forgets the tenant's cached decisions.
	Invalidate(tenantID string)
}

// Decisions keeps people's decisions on findings and their activity
// (store/postgres).
type Decisions interface {
	// ChangeOverride writes o (creating or replacing the decision on its
	// finding) and appends acts to the finding's activity, in one
	// transaction.
	ChangeOverride(ctx context.Context, o engine.FindingOverride, acts []engine.FindingActivity) error
	// ListFindingActivity returns the recorded activity of a finding, newest
	// first, at most limit entries.
	ListFindingActivity(ctx context.Context, tenantID, findingID string, limit int) ([]engine.FindingActivity, error)
}

// Users looks up a tenant's users (a finding's assignee must be one).
type Users interface {
	// GetUser returns a user of the tenant by id; not_found when the tenant
	// has none with that id.
	GetUser(ctx context.Context, tenantID, id string) (engine.User, error)
}

// AuditLister lists a tenant's audits (store/postgres).
type AuditLister interface {
	// ListAudits returns up to q.Limit audits of the tenant, newest first.
	ListAudits(ctx context.Context, q engine.AuditQuery) ([]engine.Audit, error)
}

// Sightings reads what snapshots hold of a finding (store/clickhouse).
type Sightings interface {
	// FindingSightings returns the finding as each of the given snapshots
	// holds it, where it does.
	FindingSightings(ctx context.Context, tenantID string, auditIDs []string, findingID string) ([]engine.Finding, error)
}

// Config holds what a Service needs. Reads and Secret are required;
// without Decisions the updates answer unavailable (and the activity holds
// what audits saw only), without Users assignment does, without Audits and
// Snapshots the activity holds people's changes only.
type Config struct {
	Reads     Reads
	Decisions Decisions
	Users     Users
	// Audits lists the completed audits whose snapshots Snapshots reads
	// for a finding's activity.
	Audits    AuditLister
	Snapshots Sightings
	// Secret keys cursors (the same as the other services', at least 32
	// bytes); CursorTTL bounds how long a cursor stays valid (default 24 h).
	Secret    []byte
	CursorTTL time.Duration
	Now       func() time.Time
}

// Service is the triage of findings: status changes, assignment and notes
// on one finding or many, and each finding's activity. Each method checks
// the caller's tenant and scope itself; a nil Service answers unavailable.
type Service struct {
	cfg     Config
	cursors *engine.Cursors
}

// New returns a Service over cfg.
func New(cfg Config) (*Service, error) {
	if cfg.Reads == nil {
		return nil, errors.New("triage: Reads is required")
	}
	k, err := engine.NewKeyed("triage", cfg.Secret, cfg.CursorTTL, cfg.Now, nil)
	if err != nil {
		return nil, err
	}
	cfg.Now, cfg.CursorTTL = k.Now, k.CursorTTL
	return &Service{cfg: cfg, cursors: k.Cursors}, nil
}

// require checks the caller's scope, then that the server triages (a nil
// Service: the adapter was given none).
func (s *Service) require(p engine.Principal, scope engine.Scope) error {
	if err := p.Require(scope); err != nil {
		return err
	}
	if s == nil {
		return engine.Errorf(engine.CodeUnavailable, "finding updates are not configured on this server")
	}
	return nil
}

// writable checks the caller may change findings here.
func (s *Service) writable(p engine.Principal) error {
	if err := s.require(p, engine.ScopeFindingsWrite); err != nil {
		return err
	}
	if s.cfg.Decisions == nil {
		return engine.Errorf(engine.CodeUnavailable, "finding updates are not configured on this server")
	}
	return nil
}
