package engine

import "context"

// idPage is IDPage with the Service's cursors.
func idPage[T any](s *Service, p Principal, scope string, pr PageRequest, idOf func(T) string,
	fetch func(afterID string, limit int) ([]T, error)) (Page[T], error) {
	return IDPage(&Cursors{c: s.cursors}, p, scope, pr, idOf, fetch)
}

// ListResources returns a page of the tenant's inventory in id order.
func (s *Service) ListResources(ctx context.Context, p Principal, f ResourceFilter, pr PageRequest) (Page[Resource], error) {
	if err := p.Require(ScopeResourcesRead); err != nil {
		return Page[Resource]{}, err
	}
	scope := "resources|" + fingerprint(f.Type, f.Provider, f.Account, f.Region)
	return idPage(s, p, scope, pr, func(r Resource) string { return r.ID }, func(after string, limit int) ([]Resource, error) {
		return s.cfg.Resources.ListResources(ctx, ResourceQuery{TenantID: p.TenantID, Filter: f, AfterID: after, Limit: limit})
	})
}

// GetResource returns one resource of the tenant.
func (s *Service) GetResource(ctx context.Context, p Principal, id string) (Resource, error) {
	if err := p.Require(ScopeResourcesRead); err != nil {
		return Resource{}, err
	}
	if !ValidID(PrefixResource, id) {
		return Resource{}, ErrNotFound("resource", id)
	}
	return s.cfg.Resources.GetResource(ctx, p.TenantID, id)
}

// GetResources returns the tenant's resources with the given ids, in the
// order asked, with a zero Resource where an id does not exist (for
// dataloaders).
func (s *Service) GetResources(ctx context.Context, p Principal, ids []string) ([]Resource, error) {
	return s.getResources(ctx, p, ids, func(tenantID string, ids []string) ([]Resource, error) {
		return s.cfg.Resources.GetResources(ctx, tenantID, ids)
	})
}

// GetResourcesPartial is GetResources filling in only the wide fields that
// f names (Tags and Attributes are nil otherwise): for a caller that does
// not show them, it reads far less.
func (s *Service) GetResourcesPartial(ctx context.Context, p Principal, ids []string, f ResourceFields) ([]Resource, error) {
	return s.getResources(ctx, p, ids, func(tenantID string, ids []string) ([]Resource, error) {
		return s.cfg.Resources.GetResourcesPartial(ctx, tenantID, ids, f)
	})
}

// getResources checks the caller's scope, asks read for each valid id
// once, and returns the resources in the order of ids.
func (s *Service) getResources(ctx context.Context, p Principal, ids []string, read func(tenantID string, ids []string) ([]Resource, error)) ([]Resource, error) {
	if err := p.Require(ScopeResourcesRead); err != nil {
		return nil, err
	}
	var valid []string
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		if !seen[id] && ValidID(PrefixResource, id) {
			seen[id] = true
			valid = append(valid, id)
		}
	}
	var found []Resource
	if len(valid) > 0 {
		var err error
		if found, err = read(p.TenantID, valid); err != nil {
			return nil, err
		}
	}
	byID := make(map[string]Resource, len(found))
	for _, r := range found {
		byID[r.ID] = r
	}
	out := make([]Resource, len(ids))
	for i, id := range ids {
		out[i] = byID[id]
	}
	return out, nil
}

// ListAudits returns a page of the tenant's audits, newest first.
func (s *Service) ListAudits(ctx context.Context, p Principal, pr PageRequest) (Page[Audit], error) {
	if err := p.Require(ScopeAuditsRead); err != nil {
		return Page[Audit]{}, err
	}
	return idPage(s, p, "audits", pr, func(a Audit) string { return a.ID }, func(before string, limit int) ([]Audit, error) {
		return s.cfg.Audits.ListAudits(ctx, AuditQuery{TenantID: p.TenantID, BeforeID: before, Limit: limit})
	})
}

// GetAudit returns one audit of the tenant.
func (s *Service) GetAudit(ctx context.Context, p Principal, id string) (Audit, error) {
	if err := p.Require(ScopeAuditsRead); err != nil {
		return Audit{}, err
	}
	if !ValidID(PrefixAudit, id) {
		return Audit{}, ErrNotFound("audit", id)
	}
	return s.cfg.Audits.GetAudit(ctx, p.TenantID, id)
}

// ListPolicies returns a page of the tenant's policies, newest first.
func (s *Service) ListPolicies(ctx context.Context, p Principal, pr PageRequest) (Page[Policy], error) {
	if err := p.Require(ScopePoliciesRead); err != nil {
		return Page[Policy]{}, err
	}
	return idPage(s, p, "policies", pr, func(x Policy) string { return x.ID }, func(before string, limit int) ([]Policy, error) {
		return s.cfg.Policies.ListPolicies(ctx, PolicyQuery{TenantID: p.TenantID, BeforeID: before, Limit: limit})
	})
}

// GetPolicy returns one policy of the tenant.
func (s *Service) GetPolicy(ctx context.Context, p Principal, id string) (Policy, error) {
	if err := p.Require(ScopePoliciesRead); err != nil {
		return Policy{}, err
	}
	if !ValidID(PrefixPolicy, id) {
		return Policy{}, ErrNotFound("policy", id)
	}
	return s.cfg.Policies.GetPolicy(ctx, p.TenantID, id)
}

// ListReports returns a page of the tenant's reports, newest first.
func (s *Service) ListReports(ctx context.Context, p Principal, pr PageRequest) (Page[Report], error) {
	if err := p.Require(ScopeReportsRead); err != nil {
		return Page[Report]{}, err
	}
	return idPage(s, p, "reports", pr, func(r Report) string { return r.ID }, func(before string, limit int) ([]Report, error) {
		return s.cfg.Reports.ListReports(ctx, ReportQuery{TenantID: p.TenantID, BeforeID: before, Limit: limit})
	})
}

// GetReport returns one report of the tenant.
func (s *Service) GetReport(ctx context.Context, p Principal, id string) (Report, error) {
	if err := p.Require(ScopeReportsRead); err != nil {
		return Report{}, err
	}
	if !ValidID(PrefixReport, id) {
		return Report{}, ErrNotFound("report", id)
	}
	return s.cfg.Reports.GetReport(ctx, p.TenantID, id)
}
