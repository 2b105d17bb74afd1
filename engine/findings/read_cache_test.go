package findings

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/internal/enginetest"
	"github.com/fourd-dev/fourd/engine/triage"
	"github.com/google/go-cmp/cmp"
)

// fakeFeed is a ChangeFeed the test drives: Follow hands over its listener
// and waits for the context to end.
type fakeFeed struct{ listener chan engine.ChangeListener }

func (f *fakeFeed) Follow(ctx context.Context, l engine.ChangeListener) error {
	f.listener <- l
	<-ctx.Done()
	return ctx.Err()
}

// fakeOverrides is an OverrideStore that counts its reads; during, when
// set, runs in the middle of the next read (after the rows were read).
type fakeOverrides struct {
	rows   map[string]engine.FindingOverride
	lists  int
	during func()
}

func (f *fakeOverrides) PutOverride(_ context.Context, o engine.FindingOverride) error {
	f.rows[o.TenantID+"/"+o.FindingID] = o
	return nil
}

func (f *fakeOverrides) ChangeOverride(ctx context.Context, o engine.FindingOverride, _ []engine.FindingActivity) error {
	return f.PutOverride(ctx, o)
}

func (f *fakeOverrides) ListFindingActivity(context.Context, string, string, int) ([]engine.FindingActivity, error) {
	return nil, nil
}

func (f *fakeOverrides) ListOverrides(_ context.Context, tenantID string, now time.Time) ([]engine.FindingOverride, error) {
	f.lists++
	var out []engine.FindingOverride
	for _, o := range f.rows {
		if o.TenantID == tenantID && (o.ExpiresAt == nil || o.ExpiresAt.After(now)) {
			out = append(out, o)
		}
	}
	if d := f.during; d != nil {
		f.during = nil
		d()
	}
	return out, nil
}

// countingAudits counts LatestCompletedAudit calls.
type countingAudits struct {
	*enginetest.Control
	latest int
}

func (c *countingAudits) LatestCompletedAudit(ctx context.Context, tenant string) (engine.Audit, error) {
	c.latest++
	return c.Control.LatestCompletedAudit(ctx, tenant)
}

// cachedEnv is a test env whose Service has overrides and a change feed;
// the returned listener is the Service's (call Up, Changed, Down on it).
func cachedEnv(t *testing.T) (*testEnv, *fakeOverrides, *countingAudits, engine.ChangeListener) {
	t.Helper()
	env := newTestEnv(t)
	ov := &fakeOverrides{rows: map[string]engine.FindingOverride{}}
	audits := &countingAudits{Control: env.control}
	feed := &fakeFeed{listener: make(chan engine.ChangeListener, 1)}
	env.svc.cfg.Overrides, env.svc.cfg.Audits, env.svc.cfg.Changes = ov, audits, feed
	env.svc.log = slog.New(slog.DiscardHandler)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- env.ops.FollowChanges(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != context.Canceled {
			t.Errorf("FollowChanges: %v; want context.Canceled", err)
		}
	})
	return env, ov, audits, <-feed.listener
}

var findingsWriter = engine.Principal{TenantID: "ten_a", UserID: "usr_a", Scopes: []engine.Scope{engine.ScopeFindingsRead, engine.ScopeFindingsWrite}}

func mustList(t *testing.T, env *testEnv, p engine.Principal, pr engine.PageRequest) engine.Page[engine.Finding] {
	t.Helper()
	page, err := env.svc.ListFindings(context.Background(), p, engine.FindingFilter{}, pr)
	if err != nil {
		t.Fatal(err)
	}
	return page
}

func statusOf(page engine.Page[engine.Finding], id string) engine.FindingStatus {
	for _, f := range page.Items {
		if f.ID == id {
			return f.Status
		}
	}
	return ""
}

