package findings

import (
	"context"
	"errors"

	"github.com/fourd-dev/fourd/engine"
)

// FollowChanges keeps the Service's caches of the latest completed audit
// and of the finding overrides (and, through Config.ChangeListeners, the
// identity service's token lookups) in step with
// writes made by every process
// (other replicas, workers, the CLI), until ctx ends. Until it runs and its
// feed listens — and whenever the feed is down — those caches are bypassed:
// every read goes to the store, as without a feed, so nothing stale is ever
// served because a notification was lost. Writes made through the Service
// invalidate its caches synchronously either way.
//
// It returns an error at once when Config.Changes is not set; otherwise
// ctx's error when ctx ends.
func (o *Operator) FollowChanges(ctx context.Context) error {
	s := o.s
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

func (l feedListener) Changed(c engine.Change) {
	switch {
	case c.Kind == engine.ChangeTokens:
		// Only the identity service caches tokens.
	case c.TenantID == "" || (c.Kind != engine.ChangeAudits && c.Kind != engine.ChangeOverrides):
		l.s.reads.purge()
	default:
		l.s.reads.invalidate(c.TenantID)
	}
	for _, o := range l.s.cfg.ChangeListeners {
		o.Changed(c)
	}
}
