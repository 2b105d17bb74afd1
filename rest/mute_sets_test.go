package rest

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// muteCase is a rule of TestMuteSetsFollowTheRules: its expression and the
// same predicate in Go.
type muteCase struct {
	expr  string
	match func(engine.Finding) bool
}

// muteCases are 20 overlapping rules over tenant A's seed, of both kinds:
// applied in ClickHouse (rule, severity, dimension, resource id) and
// streamed through CEL (title, tags).
func muteCases(fs []engine.Finding) []muteCase {
	var out []muteCase
	for i := range 20 {
		a, b := fs[(3*i)%len(fs)], fs[(5*i+1)%len(fs)]
		switch i % 4 {
		case 0:
			out = append(out, muteCase{fmt.Sprintf(`finding.title in [%q, %q]`, a.Title, b.Title),
				func(f engine.Finding) bool { return f.Title == a.Title || f.Title == b.Title }})
		case 1:
			sev, dim := engine.Severities[i%5], engine.Dimensions[(i/4)%4]
			out = append(out, muteCase{fmt.Sprintf(`finding.severity == %q && finding.dimension == %q`, sev, dim),
				func(f engine.Finding) bool { return f.Severity == sev && f.Dimension == dim }})
		case 2:
			out = append(out, muteCase{fmt.Sprintf(`finding.rule_id == %q || resource.id == %q`, a.RuleID, b.ResourceID),
				func(f engine.Finding) bool { return f.RuleID == a.RuleID || f.ResourceID == b.ResourceID }})
		default:
			out = append(out, muteCase{fmt.Sprintf(`resource.tags["env"] == "prod" && finding.title == %q`, a.Title),
				func(f engine.Finding) bool { return f.Title == a.Title }})
		}
	}
	return out
}