func TestReadCacheTrustedOnlyWhileTheFeedListens(t *testing.T) {
	env, ov, audits, feed := cachedEnv(t)
	env.completedAudit(t, "ten_a", 20)
	env.completedAudit(t, "ten_b", 20)
	reads := func() (int, int) { return audits.latest, ov.lists }
	want := func(what string, latest, lists int) {
		t.Helper()
		if l, o := reads(); l != latest || o != lists {
			t.Fatalf("%s: %d latest-audit and %d override reads from the store; want %d and %d", what, l, o, latest, lists)
		}
	}
	// Before the feed listens, every read asks the store.
	mustList(t, env, reader, engine.PageRequest{Limit: 5})
	mustList(t, env, reader, engine.PageRequest{Limit: 5})
	want("before Up", 2, 2)
	if page := mustList(t, env, reader, engine.PageRequest{Limit: 5}); page.Key != "" {
		t.Errorf("a page read past the cache has Key %q; want none", page.Key)
	}
	want("before Up", 3, 3)

	feed.Up()
	for range 3 {
		mustList(t, env, reader, engine.PageRequest{Limit: 5})
	}
	want("listening", 4, 4)
	// Another tenant's change leaves ten_a cached; its own does not.
	feed.Changed(engine.Change{Kind: engine.ChangeOverrides, TenantID: "ten_b"})
	mustList(t, env, reader, engine.PageRequest{Limit: 5})
	want("after ten_b's change", 4, 4)
	feed.Changed(engine.Change{Kind: engine.ChangeOverrides, TenantID: "ten_a"})
	mustList(t, env, reader, engine.PageRequest{Limit: 5})
	mustList(t, env, reader, engine.PageRequest{Limit: 5})
	want("after ten_a's change", 5, 5)
	// A change the feed cannot name forgets everything.
	feed.Changed(engine.Change{})
	mustList(t, env, reader, engine.PageRequest{Limit: 5})
	want("after an unnamed change", 6, 6)

	// Down: bypassed until Up again, and nothing kept from before.
	feed.Down(context.DeadlineExceeded)
	mustList(t, env, reader, engine.PageRequest{Limit: 5})
	mustList(t, env, reader, engine.PageRequest{Limit: 5})
	want("down", 8, 8)
	feed.Up()
	mustList(t, env, reader, engine.PageRequest{Limit: 5})
	mustList(t, env, reader, engine.PageRequest{Limit: 5})
	want("up again", 9, 9)

	// Entries are trusted for readCacheMaxAge at most.
	env.now = env.now.Add(readCacheMaxAge)
	mustList(t, env, reader, engine.PageRequest{Limit: 5})
	want("after the maximum age", 10, 10)
}

// A decision made through a Service shows in its next read at once, with
// no notification; another Service (replica) sees it when its feed reports
// the change.
func TestUpdateFindingVisibleAtOnce(t *testing.T) {
	env, ov, _, feed := cachedEnv(t)
	env.completedAudit(t, "ten_a", 20)
	feed.Up()
	ctx := context.Background()
	before := mustList(t, env, findingsWriter, engine.PageRequest{Limit: 5})
	target := before.Items[0].ID
	if again := mustList(t, env, findingsWriter, engine.PageRequest{Limit: 5}); again.Key == "" || again.Key != before.Key {
		t.Fatalf("the same page twice: Keys %q and %q; want one non-empty Key", before.Key, again.Key)
	}
	// Decisions are made through engine/triage over this Service's read path.
	tri, err := triage.New(triage.Config{Reads: env.svc.TriageReads(), Decisions: ov, Secret: env.svc.cfg.Secret, Now: env.svc.cfg.Now})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tri.UpdateFinding(ctx, findingsWriter, target, engine.FindingUpdate{Status: engine.StatusResolved, Resolution: engine.ResolutionAcceptedRisk}); err != nil {
		t.Fatal(err)
	}
	after := mustList(t, env, findingsWriter, engine.PageRequest{Limit: 5})
	if statusOf(after, target) != engine.StatusResolved || after.Key == before.Key {
		t.Fatalf("after accepting the risk: status %q, Key changed %v", statusOf(after, target), after.Key != before.Key)
	}
	if f, err := env.svc.GetFinding(ctx, findingsWriter, target); err != nil || f.Resolution != engine.ResolutionAcceptedRisk {
		t.Errorf("GetFinding after accepting the risk: %+v, %v", f, err)
	}

	// A replica: another Service over the same stores, with its own feed.
	replica, replicaOps, err := New(env.svc.cfg)
	if err != nil {
		t.Fatal(err)
	}
	feed2 := &fakeFeed{listener: make(chan engine.ChangeListener, 1)}
	replica.cfg.Changes, replica.log = feed2, env.svc.log
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() { _ = replicaOps.FollowChanges(rctx) }()
	l2 := <-feed2.listener
	l2.Up()
	if got := statusOf(mustList(t, &testEnv{svc: replica}, findingsWriter, engine.PageRequest{Limit: 5}), target); got != engine.StatusResolved {
		t.Fatalf("replica: status %q", got)
	}
	// Reopened through the first Service: the replica keeps its cached
	// decisions until its feed reports the change (the documented window).
	if _, err := tri.UpdateFinding(ctx, findingsWriter, target, engine.FindingUpdate{Status: engine.StatusOpen}); err != nil {
		t.Fatal(err)
	}
	if got := statusOf(mustList(t, env, findingsWriter, engine.PageRequest{Limit: 5}), target); got != engine.StatusOpen {
		t.Errorf("the writing Service after reopening: %q", got)
	}
	if got := statusOf(mustList(t, &testEnv{svc: replica}, findingsWriter, engine.PageRequest{Limit: 5}), target); got != engine.StatusResolved {
		t.Errorf("the replica before the notification: %q; want its cached resolved", got)
	}
	l2.Changed(engine.Change{Kind: engine.ChangeOverrides, TenantID: "ten_a"})
	if got := statusOf(mustList(t, &testEnv{svc: replica}, findingsWriter, engine.PageRequest{Limit: 5}), target); got != engine.StatusOpen {
		t.Errorf("the replica after the notification: %q", got)
	}
	if ov.lists == 0 {
		t.Error("no override was read from the store")
	}
}

