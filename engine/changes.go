package engine

import (
	"context"
)

// ChangeKind names what a committed write changed.
type ChangeKind string

// What a Service caches per tenant changes with these.
const (
	// ChangeAudits: an audit of the tenant became completed, or a completed
	// one changed or went away; the latest completed audit may be another.
	ChangeAudits ChangeKind = "audits"
	// ChangeOverrides: a person's decision on one of the tenant's findings
	// (accepted risk, reopen) was written or removed.
	ChangeOverrides ChangeKind = "overrides"
	// ChangeTokens: a token, OAuth grant or client of the tenant was
	// revoked, or what a token may do changed (its scopes, its user's
	// role); cached token lookups must be made again.
	ChangeTokens ChangeKind = "tokens"
)

// Change is one committed write that caches of the tenant must forget.
// An unknown Kind or an empty TenantID means "anything may have changed".
type Change struct {
	Kind     ChangeKind
	TenantID string
}

// ChangeFeed delivers the changes committed to the control store by any
// process sharing it (store/postgres: LISTEN/NOTIFY), so that every replica
// can keep per-tenant caches of the latest completed audit and of the
// finding overrides.
type ChangeFeed interface {
	// Follow listens until ctx ends, reconnecting by itself, and returns
	// ctx's error. It calls l.Up once it listens (every change committed
	// after that call is delivered to l.Changed), and l.Down as soon as it
	// may have missed a change (connection lost, unanswered heartbeat);
	// then Up again after reconnecting. Calls to l are sequential.
	Follow(ctx context.Context, l ChangeListener) error
}

// ChangeListener receives what a ChangeFeed reports.
type ChangeListener interface {
	Up()
	Down(err error)
	Changed(c Change)
}
