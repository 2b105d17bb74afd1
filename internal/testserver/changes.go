package testserver

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/findings"
)

// SignalFeed is a change feed that tells when its first listener is up,
// so a test knows changes written afterwards reach the Service.
type SignalFeed struct {
	engine.ChangeFeed
	up   chan struct{}
	once sync.Once
}

// NewSignalFeed wraps f (PostgreSQL's feed in the suites).
func NewSignalFeed(f engine.ChangeFeed) *SignalFeed {
	return &SignalFeed{ChangeFeed: f, up: make(chan struct{})}
}

// Follow follows f, telling when l is up.
func (f *SignalFeed) Follow(ctx context.Context, l engine.ChangeListener) error {
	return f.ChangeFeed.Follow(ctx, signalListener{l, f})
}

type signalListener struct {
	engine.ChangeListener
	f *SignalFeed
}

func (l signalListener) Up() {
	l.ChangeListener.Up()
	l.f.once.Do(func() { close(l.f.up) })
}

// FollowChanges runs ops.FollowChanges (its Service's Config.Changes must
// be feed) until the test ends, and returns once the feed listens. The
// returned function stops following before the test ends.
func FollowChanges(t testing.TB, ops *findings.Operator, feed *SignalFeed) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = ops.FollowChanges(ctx)
	}()
	stop = func() {
		cancel()
		<-done
	}
	t.Cleanup(stop)
	select {
	case <-feed.up:
	case <-time.After(30 * time.Second):
		t.Fatal("the change feed did not listen within 30 s")
	}
	return sync.OnceFunc(stop)
}
