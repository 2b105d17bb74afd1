package model

import "github.com/fourd-dev/fourd/engine"

// MuteRuleConnection is a page of mute rules (Relay).
type MuteRuleConnection struct {
	page page[engine.MuteRule]
}

// NewMuteRuleConnection wraps an engine page; cursor makes the cursor after an item.
func NewMuteRuleConnection(p engine.Page[engine.MuteRule], cursor func(engine.MuteRule) string) *MuteRuleConnection {
	return &MuteRuleConnection{page: newPage(p, cursor)}
}

// MuteRuleEdge is one mute rule of a page and the cursor after it.
type MuteRuleEdge struct {
	Cursor string
	Node   engine.MuteRule
}

// Edges returns the page's edges.
func (c *MuteRuleConnection) Edges() []MuteRuleEdge {
	return edges(c.page, func(cur string, n engine.MuteRule) MuteRuleEdge { return MuteRuleEdge{Cursor: cur, Node: n} })
}

// Nodes returns the page's mute rules.
func (c *MuteRuleConnection) Nodes() []engine.MuteRule { return c.page.items }

// PageInfo returns where the page stands.
func (c *MuteRuleConnection) PageInfo() PageInfo { return c.page.pageInfo() }

// TotalCount is nil: mute rules are not counted.
func (c *MuteRuleConnection) TotalCount() *int { return nil }
