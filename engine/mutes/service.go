package mutes

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// Reads is what mute rules need of the read path (engine/findings gives it
// through MuteReads): a written rule is applied to the latest snapshot and
// its mute set rebuilt there, the read caches forget the tenant's rules,
// and a dry run reads the latest snapshot's open findings as the findings
// API lists them.
type Reads interface {
	// Invalidate forgets what the read caches hold for the tenant.
	Invalidate(tenantID string)
	// ApplyToLatest applies rule r to the tenant's latest snapshot (none
	// yet: nothing to do).
	ApplyToLatest(ctx context.Context, tenantID string, r engine.MuteRule) error
	// SettleLatestMuteSet builds the latest snapshot's mute set of the
	// active rules; a failure is logged (reads stay correct).
	SettleLatestMuteSet(ctx context.Context, tenantID string)
	// ScanOpenLatest calls visit with each open finding of the tenant's
	// latest snapshot (people's decisions applied, what active rules mute
	// left out) and, with resources, its resource (nil when the inventory
	// no longer holds it), until visit returns an error. auditID is the
	// snapshot's, empty when the tenant has none.
	ScanOpenLatest(ctx context.Context, tenantID string, resources bool, visit func(f *engine.Finding, r *engine.Resource) error) (auditID string, err error)
}

// Config holds what a Service needs. Reads and Secret are required; without
// Rules and Compiler every mute rule use case answers unavailable.
type Config struct {
	Rules Store
	// Compiler compiles and type-checks rule expressions (engine/audit's
	// evaluators).
	Compiler engine.MuteCompiler
	Reads    Reads
	// ApplyWait is how long a write of a rule waits for its application
	// before answering; default engine.DefaultMuteApplyWait.
	ApplyWait time.Duration
	// Secret keys cursors (the same as the other services', at least 32
	// bytes); CursorTTL bounds how long a cursor stays valid (default 24 h).
	Secret    []byte
	CursorTTL time.Duration
	Logger    *slog.Logger
	Now       func() time.Time
}

// Service keeps a tenant's mute rules (issue 33): create, update, delete,
// read, list, their history and dry runs. Each method checks the caller's
// tenant and scope itself. Applying rules to snapshots, mute sets and
// their sweep are the read path's (engine/findings).
type Service struct {
	cfg     Config
	log     *slog.Logger
	now     func() time.Time
	cursors *engine.Cursors
}

// New returns a Service over cfg.
func New(cfg Config) (*Service, error) {
	if cfg.Reads == nil {
		return nil, errors.New("mutes: Reads is required")
	}
	k, err := engine.NewKeyed("mutes", cfg.Secret, cfg.CursorTTL, cfg.Now, cfg.Logger)
	if err != nil {
		return nil, err
	}
	cfg.Now, cfg.Logger, cfg.CursorTTL = k.Now, k.Logger, k.CursorTTL
	if cfg.ApplyWait <= 0 {
		cfg.ApplyWait = engine.DefaultMuteApplyWait
	}
	return &Service{cfg: cfg, log: k.Logger, now: k.Now, cursors: k.Cursors}, nil
}

// available reports unavailable when the server has no mute rules
// configured (a nil Service: the adapter was given none).
func (s *Service) available() (engine.MuteCompiler, error) {
	if s == nil || s.cfg.Rules == nil || s.cfg.Compiler == nil {
		return nil, engine.Errorf(engine.CodeUnavailable, "mute rules are not configured on this server")
	}
	return s.cfg.Compiler, nil
}
