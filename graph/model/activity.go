package model

import "github.com/fourd-dev/fourd/engine"

// FindingActivityConnection is a page of a finding's activity.
type FindingActivityConnection struct {
	page       page[engine.FindingActivity]
	TotalCount int
}

// NewFindingActivityConnection wraps an activity page (its entries carry
// their cursors) and the number of entries in all.
func NewFindingActivityConnection(p engine.Page[engine.FindingActivity], total int) *FindingActivityConnection {
	return &FindingActivityConnection{page: newPage(p, func(a engine.FindingActivity) string { return a.Cursor }), TotalCount: total}
}

// FindingActivityEdge is one entry of a page and the cursor after it.
type FindingActivityEdge struct {
	Cursor string
	Node   engine.FindingActivity
}

// Edges returns the page's edges.
func (c *FindingActivityConnection) Edges() []FindingActivityEdge {
	return edges(c.page, func(cur string, n engine.FindingActivity) FindingActivityEdge {
		return FindingActivityEdge{Cursor: cur, Node: n}
	})
}

// Nodes returns the page's entries.
func (c *FindingActivityConnection) Nodes() []engine.FindingActivity { return c.page.items }

// PageInfo returns where the page stands.
func (c *FindingActivityConnection) PageInfo() *PageInfo {
	info := c.page.pageInfo()
	return &info
}
