package findings

import (
	"context"
	"slices"
	"strings"

	"github.com/fourd-dev/fourd/engine"
)

// controlCursor is a position in a framework's controls: after the control
// with id After, in the audit Audit ("" before the first audit).
type controlCursor struct {
	After string `json:"a"`
	Audit string `json:"u"`
}

// complianceReady checks the caller and that the server can judge.
func (s *Service) complianceReady(p engine.Principal) error {
	if err := p.Require(engine.ScopeFindingsRead); err != nil {
		return err
	}
	if s.cfg.Reporting.Analytics == nil || s.cfg.Reporting.Catalog == nil {
		return engine.Errorf(engine.CodeUnavailable, "compliance posture is not configured on this server")
	}
	return nil
}

// complianceAudit returns the completed audit a posture reads: the named
// one, else the latest (the zero Audit before the tenant's first audit
// completes).
func (s *Service) complianceAudit(ctx context.Context, tenantID, auditID string) (engine.Audit, error) {
	if auditID == "" {
		id, err := s.latestSnapshot(ctx, tenantID)
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

// tenantPostureFacts reads the facts of a tenant's audit a: its open
// findings by rule with the decisions people made applied and the findings
// active mute rules match left out, as the findings API and reports read
// them.
func (s *Service) tenantPostureFacts(ctx context.Context, tenantID string, a engine.Audit) (postureFacts, error) {
	if a.ID == "" {
		return s.postureFacts(ctx, tenantID, a, nil)
	}
	scope := engine.ReportScope{TenantID: tenantID, AuditID: a.ID}
	ov, err := s.overrides(ctx, tenantID)
	if err != nil {
		return postureFacts{}, err
	}
	scope.ForceResolved, scope.ForceOpen = forcedStatuses(ov)
	counts, err := s.cfg.Reporting.Analytics.OpenCounts(ctx, scope)
	if err != nil {
		return postureFacts{}, err
	}
	if counts, err = s.adjustReportCounts(ctx, scope, ov, counts); err != nil {
		return postureFacts{}, err
	}
	if counts, _, err = s.subtractMutes(ctx, &scope, counts); err != nil {
		return postureFacts{}, err
	}
	return s.postureFacts(ctx, tenantID, a, counts)
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
	facts, err := s.tenantPostureFacts(ctx, p.TenantID, a)
	if err != nil {
		return nil, err
	}
	fws := s.cfg.Reporting.Catalog.Frameworks()
	out := make([]engine.CompliancePosture, 0, len(fws))
	for _, fw := range fws {
		posture, _ := facts.judgeFramework(fw)
		out = append(out, posture)
	}
	return out, nil
}

// catalogFramework returns the framework with the given id; not_found when
// the catalog has none.
func (s *Service) catalogFramework(id string) (engine.CatalogFramework, error) {
	for _, fw := range s.cfg.Reporting.Catalog.Frameworks() {
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
	facts, err := s.tenantPostureFacts(ctx, p.TenantID, a)
	if err != nil {
		return out, err
	}
	posture, controls := facts.judgeFramework(fw)
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
