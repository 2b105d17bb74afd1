package reporting

import (
	"context"
	"errors"
	"iter"
	"log/slog"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// Audits reads audits (store/postgres).
type Audits interface {
	GetAudit(ctx context.Context, tenantID, id string) (engine.Audit, error)
	// LatestCompletedAudit returns the tenant's most recently completed
	// audit; not_found when it has none.
	LatestCompletedAudit(ctx context.Context, tenantID string) (engine.Audit, error)
	ListAudits(ctx context.Context, q engine.AuditQuery) ([]engine.Audit, error)
}

// Reads is what reports need of the read path (engine/findings gives it
// through CountReads), so that a report counts the findings the findings
// API lists: open counts with people's decisions and active mute rules
// applied, the same for the trend, and the mutes of a snapshot diff.
type Reads interface {
	OpenCounts(ctx context.Context, scope *engine.ReportScope) (counts []engine.ReportCount, muted int64, err error)
	MuteTrend(ctx context.Context, tenantID string, auditIDs []string, q engine.TrendQuery, counts map[string][]engine.FindingCount) error
	DiffMutes(ctx context.Context, tenantID, prevAuditID, auditID string) (engine.DiffMutes, error)
}

// Resources reads resources with only the wide fields a report shows
// (store/clickhouse).
type Resources interface {
	GetResourcesPartial(ctx context.Context, tenantID string, ids []string, f engine.ResourceFields) ([]engine.Resource, error)
}

// Differ compares two snapshots for an executive summary's changes
// (store/clickhouse).
type Differ interface {
	DiffSnapshots(ctx context.Context, tenantID, prevAuditID, auditID string, mutes engine.DiffMutes) iter.Seq2[engine.FindingChange, error]
}

// TrendCounts counts findings over several snapshots for an executive
// summary's trend (store/clickhouse).
type TrendCounts interface {
	CountsByAudit(ctx context.Context, tenantID string, auditIDs []string, f engine.FindingFilter, groupBy []engine.GroupBy) (map[string][]engine.FindingCount, error)
}

// Config holds what a Service needs. Reports, Audits, Reads, Resources and
// Secret are required: listing and reading reports works with them alone. Without
// Jobs, generating and downloading reports is unavailable; report workers
// need Queue, Analytics, Renderer and Catalog as well.
type Config struct {
	Reports Store
	Audits  Audits
	Reads   Reads
	Jobs    Jobs
	// Renderer renders documents as JSON, PDF and HTML (package reports).
	Renderer  engine.ReportRenderer
	Queue     Queue
	Analytics Analytics
	Catalog   engine.RuleCatalog
	// Resources names the resources a report lists.
	Resources Resources
	// Snapshots and Trends give an executive summary its changes and
	// trend; Explainer samples passing resources for compliance evidence.
	// Each optional: without it that part of a report is empty.
	Snapshots Differ
	Trends    TrendCounts
	Explainer engine.Explainer
	// Lease is how long a worker holds a report before another may claim
	// it (default 10 min).
	Lease time.Duration
	// Secret keys cursors (the same as the other services', at least 32
	// bytes); CursorTTL bounds how long a cursor stays valid (default 24 h).
	Secret    []byte
	CursorTTL time.Duration
	Logger    *slog.Logger
	Now       func() time.Time
}

// Service lists, generates, renders and serves reports (its Operator runs
// the report workers). Each method checks its caller's tenant and scope
// itself.
type Service struct {
	cfg     Config
	log     *slog.Logger
	now     func() time.Time
	cursors *engine.Cursors
}

// New returns a Service over cfg and its Operator (the report workers).
func New(cfg Config) (*Service, *Operator, error) {
	if cfg.Reports == nil || cfg.Audits == nil || cfg.Reads == nil || cfg.Resources == nil {
		return nil, nil, errors.New("reporting: Reports, Audits, Reads and Resources are required")
	}
	k, err := engine.NewKeyed("reporting", cfg.Secret, cfg.CursorTTL, cfg.Now, cfg.Logger)
	if err != nil {
		return nil, nil, err
	}
	cfg.Now, cfg.Logger, cfg.CursorTTL = k.Now, k.Logger, k.CursorTTL
	s := &Service{cfg: cfg, log: k.Logger, now: k.Now, cursors: k.Cursors}
	return s, &Operator{s}, nil
}
