package engine

import "time"

// Cursors makes and checks the opaque cursors of the lists (see
// cursorCodec): the concern packages (engine/webhooks, …) page with the
// same cursors as engine/findings, keyed by the same secret.
type Cursors struct{ c *cursorCodec }

// NewCursors returns the cursors keyed by secret (at least MinSecretLen
// bytes), valid for ttl from their making (0: DefaultCursorTTL) by the
// clock now (nil: time.Now). A Service builds them through NewKeyed.
func NewCursors(secret []byte, ttl time.Duration, now func() time.Time) *Cursors {
	if ttl == 0 {
		ttl = DefaultCursorTTL
	}
	if now == nil {
		now = time.Now
	}
	return &Cursors{c: newCursorCodec(secret, ttl, now)}
}

// Encode returns the cursor of position key in the scope (the collection
// and a Fingerprint of its filters) for the tenant.
func (c *Cursors) Encode(tenantID, scope string, key any) string {
	return c.c.encode(tenantID, scope, key)
}

// Decode checks cursor for the tenant and scope and fills key;
// invalid_cursor when it was made for another tenant, list or filters, has
// expired or was tampered with.
func (c *Cursors) Decode(cursor, tenantID, scope string, key any) error {
	return c.c.decode(cursor, tenantID, scope, key)
}

// Fingerprint returns a short stable hash of filter values, binding a
// cursor's scope to the filters it was made with.
func Fingerprint(parts ...string) string { return fingerprint(parts...) }

// IDPage pages a collection ordered by id (ascending for resources, newest
// first for the time-sortable ids of audits, policies, reports, webhook
// endpoints and events): it asks fetch for limit+1 rows after the cursor's
// id and cuts the page.
func IDPage[T any](c *Cursors, p Principal, scope string, pr PageRequest, idOf func(T) string,
	fetch func(afterID string, limit int) ([]T, error)) (Page[T], error) {
	limit, err := pr.PageSize()
	if err != nil {
		return Page[T]{}, err
	}
	var after string
	if pr.Cursor != "" {
		if err := c.Decode(pr.Cursor, p.TenantID, scope, &after); err != nil {
			return Page[T]{}, err
		}
	}
	items, err := fetch(after, limit+1)
	if err != nil {
		return Page[T]{}, err
	}
	if items == nil {
		items = []T{}
	}
	page := Page[T]{Items: items}
	if len(items) > limit {
		page.Items, page.HasMore = items[:limit], true
		page.NextCursor = c.Encode(p.TenantID, scope, idOf(page.Items[limit-1]))
	}
	return page, nil
}
