package findings

import (
	"context"

	"github.com/fourd-dev/fourd/engine"
)

// idPage is IDPage with the Service's cursors.
func idPage[T any](s *Service, p engine.Principal, scope string, pr engine.PageRequest, idOf func(T) string,
	fetch func(afterID string, limit int) ([]T, error)) (engine.Page[T], error) {
	return engine.IDPage(s.cursors, p, scope, pr, idOf, fetch)
}

// ListResources returns a page of the tenant's inventory in id order.
func (s *Service) ListResources(ctx context.Context, p engine.Principal, f engine.ResourceFilter, pr engine.PageRequest) (engine.Page[engine.Resource], error) {
	if err := p.Require(engine.ScopeResourcesRead); err != nil {
		return engine.Page[engine.Resource]{}, err
	}
	scope := "resources|" + engine.Fingerprint(f.Type, f.Provider, f.Account, f.Region)
	return idPage(s, p, scope, pr, func(r engine.Resource) string { return r.ID }, func(after string, limit int) ([]engine.Resource, error) {
		return s.cfg.Resources.ListResources(ctx, engine.ResourceQuery{TenantID: p.TenantID, Filter: f, AfterID: after, Limit: limit})
	})
}

// GetResource returns one resource of the tenant.
func (s *Service) GetResource(ctx context.Context, p engine.Principal, id string) (engine.Resource, error) {
	if err := p.Require(engine.ScopeResourcesRead); err != nil {
		return engine.Resource{}, err
	}
	if !engine.ValidID(engine.PrefixResource, id) {
		return engine.Resource{}, engine.ErrNotFound("resource", id)
	}
	return s.cfg.Resources.GetResource(ctx, p.TenantID, id)
}

// GetResources returns the tenant's resources with the given ids, in the
// order asked, with a zero Resource where an id does not exist (for
// dataloaders).
func (s *Service) GetResources(ctx context.Context, p engine.Principal, ids []string) ([]engine.Resource, error) {
	return s.getResources(ctx, p, ids, func(tenantID string, ids []string) ([]engine.Resource, error) {
		return s.cfg.Resources.GetResources(ctx, tenantID, ids)
	})
}

// GetResourcesPartial is GetResources filling in only the wide fields that
// f names (Tags and Attributes are nil otherwise): for a caller that does
// not show them, it reads far less.
func (s *Service) GetResourcesPartial(ctx context.Context, p engine.Principal, ids []string, f engine.ResourceFields) ([]engine.Resource, error) {
	return s.getResources(ctx, p, ids, func(tenantID string, ids []string) ([]engine.Resource, error) {
		return s.cfg.Resources.GetResourcesPartial(ctx, tenantID, ids, f)
	})
}

// getResources checks the caller's scope, asks read for each valid id
// once, and returns the resources in the order of ids.
func (s *Service) getResources(ctx context.Context, p engine.Principal, ids []string, read func(tenantID string, ids []string) ([]engine.Resource, error)) ([]engine.Resource, error) {
	if err := p.Require(engine.ScopeResourcesRead); err != nil {
		return nil, err
	}
	var valid []string
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		if !seen[id] && engine.ValidID(engine.PrefixResource, id) {
			seen[id] = true
			valid = append(valid, id)
		}
	}
	var found []engine.Resource
	if len(valid) > 0 {
		var err error
		if found, err = read(p.TenantID, valid); err != nil {
			return nil, err
		}
	}
	byID := make(map[string]engine.Resource, len(found))
	for _, r := range found {
		byID[r.ID] = r
	}
	out := make([]engine.Resource, len(ids))
	for i, id := range ids {
		out[i] = byID[id]
	}
	return out, nil
}

// ListAudits returns a page of the tenant's audits, newest first.
func (s *Service) ListAudits(ctx context.Context, p engine.Principal, pr engine.PageRequest) (engine.Page[engine.Audit], error) {
	if err := p.Require(engine.ScopeAuditsRead); err != nil {
		return engine.Page[engine.Audit]{}, err
	}
	return idPage(s, p, "audits", pr, func(a engine.Audit) string { return a.ID }, func(before string, limit int) ([]engine.Audit, error) {
		return s.cfg.Audits.ListAudits(ctx, engine.AuditQuery{TenantID: p.TenantID, BeforeID: before, Limit: limit})
	})
}

// GetAudit returns one audit of the tenant.
func (s *Service) GetAudit(ctx context.Context, p engine.Principal, id string) (engine.Audit, error) {
	if err := p.Require(engine.ScopeAuditsRead); err != nil {
		return engine.Audit{}, err
	}
	if !engine.ValidID(engine.PrefixAudit, id) {
		return engine.Audit{}, engine.ErrNotFound("audit", id)
	}
	return s.cfg.Audits.GetAudit(ctx, p.TenantID, id)
}
