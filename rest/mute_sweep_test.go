package rest

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/findings"
)

// TestMuteSetSweep: after a rule's expiry, the sweep builds the set of the
// rules left before any read asks for it, and the sets superseded longer
// ago than the grace period are deleted (the one reads use stays, and
// reads agree with it). Tenant B's sets are not touched.
func TestMuteSetSweep(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{findingsA: 120, findingsB: 30})
	ctx := context.Background()
	latest, err := e.pg.LatestCompletedAudit(ctx, e.a.ID)
	if err != nil {
		t.Fatal(err)
	}
	builds := func(t *testing.T) []engine.MuteSetBuild {
		t.Helper()
		bs, err := e.pg.BuiltMuteSets(ctx, e.a.ID, []string{latest.ID})
		if err != nil {
			t.Fatal(err)
		}
		return bs
	}
	sweep := func(t *testing.T) findings.MuteSweep {
		t.Helper()
		n, err := e.stack.Upkeep.SweepMuteSets(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	create := func(expr string, expires time.Duration) {
		body := muteBody(expr)
		body["expires_at"] = e.svcNow().Add(expires).Format(time.RFC3339)
		decodeAs[engine.MuteRule](t, e.muteCall(t, http.MethodPost, "/v1/mute_rules", e.tokA, body), http.StatusCreated)
	}
	bodyB := muteBody(`finding.severity == "high"`)
	bodyB["expires_at"] = e.svcNow().Add(3 * time.Hour).Format(time.RFC3339)
	decodeAs[engine.MuteRule](t, e.muteCall(t, http.MethodPost, "/v1/mute_rules", e.tokB, bodyB), http.StatusCreated)
	create(`finding.severity == "high"`, time.Hour) // expires first
	create(`finding.severity == "medium"`, 48*time.Hour)
	countSev := func(sev engine.Severity) (n int64) {
		for _, f := range e.a.Findings {
			if f.Status == engine.StatusOpen && f.Severity == sev {
				n++
			}
		}
		return n
	}
	high, medium := countSev(engine.SeverityHigh), countSev(engine.SeverityMedium)
	if high == 0 || medium == 0 {
		t.Fatalf("%d high, %d medium open findings: not a useful case", high, medium)
	}
	if bs := builds(t); len(bs) != 2 {
		t.Fatalf("%d built sets after two rules, want 2 (one per rule set)", len(bs))
	}
	if n := sweep(t); n.Deleted != 0 {
		t.Fatalf("the sweep deleted %d sets superseded within the grace period", n.Deleted)
	}
	if bs := builds(t); len(bs) != 2 {
		t.Fatalf("%d built sets after a sweep within the grace period, want 2", len(bs))
	}

	// The first rule expires; no read comes before the sweep.
	e.clock.Advance(2 * time.Hour)
	n := sweep(t)
	if n.Settled == 0 || n.Deleted != 1 {
		t.Errorf("sweep after the expiry: %+v, want a snapshot settled and the first rule's set deleted", n)
	}
	bs := builds(t)
	if !slices.ContainsFunc(bs, func(b engine.MuteSetBuild) bool { return b.Muted == medium }) || len(bs) != 2 {
		t.Fatalf("after the sweep: %+v, want the two rules' set and a set of the medium rule's %d findings", bs, medium)
	}
	if got := statusTotal(t, e, "muted"); got != medium {
		t.Errorf("muted count %d, want %d", got, medium)
	}

	// The two rules' set, superseded at the expiry's sweep, goes once the
	// grace period is over; the current one stays.
	e.clock.Advance(20 * time.Minute)
	if n := sweep(t); n.Deleted != 1 {
		t.Errorf("sweep after the grace period deleted %d sets, want 1", n.Deleted)
	}
	bs = builds(t)
	if len(bs) != 1 || bs[0].Muted != medium {
		t.Fatalf("after the grace period: %+v, want only the medium rule's set", bs)
	}
	if got, list := statusTotal(t, e, "muted"), listAll(t, e, "status=muted"); got != medium || int64(len(list)) != medium {
		t.Errorf("muted count %d, list %d, want %d", got, len(list), medium)
	}
	if n := sweep(t); n.Deleted != 0 {
		t.Errorf("a sweep with nothing superseded deleted %d", n.Deleted)
	}
	// Tenant B's rule expires: its set is superseded (no rule left), kept
	// for the grace period, then deleted.
	latestB, err := e.pg.LatestCompletedAudit(ctx, e.b.ID)
	if err != nil {
		t.Fatal(err)
	}
	if bsB, err := e.pg.BuiltMuteSets(ctx, e.b.ID, []string{latestB.ID}); err != nil || len(bsB) != 1 {
		t.Fatalf("tenant B's sets: %+v, %v; want its rule's one", bsB, err)
	}
	e.clock.Advance(time.Hour)
	if n := sweep(t); n.Settled == 0 || n.Deleted != 0 {
		t.Errorf("sweep after B's expiry: %+v, want a snapshot settled and none deleted", n)
	}
	if bsB, err := e.pg.BuiltMuteSets(ctx, e.b.ID, []string{latestB.ID}); err != nil || len(bsB) != 1 {
		t.Fatalf("tenant B's sets within the grace period: %+v, %v; want its rule's one", bsB, err)
	}
	if got := getJSON[engine.FindingSummary](t, e, "/v1/findings/summary?status=muted", e.tokB).Total; got != 0 {
		t.Errorf("B's muted count after its rule's expiry = %d", got)
	}
	e.clock.Advance(20 * time.Minute)
	if n := sweep(t); n.Deleted != 1 {
		t.Errorf("sweep after B's grace period deleted %d sets, want 1", n.Deleted)
	}
	if bsB, err := e.pg.BuiltMuteSets(ctx, e.b.ID, []string{latestB.ID}); err != nil || len(bsB) != 0 {
		t.Errorf("tenant B's sets after the sweeps: %+v, %v; want none", bsB, err)
	}
}
