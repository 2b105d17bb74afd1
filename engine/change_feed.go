package engine

import (
	"context"
	"errors"
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

// FollowChanges keeps this Service's caches of the latest completed audit
// and of the finding overrides (and, through Config.ChangeListeners, the
// identity service's token lookups) in step with
// writes made by every process
// (other replicas, workers, the CLI), until ctx ends. Until it runs and its
// feed listens — and whenever the feed is down — those caches are bypassed:
// every read goes to the store, as without a feed, so nothing stale is ever
// served because a notification was lost. Writes made through this Service
// invalidate its caches synchronously either way.
//
// It returns an error at once when Config.Changes is not set; otherwise
// ctx's error when ctx ends.
func (s *Service) FollowChanges(ctx context.Context) error {
	if s.cfg.Changes == nil {
		return errors.New("engine: FollowChanges needs Config.Changes")
	}
	err := s.cfg.Changes.Follow(ctx, feedListener{s})
	s.reads.down() // nothing is delivered any more
	return err
}

// feedListener applies a feed's reports to the Service's caches.
type feedListener struct{ s *Service }

func (l feedListener) Up() {
	l.s.reads.up()
	for _, o := range l.s.cfg.ChangeListeners {
		o.Up()
	}
	l.s.log.Info("change feed listening; per-tenant read caches in use")
}

func (l feedListener) Down(err error) {
	l.s.reads.down()
	for _, o := range l.s.cfg.ChangeListeners {
		o.Down(err)
	}
	l.s.log.Warn("change feed down; per-tenant read caches bypassed until it reconnects", "err", err)
}

func (l feedListener) Changed(c Change) {
	switch {
	case c.Kind == ChangeTokens:
		// Only the identity service caches tokens.
	case c.TenantID == "" || (c.Kind != ChangeAudits && c.Kind != ChangeOverrides):
		l.s.reads.purge()
	default:
		l.s.reads.invalidate(c.TenantID)
	}
	for _, o := range l.s.cfg.ChangeListeners {
		o.Changed(c)
	}
}
