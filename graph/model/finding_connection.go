package model

import "github.com/fourd-dev/fourd/engine"

// FindingConnection is a page of findings (Relay).
type FindingConnection struct {
	page page[engine.Finding]
	// Count returns totalCount; nil means the collection is not counted.
	Count func() (int, error)
}

// NewFindingConnection wraps an engine page; cursor makes the cursor after an item.
func NewFindingConnection(p engine.Page[engine.Finding], cursor func(engine.Finding) string) *FindingConnection {
	return &FindingConnection{page: newPage(p, cursor)}
}

// FindingEdge is one finding of a page and the cursor after it.
type FindingEdge struct {
	Cursor string
	Node   engine.Finding
}

// Edges returns the page's edges.
func (c *FindingConnection) Edges() []FindingEdge {
	return edges(c.page, func(cur string, n engine.Finding) FindingEdge { return FindingEdge{Cursor: cur, Node: n} })
}

// Nodes returns the page's findings.
func (c *FindingConnection) Nodes() []engine.Finding { return c.page.items }

// PageInfo returns where the page stands.
func (c *FindingConnection) PageInfo() PageInfo { return c.page.pageInfo() }

// TotalCount returns how many findings match the filter.
func (c *FindingConnection) TotalCount() (int, error) {
	if c.Count == nil {
		return len(c.page.items), nil
	}
	return c.Count()
}