// TestMuteSetsFollowTheRules: with 20 active rules, every change of the
// rules (creations, an edit, a disable, a delete, an expiry) and an audit
// leave counts equal to list lengths and to the findings the rules match,
// each muted finding shown with the oldest rule that matches it; and the
// snapshot's mute set (the active rules' muted findings, materialised) is
// built by the time a write or an audit answers, or, after an expiry that
// no write announces, soon after the first read. Tenant B sees none of it.
func TestMuteSetsFollowTheRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{findingsA: 150, findingsB: 30})
	ctx := context.Background()
	openBefore := statusTotal(t, e, "open")
	cases := muteCases(e.a.Findings)
	ids := make([]string, len(cases))
	active := make([]bool, len(cases))
	// wantMuted are the open seed findings the active rules match, each with
	// the oldest active rule that matches it.
	wantMuted := func() map[string]string {
		out := map[string]string{}
		for _, f := range e.a.Findings {
			for i, c := range cases {
				if active[i] && f.Status == engine.StatusOpen && c.match(f) {
					out[f.ID] = ids[i]
					break
				}
			}
		}
		return out
	}
	latest := func(t *testing.T) string {
		t.Helper()
		a, err := e.pg.LatestCompletedAudit(ctx, e.a.ID)
		if err != nil {
			t.Fatal(err)
		}
		return a.ID
	}
	// built is the muted count of a built set of the snapshot, if any has
	// want findings.
	built := func(t *testing.T, auditID string, want int64) bool {
		t.Helper()
		bs, err := e.pg.BuiltMuteSets(ctx, e.a.ID, []string{auditID})
		if err != nil {
			t.Fatal(err)
		}
		return slices.ContainsFunc(bs, func(b engine.MuteSetBuild) bool { return b.Muted == want })
	}
	// consistent checks counts against lists and returns the muted count.
	consistent := func(t *testing.T, total int64) int64 {
		t.Helper()
		open, muted := statusTotal(t, e, "open"), statusTotal(t, e, "muted")
		if open+muted != total {
			t.Errorf("open %d + muted %d != %d", open, muted, total)
		}
		if n := int64(len(listAll(t, e, "status=open"))); n != open {
			t.Errorf("status=open lists %d, counts %d", n, open)
		}
		ms := listAll(t, e, "status=muted")
		if int64(len(ms)) != muted {
			t.Errorf("status=muted lists %d, counts %d", len(ms), muted)
		}
		sum := getJSON[engine.FindingSummary](t, e, "/v1/findings/summary?group_by=status,severity", e.tokA)
		var grouped int64
		for _, g := range sum.Groups {
			if g.Key[engine.GroupByStatus] == string(engine.StatusMuted) {
				grouped += g.Count
			}
		}
		if grouped != muted {
			t.Errorf("summary by status: %d muted, the count %d", grouped, muted)
		}
		if got := getJSON[engine.FindingSummary](t, e, "/v1/findings/summary?status=muted", e.tokB).Total; got != 0 {
			t.Errorf("B's muted count = %d", got)
		}
		return muted
	}
	// check compares the reads with the rules' predicates and requires
	// the latest snapshot's set built (at once unless lazily).
	check := func(t *testing.T, lazily bool) {
		t.Helper()
		want := wantMuted()
		if n := consistent(t, openBefore); n != int64(len(want)) {
			t.Errorf("muted count %d, the rules match %d", n, len(want))
		}
		for _, f := range listAll(t, e, "status=muted") {
			if rule, ok := want[f.ID]; !ok || f.MuteRuleID != rule || f.Status != engine.StatusMuted {
				t.Errorf("status=muted lists %s muted by %q (%s), want %q", f.ID, f.MuteRuleID, f.Status, rule)
			}
		}
		deadline := time.Now().Add(20 * time.Second)
		for !built(t, latest(t), int64(len(want))) {
			if !lazily || time.Now().After(deadline) {
				t.Fatalf("no built mute set of %d findings for the latest snapshot", len(want))
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	for i, c := range cases {
		body := muteBody(c.expr)
		body["expires_at"] = e.svcNow().Add(time.Duration(24+i) * time.Hour).Format(time.RFC3339)
		if i == 2 {
			body["expires_at"] = e.svcNow().Add(time.Hour).Format(time.RFC3339) // expires first
		}
		r := decodeAs[engine.MuteRule](t, e.muteCall(t, http.MethodPost, "/v1/mute_rules", e.tokA, body), http.StatusCreated)
		ids[i], active[i] = r.ID, true
		if i == 0 || i == 9 || i == len(cases)-1 {
			t.Run(fmt.Sprintf("%d rules", i+1), func(t *testing.T) { check(t, false) })
		}
	}
	if n := len(wantMuted()); n == 0 || int64(n) > openBefore*9/10 {
		t.Fatalf("the 20 rules mute %d of %d open findings: not a useful case", n, openBefore)
	}
	cases[5] = muteCase{`finding.severity == "nope"`, func(engine.Finding) bool { return false }}
	decodeAs[engine.MuteRule](t, e.muteCall(t, http.MethodPatch, "/v1/mute_rules/"+ids[5], e.tokA,
		`{"expression":"finding.severity == \"nope\""}`), http.StatusOK)
	t.Run("edited", func(t *testing.T) { check(t, false) })
	decodeAs[engine.MuteRule](t, e.muteCall(t, http.MethodPatch, "/v1/mute_rules/"+ids[7], e.tokA, `{"enabled":false}`), http.StatusOK)
	active[7] = false
	t.Run("disabled", func(t *testing.T) { check(t, false) })
	if r := e.muteCall(t, http.MethodDelete, "/v1/mute_rules/"+ids[1], e.tokA, nil); r.status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.status, r.body)
	}
	active[1] = false
	t.Run("deleted", func(t *testing.T) { check(t, false) })
	e.clock.Advance(2 * time.Hour) // rule 2 expires: no write announces it
	active[2] = false
	t.Run("expired", func(t *testing.T) { check(t, true) })

	// An audit writes a new snapshot: its set is built before it completes.
	if r := do(t, e.client, http.MethodPost, e.url+"/v1/audits", e.tokA, nil, nil); r.status != http.StatusAccepted {
		t.Fatalf("POST /v1/audits: %d %s", r.status, r.body)
	}
	claimed, err := e.pg.ClaimAudit(ctx, "test", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if done := e.runner.RunAudit(ctx, claimed); done.Status != engine.AuditCompleted {
		t.Fatalf("audit: %s %s", done.Status, done.Error)
	}
	bs, err := e.pg.BuiltMuteSets(ctx, e.a.ID, []string{claimed.ID})
	if err != nil || len(bs) != 1 {
		t.Fatalf("the audit's snapshot has %d built mute sets (%v), want 1", len(bs), err)
	}
	t.Run("after an audit", func(t *testing.T) {
		total := getJSON[engine.FindingSummary](t, e, "/v1/findings/summary?status=open", e.tokA).Total +
			getJSON[engine.FindingSummary](t, e, "/v1/findings/summary?status=muted", e.tokA).Total
		if muted := consistent(t, total); muted != bs[0].Muted {
			t.Errorf("muted count %d, the audit's set %d", muted, bs[0].Muted)
		}
	})
}
