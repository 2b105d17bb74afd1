package model

import (
	"github.com/fourd-dev/fourd/engine"
)

// PageInfo is where a connection's page stands (Relay). Connections page
// forward only, so HasPreviousPage is always false.
type PageInfo struct {
	HasNextPage     bool
	HasPreviousPage bool
	StartCursor     *string
	EndCursor       *string
}

// page is what every connection holds: one engine page and how to make the
// cursor after any of its items (engine signs cursors; graph never makes
// its own).
type page[T any] struct {
	items   []T
	hasMore bool
	cursor  func(T) string
}

func newPage[T any](p engine.Page[T], cursor func(T) string) page[T] {
	items := p.Items
	if items == nil {
		items = []T{}
	}
	return page[T]{items: items, hasMore: p.HasMore, cursor: cursor}
}

func (p page[T]) pageInfo() PageInfo {
	info := PageInfo{HasNextPage: p.hasMore}
	if n := len(p.items); n > 0 {
		start, end := p.cursor(p.items[0]), p.cursor(p.items[n-1])
		info.StartCursor, info.EndCursor = &start, &end
	}
	return info
}

// edges returns one edge per item, made by mk from the item and its cursor.
func edges[T, E any](p page[T], mk func(cursor string, node T) E) []E {
	out := make([]E, len(p.items))
	for i, it := range p.items {
		out[i] = mk(p.cursor(it), it)
	}
	return out
}
