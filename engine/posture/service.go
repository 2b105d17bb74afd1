package posture

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// Audits reads audits (store/postgres).
type Audits interface {
	GetAudit(ctx context.Context, tenantID, id string) (engine.Audit, error)
}

// Reads is what the judge needs of the read path (engine/findings gives it
// through CountReads): the open counts as the findings API reads them, and
// the tenant's latest completed audit.
type Reads interface {
	// OpenCounts returns the open findings of scope's snapshot by
	// severity, dimension, account and rule, with the decisions people
	// made applied and what active mute rules match left out; it sets
	// scope's forced statuses and mute selection for later queries.
	OpenCounts(ctx context.Context, scope *engine.ReportScope) (counts []engine.ReportCount, muted int64, err error)
	// LatestAudit returns the id of the tenant's latest completed audit;
	// not_found when it has none.
	LatestAudit(ctx context.Context, tenantID string) (string, error)
}

// Config holds what a Service needs. Audits, Reads and Secret are
// required; without Types and Catalog every posture answers unavailable,
// without Postures the trend does and audits record none.
type Config struct {
	Audits  Audits
	Reads   Reads
	Types   TypeCounter
	Catalog engine.RuleCatalog
	// Postures keeps each audit's compliance posture for the trend (issue
	// 33 §4).
	Postures Store
	// Secret keys cursors (the same as the other services', at least 32
	// bytes); CursorTTL bounds how long a cursor stays valid (default 24 h).
	Secret    []byte
	CursorTTL time.Duration
	Logger    *slog.Logger
	Now       func() time.Time
}

// Service judges a tenant's compliance posture: every framework of the
// catalog against a completed audit, one framework's controls, and the
// posture's trend over audits. Each method checks the caller's tenant and
// scope itself.
type Service struct {
	cfg     Config
	log     *slog.Logger
	cursors *engine.Cursors
}

// New returns a Service over cfg and its Operator (recording postures).
func New(cfg Config) (*Service, *Operator, error) {
	if cfg.Audits == nil || cfg.Reads == nil {
		return nil, nil, errors.New("posture: Audits and Reads are required")
	}
	k, err := engine.NewKeyed("posture", cfg.Secret, cfg.CursorTTL, cfg.Now, cfg.Logger)
	if err != nil {
		return nil, nil, err
	}
	cfg.Now, cfg.Logger, cfg.CursorTTL = k.Now, k.Logger, k.CursorTTL
	s := &Service{cfg: cfg, log: k.Logger, cursors: k.Cursors}
	return s, &Operator{s}, nil
}

// controlCursor is a position in a framework's controls: after the control
// with id After, in the audit Audit ("" before the first audit).
type controlCursor struct {
	After string `json:"a"`
	Audit string `json:"u"`
}

// complianceReady checks the caller and that the server can judge (a nil
// Service cannot: the adapter was given none).
func (s *Service) complianceReady(p engine.Principal) error {
	if err := p.Require(engine.ScopeFindingsRead); err != nil {
		return err
	}
	if s == nil || s.cfg.Types == nil || s.cfg.Catalog == nil {
		return engine.Errorf(engine.CodeUnavailable, "compliance posture is not configured on this server")
	}
	return nil
}

// complianceAudit returns the completed audit a posture reads: the named
// one, else the latest (the zero Audit before the tenant's first audit
// completes).
func (s *Service) complianceAudit(ctx context.Context, tenantID, auditID string) (engine.Audit, error) {
	if auditID == "" {
		id, err := s.cfg.Reads.LatestAudit(ctx, tenantID)
		if engine.IsNotFound(err) {
			return engine.Audit{}, nil
		}
		if err != nil {
			return engine.Audit{}, err
		}
		auditID = id
	} else if !engine.ValidID(engine.PrefixAudit, auditID) {
		return engine.Audit{}, engine.FieldErrorf("audit_id", "audit_id must be an audit id (aud_…); got %s", engine.Quote(auditID))
	}
	a, err := s.cfg.Audits.GetAudit(ctx, tenantID, auditID)
	if err != nil {
		return engine.Audit{}, err
	}
	if a.Status != engine.AuditCompleted {
		return engine.Audit{}, engine.Errorf(engine.CodeConflict, "audit %s is %s; its compliance posture is readable once it completes", a.ID, a.Status)
	}
	return a, nil
}

// tenantFacts reads the facts of a tenant's audit a: its open findings by
// rule with the decisions people made applied and the findings active mute
// rules match left out, as the findings API and reports read them.
func (s *Service) tenantFacts(ctx context.Context, tenantID string, a engine.Audit) (Facts, error) {
	var counts []engine.ReportCount
	if a.ID != "" {
		scope := engine.ReportScope{TenantID: tenantID, AuditID: a.ID}
		var err error
		if counts, _, err = s.cfg.Reads.OpenCounts(ctx, &scope); err != nil {
			return Facts{}, err
		}
	}
	return Gather(ctx, s.cfg.Types, s.cfg.Catalog, tenantID, a, counts)
}

