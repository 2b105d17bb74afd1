package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/graph/loaders"
	"github.com/fourd-dev/fourd/graph/model"
)

// findings is the one path of every findings connection (Query.findings,
// Resource.findings, Audit.findings): a ListFindings page whose edges carry
// engine-signed cursors and whose totalCount is the snapshot's count with
// the same filter. When the selection asks for the findings' resources,
// the page's resources are read in one batch up front; a totalCount that
// is selected is started first, so that it runs while they are read.
func (r *Resolver) findings(ctx context.Context, f engine.FindingFilter, first *int, after *string, last *int, before *string) (*model.FindingConnection, error) {
	pr, err := pageRequest(first, after, last, before)
	if err != nil {
		return nil, err
	}
	p := caller(ctx)
	page, err := r.svc.ListFindings(ctx, p, f, pr)
	if err != nil {
		return nil, err
	}
	cf := f
	if cf.AuditID == "" && len(page.Items) > 0 {
		cf.AuditID = page.Items[0].AuditID // the snapshot the cursor pinned
	}
	c := model.NewFindingConnection(page, func(x engine.Finding) string { return r.svc.FindingCursor(p, f, x) })
	c.Count = func() (int, error) { return loaders.For(ctx).FindingCount(ctx, cf) }
	if selectsField(ctx, "totalCount") {
		c.Count = loaders.For(ctx).FindingCountThunk(ctx, cf)
	}
	if fields, ok := selectedResources(ctx); ok && len(page.Items) > 1 {
		ids := make([]string, len(page.Items))
		for i, f := range page.Items {
			ids[i] = f.ResourceID
		}
		if err := loaders.For(ctx).PrefetchResources(ctx, r.svc, p, ids, fields); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// selectsField reports whether the current field's selection set (on the
// connection it returns) names field.
func selectsField(ctx context.Context, field string) bool {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || !graphql.HasOperationContext(ctx) {
		return false
	}
	for _, f := range graphql.CollectFields(graphql.GetOperationContext(ctx), fc.Field.Selections, []string{"FindingConnection"}) {
		if f.Name == field {
			return true
		}
	}
	return false
}

// listResources lists the tenant's inventory.
func (r *Resolver) listResources(ctx context.Context, first *int, after *string, last *int, before *string, filter *engine.ResourceFilter) (*model.ResourceConnection, error) {
	pr, err := pageRequest(first, after, last, before)
	if err != nil {
		return nil, err
	}
	var f engine.ResourceFilter
	if filter != nil {
		f = *filter
	}
	p := caller(ctx)
	page, err := r.svc.ListResources(ctx, p, f, pr)
	if err != nil {
		return nil, err
	}
	return model.NewResourceConnection(page, func(x engine.Resource) string { return r.svc.ResourceCursor(p, f, x.ID) }), nil
}

// listAudits lists the tenant's audits, newest first.
func (r *Resolver) listAudits(ctx context.Context, first *int, after *string, last *int, before *string) (*model.AuditConnection, error) {
	pr, err := pageRequest(first, after, last, before)
	if err != nil {
		return nil, err
	}
	p := caller(ctx)
	page, err := r.svc.ListAudits(ctx, p, pr)
	if err != nil {
		return nil, err
	}
	return model.NewAuditConnection(page, func(x engine.Audit) string { return r.svc.AuditCursor(p, x.ID) }), nil
}

// listPolicies lists the tenant's policies, newest first.
func (r *Resolver) listPolicies(ctx context.Context, first *int, after *string, last *int, before *string) (*model.PolicyConnection, error) {
	pr, err := pageRequest(first, after, last, before)
	if err != nil {
		return nil, err
	}
	p := caller(ctx)
	page, err := r.policies.ListPolicies(ctx, p, pr)
	if err != nil {
		return nil, err
	}
	return model.NewPolicyConnection(page, func(x engine.Policy) string { return r.policies.PolicyCursor(p, x.ID) }), nil
}

// listReports lists the tenant's reports, newest first.
func (r *Resolver) listReports(ctx context.Context, first *int, after *string, last *int, before *string) (*model.ReportConnection, error) {
	pr, err := pageRequest(first, after, last, before)
	if err != nil {
		return nil, err
	}
	p := caller(ctx)
	page, err := r.reports.ListReports(ctx, p, pr)
	if err != nil {
		return nil, err
	}
	return model.NewReportConnection(page, func(x engine.Report) string { return r.reports.ReportCursor(p, x.ID) }), nil
}

// selectedResources reports whether the current findings connection field
// selects resource on its nodes (through nodes or edges.node), and which
// wide fields of Resource those selections ask for, together.
func selectedResources(ctx context.Context) (engine.ResourceFields, bool) {
	var fields engine.ResourceFields
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || !graphql.HasOperationContext(ctx) {
		return fields, false
	}
	op := graphql.GetOperationContext(ctx)
	found := false
	add := func(sel []graphql.CollectedField) {
		for _, f := range sel {
			if f.Name == "resource" {
				found = true
				g := resourceFields(op, f.Selections)
				fields.Tags, fields.Attributes = fields.Tags || g.Tags, fields.Attributes || g.Attributes
				fields.LastSeen = fields.LastSeen || g.LastSeen
				fields.CapturedAt = fields.CapturedAt || g.CapturedAt
			}
		}
	}
	finding := []string{"Finding", "Node"}
	for _, f := range graphql.CollectFields(op, fc.Field.Selections, []string{"FindingConnection"}) {
		switch f.Name {
		case "nodes":
			add(graphql.CollectFields(op, f.Selections, finding))
		case "edges":
			for _, n := range graphql.CollectFields(op, f.Selections, []string{"FindingEdge"}) {
				if n.Name == "node" {
					add(graphql.CollectFields(op, n.Selections, finding))
				}
			}
		}
	}
	return fields, found
}

// loadResource loads the resource with id through the request's loaders,
// with the wide fields that the current field's selection shows (all of
// them when there is no selection to look at).
func loadResource(ctx context.Context, id string) (*engine.Resource, error) {
	fields := engine.AllResourceFields
	if fc := graphql.GetFieldContext(ctx); fc != nil && graphql.HasOperationContext(ctx) {
		fields = resourceFields(graphql.GetOperationContext(ctx), fc.Field.Selections)
	}
	return loaders.For(ctx).Resource(ctx, id, fields)
}

// resourceFields returns the fields of Resource beyond the narrow ones
// (tags, attributes, last seen, capture time) that a selection set on a Resource asks
// for; the others are read always.
func resourceFields(op *graphql.OperationContext, sel ast.SelectionSet) engine.ResourceFields {
	var f engine.ResourceFields
	for _, c := range graphql.CollectFields(op, sel, []string{"Resource", "Node"}) {
		switch c.Name {
		case "tags":
			f.Tags = true
		case "attributes":
			f.Attributes = true
		case "lastSeenAt":
			f.LastSeen = true
		case "capturedAt":
			f.CapturedAt = true
		}
	}
	return f
}
