package rest

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/findings"
	"github.com/fourd-dev/fourd/engine/identity"
	"github.com/fourd-dev/fourd/internal/testserver"
)

// replica is another fourd server over an env's stores whose Service
// follows PostgreSQL's change feed, as each `fourd serve` replica does.
type replica struct {
	url  string
	svc  *findings.Service
	stop func() // stops following the feed
}

// newReplica starts a replica; tokenCacheTTL 0 is the identity service's
// default token cache.
func newReplica(t *testing.T, e *env, tokenCacheTTL time.Duration) *replica {
	t.Helper()
	s := e.stack.NewServices(t, testserver.Replica{TokenCacheTTL: tokenCacheTTL, FollowChanges: true})
	url := serve(t, Config{Service: s.Engine, Reports: s.Reporting, Compliance: s.Posture, Dashboard: s.Dashboard, Policies: s.Policies, Exports: s.Exports, Triage: s.Triage, Idempotency: s.Idempotency, Mutes: s.Mutes, Audits: s.Audits, Identity: s.Identity, Ingest: s.Ingest, Logger: e.stack.Logger}, nil)
	return &replica{url: url, svc: s.Engine, stop: s.StopFollowing}
}

// findingStatus returns the status of finding id in r's first page of
// limit findings (matching query), "" when absent.
func (e *env) findingStatus(t *testing.T, base, query, id string) engine.FindingStatus {
	t.Helper()
	r := do(t, e.client, http.MethodGet, base+"/v1/findings?"+query, e.tokA, nil, nil)
	if r.status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", query, r.status, r.body)
	}
	var page listBody[engine.Finding]
	if err := json.Unmarshal(r.body, &page); err != nil {
		t.Fatal(err)
	}
	for _, f := range page.Data {
		if f.ID == id {
			return f.Status
		}
	}
	return ""
}

// waitStatus polls until the finding shows want on base, and returns how
// long that took; it fails after 5 s (the replicas' caches would trust
// themselves for a minute without the notification).
func (e *env) waitStatus(t *testing.T, base, id string, want engine.FindingStatus) time.Duration {
	t.Helper()
	start := time.Now()
	for time.Since(start) < 5*time.Second {
		if e.findingStatus(t, base, "limit=50", id) == want {
			return time.Since(start)
		}
		time.Sleep(2 * time.Millisecond)
	}
	t.Fatalf("%s: finding %s not %s after 5 s", base, id, want)
	return 0
}

// PATCH /v1/findings/{id} shows at once in the reads of the replica that
// served it, within a notification's delivery on another replica sharing
// the PostgreSQL database, and at once again on a replica whose feed is
// down (it reads past its caches).
func TestFindingDecisionsAcrossReplicas(t *testing.T) {
	e := newEnv(t, envOptions{findingsA: 40, findingsB: 5})
	one, two := newReplica(t, e, 0), newReplica(t, e, 0)
	var target string
	for _, f := range e.a.Findings {
		if f.Status == engine.StatusOpen && e.findingStatus(t, one.url, "limit=50", f.ID) == engine.StatusOpen {
			target = f.ID
			break
		}
	}
	if target == "" {
		t.Fatal("no open finding on the first page")
	}
	openCount := func(base string) int {
		return len(getJSONAt[listBody[engine.Finding]](t, e, base, "/v1/findings?status=open&limit=200").Data)
	}
	// Both replicas have the page and the open list cached.
	for range 2 {
		for _, r := range []*replica{one, two} {
			e.findingStatus(t, r.url, "limit=50", target)
		}
	}
	opens := openCount(one.url)
	if openCount(two.url) != opens {
		t.Fatal("the replicas disagree before any write")
	}
	patch := func(base, body string) {
		t.Helper()
		r := do(t, e.client, http.MethodPatch, base+"/v1/findings/"+target, e.tokA, []byte(body), jsonHeader("application/json"))
		if r.status != http.StatusOK {
			t.Fatalf("PATCH: %d %s", r.status, r.body)
		}
	}

	patch(one.url, `{"status":"resolved","resolution":"accepted_risk","note":"known"}`)
	if got := e.findingStatus(t, one.url, "limit=50", target); got != engine.StatusResolved {
		t.Errorf("the writing replica right after the PATCH: %q", got)
	}
	if got := openCount(one.url); got != opens-1 {
		t.Errorf("open findings on the writing replica: %d, want %d", got, opens-1)
	}
	t.Logf("another replica saw the accepted risk after %v", e.waitStatus(t, two.url, target, engine.StatusResolved))
	if got := openCount(two.url); got != opens-1 {
		t.Errorf("open findings on the other replica: %d, want %d", got, opens-1)
	}

	patch(two.url, `{"status":"open"}`)
	if got := e.findingStatus(t, two.url, "limit=50", target); got != engine.StatusOpen {
		t.Errorf("the writing replica right after reopening: %q", got)
	}
	t.Logf("another replica saw the reopening after %v", e.waitStatus(t, one.url, target, engine.StatusOpen))

	// A replica that stopped following the feed no longer trusts its
	// caches: a write elsewhere shows in its very next read.
	two.stop()
	patch(one.url, `{"status":"resolved","resolution":"accepted_risk"}`)
	if got := e.findingStatus(t, two.url, "limit=50", target); got != engine.StatusResolved {
		t.Errorf("a replica without its feed right after a write elsewhere: %q", got)
	}
	if got := openCount(two.url); got != opens-1 {
		t.Errorf("open findings on a replica without its feed: %d, want %d", got, opens-1)
	}
}

// getJSONAt is getJSON against another server than e's.
func getJSONAt[T any](t testing.TB, e *env, base, path string) T {
	t.Helper()
	r := do(t, e.client, http.MethodGet, base+path, e.tokA, nil, nil)
	var v T
	if r.status != http.StatusOK {
		t.Fatalf("GET %s: status %d: %s", path, r.status, r.body)
	}
	if err := json.Unmarshal(r.body, &v); err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	return v
}

// Revoking a token through one replica stops it on another at the
// notification, not when the other's token cache expires (a minute here).
func TestTokenRevocationAcrossReplicas(t *testing.T) {
	e := newEnv(t, envOptions{findingsA: 4, findingsB: 4})
	one, two := newReplica(t, e, identity.MaxTokenCacheTTL), newReplica(t, e, identity.MaxTokenCacheTTL)
	it, err := e.ops.IssueToken(context.Background(), identity.IssueTokenInput{TenantSlug: "acme", Email: "admin@acme.test", Name: "short-lived"})
	if err != nil {
		t.Fatal(err)
	}
	status := func(base string) int {
		return do(t, e.client, http.MethodGet, base+"/v1/audits?limit=1", it.Secret, nil, nil).status
	}
	for _, r := range []*replica{one, two} {
		if s := status(r.url); s != http.StatusOK {
			t.Fatalf("before revoking: %d", s)
		}
	}
	if r := do(t, e.client, http.MethodDelete, one.url+"/v1/tokens/"+it.Token.ID, e.tokA, nil, nil); r.status != http.StatusNoContent {
		t.Fatalf("DELETE token: %d %s", r.status, r.body)
	}
	if s := status(one.url); s != http.StatusUnauthorized {
		t.Errorf("the revoking replica right after: %d, want 401", s)
	}
	start := time.Now()
	for status(two.url) != http.StatusUnauthorized {
		if time.Since(start) > 2*time.Second {
			t.Fatalf("another replica still accepts the revoked token after %v", time.Since(start))
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Logf("another replica refused the revoked token after %v", time.Since(start))
}