// ComplianceFrameworks judges every framework of the catalog against the
// latest completed audit (or q.AuditID), in catalog order (CIS first).
// Errors: not_found (audit), validation_failed (audit_id), conflict (audit not completed), unavailable.
func (s *Service) ComplianceFrameworks(ctx context.Context, p engine.Principal, q engine.ComplianceQuery) ([]engine.CompliancePosture, error) {
	if err := s.complianceReady(p); err != nil {
		return nil, err
	}
	a, err := s.complianceAudit(ctx, p.TenantID, q.AuditID)
	if err != nil {
		return nil, err
	}
	facts, err := s.tenantFacts(ctx, p.TenantID, a)
	if err != nil {
		return nil, err
	}
	fws := s.cfg.Catalog.Frameworks()
	out := make([]engine.CompliancePosture, 0, len(fws))
	for _, fw := range fws {
		posture, _ := facts.JudgeFramework(fw)
		out = append(out, posture)
	}
	return out, nil
}

// catalogFramework returns the framework with the given id; not_found when
// the catalog has none.
func (s *Service) catalogFramework(id string) (engine.CatalogFramework, error) {
	for _, fw := range s.cfg.Catalog.Frameworks() {
		if fw.ID == id {
			return fw, nil
		}
	}
	return engine.CatalogFramework{}, engine.ErrNotFound("compliance framework", id)
}

// ComplianceFramework judges one framework (id as in the catalog, e.g.
// CIS-AWS-4.0.1) and returns its posture with a page of its controls, in
// catalog order, those of q.Status only when set. Errors: not_found
// (framework, audit), validation_failed (status, audit_id), invalid_limit,
// invalid_cursor, conflict (audit not completed), unavailable.
func (s *Service) ComplianceFramework(ctx context.Context, p engine.Principal, id string, q engine.ComplianceControlQuery) (engine.ComplianceFrameworkDetail, error) {
	var out engine.ComplianceFrameworkDetail
	if err := s.complianceReady(p); err != nil {
		return out, err
	}
	fw, err := s.catalogFramework(id)
	if err != nil {
		return out, err
	}
	if q.Status != "" && !slices.Contains(engine.ControlStatuses, q.Status) {
		names := make([]string, len(engine.ControlStatuses))
		for i, st := range engine.ControlStatuses {
			names[i] = string(st)
		}
		return out, engine.FieldErrorf("status", "unknown control status %q; one of %s", q.Status, strings.Join(names, ", "))
	}
	limit, err := q.Page.PageSize()
	if err != nil {
		return out, err
	}
	scope := controlScope(fw.ID, q)
	var pos controlCursor
	auditID := q.AuditID
	if q.Page.Cursor != "" {
		if err := s.cursors.Decode(q.Page.Cursor, p.TenantID, scope, &pos); err != nil {
			return out, err
		}
		auditID = pos.Audit
	}
	var a engine.Audit
	if auditID != "" || q.Page.Cursor == "" {
		if a, err = s.complianceAudit(ctx, p.TenantID, auditID); err != nil {
			return out, err
		}
	}
	facts, err := s.tenantFacts(ctx, p.TenantID, a)
	if err != nil {
		return out, err
	}
	posture, controls := facts.JudgeFramework(fw)
	out.Framework = posture
	start := 0
	if pos.After != "" {
		i := slices.IndexFunc(controls, func(c engine.ControlPosture) bool { return c.ID == pos.After })
		if i < 0 {
			return out, &engine.Error{Code: engine.CodeInvalidCursor, Field: "cursor", Message: "cursor is not valid; start again without a cursor"}
		}
		start = i + 1
	}
	items := make([]engine.ControlPosture, 0, min(limit, len(controls)-start))
	for _, c := range controls[start:] {
		if q.Status != "" && c.Status != q.Status {
			continue
		}
		if len(items) == limit {
			out.Controls.HasMore = true
			break
		}
		items = append(items, c)
	}
	out.Controls.Items = items
	if out.Controls.HasMore {
		out.Controls.NextCursor = s.ControlCursor(p, fw.ID, q, a.ID, items[len(items)-1].ID)
	}
	return out, nil
}

// controlScope binds a controls cursor to its framework and filters.
func controlScope(frameworkID string, q engine.ComplianceControlQuery) string {
	return "compliance_controls|" + engine.Fingerprint(frameworkID, q.AuditID, string(q.Status))
}

// ControlCursor returns the cursor after control controlID in a page of
// ComplianceFramework(frameworkID, q) that read audit auditID (the edges
// of a GraphQL connection).
func (s *Service) ControlCursor(p engine.Principal, frameworkID string, q engine.ComplianceControlQuery, auditID, controlID string) string {
	return s.cursors.Encode(p.TenantID, controlScope(frameworkID, q), controlCursor{After: controlID, Audit: auditID})
}
