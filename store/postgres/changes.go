package postgres

import (
	"context"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/fourd-dev/fourd/engine"
)

var _ engine.ChangeFeed = (*Store)(nil)

// changesChannel is the NOTIFY channel of migration 00040's triggers.
const changesChannel = "fourd_changes"

// changesApplication names the listening connection in pg_stat_activity.
const changesApplication = "fourd change feed"

// How Follow watches its connection and reconnects.
const (
	// followHeartbeat is how long Follow waits for a notification before it
	// checks that the connection still answers; with followPingTimeout it
	// bounds how long a silently dead connection goes unnoticed (about 10 s).
	followHeartbeat   = 5 * time.Second
	followPingTimeout = 5 * time.Second
	followMinBackoff  = 100 * time.Millisecond
	followMaxBackoff  = 5 * time.Second
)

// Follow implements engine.ChangeFeed: LISTEN on a connection of its own
// (not the pool's), the triggers of migration 00040 sending a notification
// from every transaction that completes an audit or writes a finding
// override. PostgreSQL delivers a notification when its transaction
// commits, so a listener hears of a write a round trip after its commit.
//
// l.Up is called once LISTEN has taken effect. l.Down is called when the
// connection fails or does not answer a heartbeat (a ping after 5 s
// without notifications, 5 s to answer), since changes may then be missed;
// Follow then reconnects with a backoff of 0.1 s doubling to 5 s, and calls
// l.Up again. It returns ctx's error when ctx ends.
func (s *Store) Follow(ctx context.Context, l engine.ChangeListener) error {
	backoff := followMinBackoff
	for {
		up, err := s.listen(ctx, l)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if up {
			l.Down(err)
			backoff = followMinBackoff
		} else {
			s.log.Warn("postgres: change feed cannot listen; retrying", "err", err, "in", backoff)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, followMaxBackoff)
	}
}

// listen runs one connection: LISTEN, l.Up, then notifications until the
// connection fails. up reports whether l.Up was called.
func (s *Store) listen(ctx context.Context, l engine.ChangeListener) (up bool, err error) {
	cfg := s.pool.Config().ConnConfig.Copy()
	cfg.RuntimeParams["application_name"] = changesApplication
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return false, err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+changesChannel); err != nil {
		return false, err
	}
	l.Up()
	for {
		wait, cancel := context.WithTimeout(ctx, followHeartbeat)
		n, err := conn.WaitForNotification(wait)
		cancel()
		if n != nil {
			l.Changed(parseChange(n.Payload))
		}
		switch {
		case err == nil:
			continue
		case ctx.Err() != nil:
			return true, ctx.Err()
		case pgconn.Timeout(err):
			ping, cancel := context.WithTimeout(ctx, followPingTimeout)
			err = conn.Ping(ping)
			cancel()
			if err == nil {
				continue
			}
		}
		return true, err
	}
}

// parseChange reads a notification's "<kind> <tenant id>"; anything else
// is the zero Change, which makes the engine forget every tenant.
func parseChange(payload string) engine.Change {
	kind, tenant, ok := strings.Cut(payload, " ")
	if !ok || tenant == "" {
		return engine.Change{}
	}
	return engine.Change{Kind: engine.ChangeKind(kind), TenantID: tenant}
}
