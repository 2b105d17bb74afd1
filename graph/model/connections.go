package model

import "github.com/fourd-dev/fourd/engine"

// Code below is the same for each collection; written out per type because
// gqlgen binds concrete types, not generic ones.

// ResourceConnection is a page of resources (Relay).
type ResourceConnection struct {
	page page[engine.Resource]
	// Count returns totalCount; nil means the collection is not counted.
	Count func() (int, error)
}

// NewResourceConnection wraps an engine page; cursor makes the cursor after an item.
func NewResourceConnection(p engine.Page[engine.Resource], cursor func(engine.Resource) string) *ResourceConnection {
	return &ResourceConnection{page: newPage(p, cursor)}
}

// ResourceEdge is one resource of a page and the cursor after it.
type ResourceEdge struct {
	Cursor string
	Node   engine.Resource
}

// Edges returns the page's edges.
func (c *ResourceConnection) Edges() []ResourceEdge {
	return edges(c.page, func(cur string, n engine.Resource) ResourceEdge { return ResourceEdge{Cursor: cur, Node: n} })
}

// Nodes returns the page's resources.
func (c *ResourceConnection) Nodes() []engine.Resource { return c.page.items }

// PageInfo returns where the page stands.
func (c *ResourceConnection) PageInfo() PageInfo { return c.page.pageInfo() }

// TotalCount returns how many resources match, or nil when not counted.
func (c *ResourceConnection) TotalCount() (*int, error) {
	if c.Count == nil {
		return nil, nil
	}
	n, err := c.Count()
	if err != nil {
		return nil, err
	}
	return &n, nil
}

// AuditConnection is a page of audits (Relay).
type AuditConnection struct {
	page page[engine.Audit]
	// Count returns totalCount; nil means the collection is not counted.
	Count func() (int, error)
}

// NewAuditConnection wraps an engine page; cursor makes the cursor after an item.
func NewAuditConnection(p engine.Page[engine.Audit], cursor func(engine.Audit) string) *AuditConnection {
	return &AuditConnection{page: newPage(p, cursor)}
}

// AuditEdge is one audit of a page and the cursor after it.
type AuditEdge struct {
	Cursor string
	Node   engine.Audit
}

// Edges returns the page's edges.
func (c *AuditConnection) Edges() []AuditEdge {
	return edges(c.page, func(cur string, n engine.Audit) AuditEdge { return AuditEdge{Cursor: cur, Node: n} })
}

// Nodes returns the page's audits.
func (c *AuditConnection) Nodes() []engine.Audit { return c.page.items }

// PageInfo returns where the page stands.
func (c *AuditConnection) PageInfo() PageInfo { return c.page.pageInfo() }

// TotalCount returns how many audits match, or nil when not counted.
func (c *AuditConnection) TotalCount() (*int, error) {
	if c.Count == nil {
		return nil, nil
	}
	n, err := c.Count()
	if err != nil {
		return nil, err
	}
	return &n, nil
}

// PolicyConnection is a page of policies (Relay).
type PolicyConnection struct {
	page page[engine.Policy]
	// Count returns totalCount; nil means the collection is not counted.
	Count func() (int, error)
}

// NewPolicyConnection wraps an engine page; cursor makes the cursor after an item.
func NewPolicyConnection(p engine.Page[engine.Policy], cursor func(engine.Policy) string) *PolicyConnection {
	return &PolicyConnection{page: newPage(p, cursor)}
}

// PolicyEdge is one policy of a page and the cursor after it.
type PolicyEdge struct {
	Cursor string
	Node   engine.Policy
}

// Edges returns the page's edges.
func (c *PolicyConnection) Edges() []PolicyEdge {
	return edges(c.page, func(cur string, n engine.Policy) PolicyEdge { return PolicyEdge{Cursor: cur, Node: n} })
}

// Nodes returns the page's policies.
func (c *PolicyConnection) Nodes() []engine.Policy { return c.page.items }

// PageInfo returns where the page stands.
func (c *PolicyConnection) PageInfo() PageInfo { return c.page.pageInfo() }

// TotalCount returns how many policies match, or nil when not counted.
func (c *PolicyConnection) TotalCount() (*int, error) {
	if c.Count == nil {
		return nil, nil
	}
	n, err := c.Count()
	if err != nil {
		return nil, err
	}
	return &n, nil
}

// ReportConnection is a page of reports (Relay).
type ReportConnection struct {
	page page[engine.Report]
	// Count returns totalCount; nil means the collection is not counted.
	Count func() (int, error)
}

// NewReportConnection wraps an engine page; cursor makes the cursor after an item.
func NewReportConnection(p engine.Page[engine.Report], cursor func(engine.Report) string) *ReportConnection {
	return &ReportConnection{page: newPage(p, cursor)}
}

// ReportEdge is one report of a page and the cursor after it.
type ReportEdge struct {
	Cursor string
	Node   engine.Report
}

// Edges returns the page's edges.
func (c *ReportConnection) Edges() []ReportEdge {
	return edges(c.page, func(cur string, n engine.Report) ReportEdge { return ReportEdge{Cursor: cur, Node: n} })
}

// Nodes returns the page's reports.
func (c *ReportConnection) Nodes() []engine.Report { return c.page.items }

// PageInfo returns where the page stands.
func (c *ReportConnection) PageInfo() PageInfo { return c.page.pageInfo() }

// TotalCount returns how many reports match, or nil when not counted.
func (c *ReportConnection) TotalCount() (*int, error) {
	if c.Count == nil {
		return nil, nil
	}
	n, err := c.Count()
	if err != nil {
		return nil, err
	}
	return &n, nil
}
