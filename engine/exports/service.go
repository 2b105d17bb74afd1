package exports

import (
	"context"
	"errors"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// Reads is what an export needs of the read path (engine/findings gives
// it through ExportReads): which snapshot a read sees, and the pages of
// its findings as the list shows them.
type Reads interface {
	// Snapshot returns the completed audit a read of auditID sees: the
	// tenant's latest when auditID is empty (not_found when it has none),
	// else that audit, conflict while it has not completed.
	Snapshot(ctx context.Context, tenantID, auditID string) (string, error)
	// PageFindings calls put with every page of the findings of snapshot
	// f.AuditID matching f, in the list's order, with people's decisions
	// applied and the muted ones marked, each store query under pageCtx,
	// and flush after each page; omitEvidence tells the store the rows
	// need no evidence.
	PageFindings(ctx context.Context, tenantID string, f engine.FindingFilter, omitEvidence bool,
		pageCtx func(context.Context) (context.Context, context.CancelFunc), put func(context.Context, []engine.Finding) error, flush func() error) error
}

// Resources is what an export reads of the inventory (store/clickhouse).
type Resources interface {
	// ListResources returns up to q.Limit resources of the tenant matching
	// q.Filter in id order, after q.AfterID.
	ListResources(ctx context.Context, q engine.ResourceQuery) ([]engine.Resource, error)
	// GetResourcesPartial returns the tenant's resources with the given
	// ids, filling in only the wide fields f names.
	GetResourcesPartial(ctx context.Context, tenantID string, ids []string, f engine.ResourceFields) ([]engine.Resource, error)
}

// Config holds what a Service needs; Reads and Resources are required.
type Config struct {
	Reads     Reads
	Resources Resources
	// PageSize is how many resources a resource export reads from the
	// store per query (default and at most engine.MaxExportPageSize); the
	// findings' pages are the read path's.
	PageSize int
	Now      func() time.Time
}

// Service prepares the findings and inventory exports (GET
// /v1/findings/export, /v1/resources/export). Each method checks the
// caller's tenant, scope and format before anything is written; a nil
// Service answers unavailable.
type Service struct {
	cfg Config
}

// New returns a Service over cfg.
func New(cfg Config) (*Service, error) {
	if cfg.Reads == nil || cfg.Resources == nil {
		return nil, errors.New("exports: Reads and Resources are required")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.PageSize <= 0 || cfg.PageSize > engine.MaxExportPageSize {
		cfg.PageSize = engine.MaxExportPageSize
	}
	return &Service{cfg: cfg}, nil
}

// require checks the caller's scope, then that the server exports (a nil
// Service: the adapter was given none).
func (s *Service) require(p engine.Principal, scope engine.Scope) error {
	if err := p.Require(scope); err != nil {
		return err
	}
	if s == nil {
		return engine.Errorf(engine.CodeUnavailable, "exports are not configured on this server")
	}
	return nil
}