// A read that loaded the decisions while a write committed must not park
// what it read in the cache.
func TestReadCacheLoadRacingAWrite(t *testing.T) {
	env, ov, _, feed := cachedEnv(t)
	env.completedAudit(t, "ten_a", 20)
	feed.Up()
	target := mustList(t, env, reader, engine.PageRequest{Limit: 5}).Items[0].ID
	feed.Changed(engine.Change{Kind: engine.ChangeOverrides, TenantID: "ten_a"}) // the next read loads again
	ov.during = func() {
		// A write commits after the rows were read, and is announced.
		ov.rows["ten_a/"+target] = engine.FindingOverride{TenantID: "ten_a", FindingID: target, Resolution: engine.ResolutionAcceptedRisk, CreatedAt: env.now}
		feed.Changed(engine.Change{Kind: engine.ChangeOverrides, TenantID: "ten_a"})
	}
	if got := statusOf(mustList(t, env, reader, engine.PageRequest{Limit: 5}), target); got != engine.StatusOpen {
		t.Fatalf("the racing read: %q; want what it read (open)", got)
	}
	lists := ov.lists
	if got := statusOf(mustList(t, env, reader, engine.PageRequest{Limit: 5}), target); got != engine.StatusResolved || ov.lists != lists+1 {
		t.Errorf("the next read: %q after %d more store reads; want resolved after 1", got, ov.lists-lists)
	}
}

// An accepted risk that expires changes the reads by itself, without a
// write or a notification.
func TestReadCacheOverrideExpiry(t *testing.T) {
	env, ov, _, feed := cachedEnv(t)
	env.completedAudit(t, "ten_a", 20)
	feed.Up()
	target := mustList(t, env, reader, engine.PageRequest{Limit: 5}).Items[0].ID
	expires := env.now.Add(time.Hour)
	ov.rows["ten_a/"+target] = engine.FindingOverride{TenantID: "ten_a", FindingID: target, Resolution: engine.ResolutionAcceptedRisk,
		CreatedAt: env.now, ExpiresAt: &expires}
	feed.Changed(engine.Change{Kind: engine.ChangeOverrides, TenantID: "ten_a"})
	if got := statusOf(mustList(t, env, reader, engine.PageRequest{Limit: 5}), target); got != engine.StatusResolved {
		t.Fatalf("before the expiry: %q", got)
	}
	env.now = expires.Add(-time.Second)
	mustList(t, env, reader, engine.PageRequest{Limit: 5})
	env.now = expires
	if got := statusOf(mustList(t, env, reader, engine.PageRequest{Limit: 5}), target); got != engine.StatusOpen {
		t.Errorf("at the expiry: %q; want open", got)
	}
}

// The latest completed audit is cached until the feed (or a completion
// through this Service) says it changed.
func TestReadCacheLatestAudit(t *testing.T) {
	env, _, _, feed := cachedEnv(t)
	env.completedAudit(t, "ten_a", 20)
	feed.Up()
	if n := len(mustList(t, env, reader, engine.PageRequest{Limit: 200}).Items); n != 20 {
		t.Fatalf("%d findings", n)
	}
	env.completedAudit(t, "ten_a", 7)   // committed elsewhere; not yet announced
	env.now = env.now.Add(-time.Minute) // completedAudit moved the clock; stay within readCacheMaxAge
	if n := len(mustList(t, env, reader, engine.PageRequest{Limit: 200}).Items); n != 20 {
		t.Errorf("before the announcement: %d findings; want the cached snapshot's 20", n)
	}
	feed.Changed(engine.Change{Kind: engine.ChangeAudits, TenantID: "ten_a"})
	if n := len(mustList(t, env, reader, engine.PageRequest{Limit: 200}).Items); n != 7 {
		t.Errorf("after the announcement: %d findings; want the new snapshot's 7", n)
	}
	// A tenant without a completed audit is cached as such too.
	other := engine.Principal{TenantID: "ten_none", Scopes: reader.Scopes}
	if page := mustList(t, env, other, engine.PageRequest{}); len(page.Items) != 0 {
		t.Errorf("a tenant without audits: %d findings", len(page.Items))
	}
}

