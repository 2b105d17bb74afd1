package clickhouse_test

import (
	"context"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// DiffSnapshots leaves out the changes of findings the given mutes match:
// new and severity-changed findings muted in the newer snapshot, findings
// resolved now that were muted in the older one. Matches of a rule version
// not given, or of the other snapshot, change nothing.
func TestDiffSnapshotsLeavesMutedOut(t *testing.T) {
	ctx := context.Background()
	s := chtest.New(t)
	const tenant = "ten_diffmute"
	prev := engine.NewID(engine.PrefixAudit, testNow.Add(-time.Hour))
	next := engine.NewID(engine.PrefixAudit, testNow)
	all := collect(genFindings(tenant, 400, testNow))
	for i := range all {
		all[i].Status, all[i].Resolution, all[i].ResolvedAt = engine.StatusOpen, "", nil
	}
	if _, err := s.AppendSnapshot(ctx, tenant, prev, sliceSeq(all[:300])); err != nil {
		t.Fatal(err)
	}
	if err := s.FinalizeSnapshot(ctx, tenant, prev); err != nil {
		t.Fatal(err)
	}
	// Next: the first 50 are gone (resolved now by CarryForward), the last
	// 100 are new, every fifth kept one changes severity.
	var kept []engine.Finding
	for i, f := range all[50:] {
		f.LastSeenAt = testNow
		if i%5 == 0 {
			f.Severity = map[engine.Severity]engine.Severity{engine.SeverityCritical: engine.SeverityLow}[f.Severity]
			if f.Severity == "" {
				f.Severity = engine.SeverityCritical
			}
		}
		kept = append(kept, f)
	}
	if _, err := s.AppendSnapshot(ctx, tenant, next, sliceSeq(kept)); err != nil {
		t.Fatal(err)
	}
	if err := s.CarryForward(ctx, tenant, prev, next, testNow, testNow.Add(-24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.FinalizeSnapshot(ctx, tenant, next); err != nil {
		t.Fatal(err)
	}
	diff := func(from, to string, m engine.DiffMutes) map[string]string {
		t.Helper()
		out := map[string]string{}
		for ch, err := range s.DiffSnapshots(ctx, tenant, from, to, m) {
			if err != nil {
				t.Fatal(err)
			}
			out[ch.Finding.ID] = ch.Kind
		}
		return out
	}
	full := diff(prev, next, engine.DiffMutes{})
	first := diff("", next, engine.DiffMutes{})

	// One of each kind muted where it counts: new and severity-changed in
	// next, resolved in prev; a resolved one muted only in next (where it
	// is not open) and a new one muted only in prev stay.
	byKind := map[string][]engine.Finding{}
	for _, f := range append(kept, all[:50]...) {
		if k, ok := full[f.ID]; ok && len(byKind[k]) < 2 {
			byKind[k] = append(byKind[k], f)
		}
	}
	for _, k := range []string{engine.EventFindingCreated, engine.EventFindingResolved, engine.EventFindingSeverityChanged} {
		if len(byKind[k]) < 2 {
			t.Fatalf("diff has %d %s changes, the test needs 2: %v", len(byKind[k]), k, full)
		}
	}
	rule, other := engine.MuteRef{RuleID: "mut_a", Version: 2}, engine.MuteRef{RuleID: "mut_a", Version: 1}
	put := func(audit string, ref engine.MuteRef, fs ...engine.Finding) {
		t.Helper()
		if err := s.PutMuteMatches(ctx, tenant, audit, ref, fs); err != nil {
			t.Fatal(err)
		}
	}
	created, resolved, sev := byKind[engine.EventFindingCreated], byKind[engine.EventFindingResolved], byKind[engine.EventFindingSeverityChanged]
	put(next, rule, created[0], sev[0])
	put(prev, rule, resolved[0], sev[1])
	put(next, rule, resolved[1]) // not open in next: mute_matches keeps open findings only
	put(prev, rule, created[1])  // not in prev at all
	put(next, other, created[1], sev[1])
	gone := []string{created[0].ID, sev[0].ID, resolved[0].ID}

	got := diff(prev, next, engine.DiffMutes{Prev: []engine.MuteRef{rule}, Cur: []engine.MuteRef{rule}})
	for _, id := range gone {
		if _, ok := got[id]; ok {
			t.Errorf("%s (%s) is muted where it counts but the diff keeps it", id, full[id])
		}
	}
	if len(got) != len(full)-len(gone) {
		t.Errorf("diff with mutes: %d changes, want %d (%d without mutes, %d muted)", len(got), len(full)-len(gone), len(full), len(gone))
	}
	for id, k := range got {
		if full[id] != k {
			t.Errorf("%s: %s with mutes, %q without", id, k, full[id])
		}
	}

	// A first audit: only the newer side's matches count.
	got = diff("", next, engine.DiffMutes{Cur: []engine.MuteRef{rule}})
	if _, ok := got[created[0].ID]; ok || len(got) != len(first)-2 {
		t.Errorf("first diff with mutes: %d changes (muted %s kept: %v), want %d - 2", len(got), created[0].ID, ok, len(first))
	}
}
