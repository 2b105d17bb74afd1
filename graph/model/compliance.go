package model

import "github.com/fourd-dev/fourd/engine"

// ControlPostureConnection is a page of a framework's controls (Relay).
type ControlPostureConnection struct {
	page page[engine.ControlPosture]
}

// NewControlPostureConnection wraps an engine page; cursor makes the cursor after an item.
func NewControlPostureConnection(p engine.Page[engine.ControlPosture], cursor func(engine.ControlPosture) string) *ControlPostureConnection {
	return &ControlPostureConnection{page: newPage(p, cursor)}
}

// ControlPostureEdge is one control of a page and the cursor after it.
type ControlPostureEdge struct {
	Cursor string
	Node   engine.ControlPosture
}

// Edges returns the page's edges.
func (c *ControlPostureConnection) Edges() []ControlPostureEdge {
	return edges(c.page, func(cur string, n engine.ControlPosture) ControlPostureEdge {
		return ControlPostureEdge{Cursor: cur, Node: n}
	})
}

// Nodes returns the page's controls.
func (c *ControlPostureConnection) Nodes() []engine.ControlPosture { return c.page.items }

// PageInfo returns where the page stands.
func (c *ControlPostureConnection) PageInfo() PageInfo { return c.page.pageInfo() }

// TotalCount is nil: controls are counted by status on the framework.
func (c *ControlPostureConnection) TotalCount() *int { return nil }

// CompliancePostureConnection is a page of a framework's recorded
// postures (Relay).
type CompliancePostureConnection struct {
	page page[engine.CompliancePosture]
}

// NewCompliancePostureConnection wraps an engine page; cursor makes the cursor after an item.
func NewCompliancePostureConnection(p engine.Page[engine.CompliancePosture], cursor func(engine.CompliancePosture) string) *CompliancePostureConnection {
	return &CompliancePostureConnection{page: newPage(p, cursor)}
}

// CompliancePostureEdge is one recorded posture and the cursor after it.
type CompliancePostureEdge struct {
	Cursor string
	Node   engine.CompliancePosture
}

// Edges returns the page's edges.
func (c *CompliancePostureConnection) Edges() []CompliancePostureEdge {
	return edges(c.page, func(cur string, n engine.CompliancePosture) CompliancePostureEdge {
		return CompliancePostureEdge{Cursor: cur, Node: n}
	})
}

// Nodes returns the page's postures.
func (c *CompliancePostureConnection) Nodes() []engine.CompliancePosture { return c.page.items }

// PageInfo returns where the page stands.
func (c *CompliancePostureConnection) PageInfo() PageInfo { return c.page.pageInfo() }

// TotalCount is nil: the trend is not counted.
func (c *CompliancePostureConnection) TotalCount() *int { return nil }