// Finished pages are reused with their cursor for pageReuse, keyed by
// tenant: two tenants asking the same never share a page.
func TestFinishedPages(t *testing.T) {
	env, _, _, feed := cachedEnv(t)
	env.completedAudit(t, "ten_a", 20)
	env.completedAudit(t, "ten_b", 20)
	feed.Up()
	first := mustList(t, env, reader, engine.PageRequest{Limit: 5})
	again := mustList(t, env, reader, engine.PageRequest{Limit: 5})
	if first.Key != again.Key || first.NextCursor != again.NextCursor {
		t.Fatalf("reused page: Keys %q / %q, cursors equal %v", first.Key, again.Key, first.NextCursor == again.NextCursor)
	}
	theirs := mustList(t, env, engine.Principal{TenantID: "ten_b", Scopes: reader.Scopes}, engine.PageRequest{Limit: 5})
	if theirs.Key == first.Key || theirs.Items[0].TenantID != "ten_b" {
		t.Fatalf("ten_b's page: Key %q (ten_a's %q), first finding of %q", theirs.Key, first.Key, theirs.Items[0].TenantID)
	}
	if _, err := env.svc.ListFindings(context.Background(), engine.Principal{TenantID: "ten_b", Scopes: reader.Scopes},
		engine.FindingFilter{}, engine.PageRequest{Limit: 5, Cursor: first.NextCursor}); engine.ErrorCode(err) != engine.CodeInvalidCursor {
		t.Errorf("ten_a's cursor used by ten_b: %v", err)
	}
	// Past the reuse window, the page is finished again: a new Key and a
	// fresh cursor, and the reused one is still valid for most of its life.
	env.now = env.now.Add(env.svc.pageReuse())
	later := mustList(t, env, reader, engine.PageRequest{Limit: 5})
	if later.Key == first.Key {
		t.Error("a page past its reuse window kept its Key")
	}
	env.now = env.now.Add(env.svc.cfg.CursorTTL - 2*env.svc.pageReuse())
	if _, err := env.svc.ListFindings(context.Background(), reader, engine.FindingFilter{}, engine.PageRequest{Limit: 5, Cursor: first.NextCursor}); err != nil {
		t.Errorf("the reused cursor near the end of its life: %v", err)
	}
	// Callers may change what they got, not what the cache holds.
	again.Items[0].Title = "changed"
	if got := mustList(t, env, reader, engine.PageRequest{Limit: 5}); got.Items[0].Title == "changed" {
		t.Error("a caller's change reached the cached page")
	}
}

// A page asked for with the latest audit's id and the same page asked for
// without one carry cursors bound to each request's filters.
func TestFinishedPagesKeepTheirCursorScope(t *testing.T) {
	env, _, _, feed := cachedEnv(t)
	latest := env.completedAudit(t, "ten_a", 20)
	feed.Up()
	ctx := context.Background()
	for _, f := range []engine.FindingFilter{{}, {AuditID: latest}, {}} {
		page, err := env.svc.ListFindings(ctx, reader, f, engine.PageRequest{Limit: 5})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := env.svc.ListFindings(ctx, reader, f, engine.PageRequest{Limit: 5, Cursor: page.NextCursor}); err != nil {
			t.Errorf("filter %+v: its own next cursor: %v", f, err)
		}
	}
}

// recordingListener records what the feed tells it.
type recordingListener struct {
	ups, downs int
	changes    []engine.Change
}

func (r *recordingListener) Up() { r.ups++ }

func (r *recordingListener) Down(error) { r.downs++ }

func (r *recordingListener) Changed(c engine.Change) { r.changes = append(r.changes, c) }

// TestChangeListenersHearTheFeed: Config.ChangeListeners (the identity
// service, which caches token lookups) hear every report of the Service's
// feed, token changes included.
func TestChangeListenersHearTheFeed(t *testing.T) {
	rec := &recordingListener{}
	env := newTestEnv(t)
	env.svc.cfg.ChangeListeners = []engine.ChangeListener{rec}
	feed := &fakeFeed{listener: make(chan engine.ChangeListener, 1)}
	env.svc.cfg.Changes = feed
	env.svc.log = slog.New(slog.DiscardHandler)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- env.ops.FollowChanges(ctx) }()
	l := <-feed.listener
	l.Up()
	changes := []engine.Change{{Kind: engine.ChangeTokens, TenantID: "ten_a"}, {Kind: engine.ChangeOverrides, TenantID: "ten_a"}, {}}
	for _, c := range changes {
		l.Changed(c)
	}
	l.Down(context.DeadlineExceeded)
	cancel()
	<-done
	if diff := cmp.Diff(&recordingListener{ups: 1, downs: 1, changes: changes}, rec, cmp.AllowUnexported(recordingListener{})); diff != "" {
		t.Errorf("what the listener heard (-want +got):\n%s", diff)
	}
}
