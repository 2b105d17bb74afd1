package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/postgres"
)

// feedRecorder is a ChangeListener that hands what it hears to the test.
type feedRecorder struct {
	events chan any // engine.Change, "up" or "down"
}

func (r *feedRecorder) Up()                     { r.events <- "up" }
func (r *feedRecorder) Down(error)              { r.events <- "down" }
func (r *feedRecorder) Changed(c engine.Change) { r.events <- c }

func (r *feedRecorder) next(t *testing.T) any {
	t.Helper()
	select {
	case e := <-r.events:
		return e
	case <-time.After(10 * time.Second):
		t.Fatal("the change feed reported nothing for 10 s")
		return nil
	}
}

func (r *feedRecorder) want(t *testing.T, what string, want any) {
	t.Helper()
	if got := r.next(t); got != want {
		t.Fatalf("%s: the feed reported %v; want %v", what, got, want)
	}
}

// follow runs s.Follow for the test and returns what it hears.
func follow(t *testing.T, s *postgres.Store) *feedRecorder {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r := &feedRecorder{events: make(chan any, 64)}
	done := make(chan error, 1)
	go func() { done <- s.Follow(ctx, r) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != context.Canceled {
			t.Errorf("Follow returned %v after its context ended; want context.Canceled", err)
		}
	})
	r.want(t, "start", "up")
	return r
}

func TestChangeFeed(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	a := mustTenant(t, s, "acme")
	b := mustTenant(t, s, "globex")
	feed := follow(t, s)

	// A running audit's progress notifies nobody: the next notification
	// (they arrive in commit order) is the completion.
	aud := engine.Audit{ID: newID(engine.PrefixAudit, 1), TenantID: a.ID, Status: engine.AuditRunning, CreatedAt: t0, StartedAt: at(0)}
	wantCode(t, "create", s.CreateAudit(ctx, aud), "")
	aud.Progress.ResourcesScanned = 10
	wantCode(t, "progress", s.UpdateAudit(ctx, aud), "")
	aud.Status, aud.CompletedAt = engine.AuditCompleted, at(time.Minute)
	wantCode(t, "complete", s.UpdateAudit(ctx, aud), "")
	feed.want(t, "completing an audit", engine.Change{Kind: engine.ChangeAudits, TenantID: a.ID})

	// An audit created completed (imports, tests) notifies too; a queued one does not.
	queued := engine.Audit{ID: newID(engine.PrefixAudit, 2), TenantID: b.ID, Status: engine.AuditQueued, CreatedAt: t0}
	wantCode(t, "queue", s.CreateAudit(ctx, queued), "")
	done := engine.Audit{ID: newID(engine.PrefixAudit, 3), TenantID: b.ID, Status: engine.AuditCompleted,
		CreatedAt: t0, StartedAt: at(0), CompletedAt: at(time.Second)}
	wantCode(t, "create completed", s.CreateAudit(ctx, done), "")
	feed.want(t, "creating a completed audit", engine.Change{Kind: engine.ChangeAudits, TenantID: b.ID})

	// Every override write notifies its tenant.
	o := engine.FindingOverride{TenantID: b.ID, FindingID: engine.FindingID(b.ID, "r1", "res_x"),
		Resolution: engine.ResolutionAcceptedRisk, CreatedAt: t0}
	wantCode(t, "put", s.PutOverride(ctx, o), "")
	feed.want(t, "accepting a risk", engine.Change{Kind: engine.ChangeOverrides, TenantID: b.ID})
	o.Resolution = engine.ResolutionNone
	wantCode(t, "reopen", s.PutOverride(ctx, o), "")
	feed.want(t, "reopening", engine.Change{Kind: engine.ChangeOverrides, TenantID: b.ID})

	// A lost connection is reported before the feed listens again.
	n, err := postgres.TerminateChangeFeedForTest(ctx, s)
	if err != nil || n != 1 {
		t.Fatalf("terminating the feed's connection: %d, %v", n, err)
	}
	feed.want(t, "connection terminated", "down")
	feed.want(t, "reconnected", "up")
	wantCode(t, "put after reconnecting", s.PutOverride(ctx, o), "")
	feed.want(t, "a write after reconnecting", engine.Change{Kind: engine.ChangeOverrides, TenantID: b.ID})
}
