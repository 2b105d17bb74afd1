package clickhouse_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// DiffChanges reads less than DiffSnapshots, never other changes: the same
// kinds, previous severities and event fields for every changed finding
// (created, resolved now, severity changed with its evidence, accepted now),
// from nothing and from a previous snapshot.
func TestDiffChangesAgreesWithDiffSnapshots(t *testing.T) {
	ctx := context.Background()
	s := chtest.New(t)
	const tenant = "ten_diff"
	prev := engine.NewID(engine.PrefixAudit, testNow.Add(-time.Hour))
	next := engine.NewID(engine.PrefixAudit, testNow)
	all := collect(genFindings(tenant, 700, testNow))
	if _, err := s.AppendSnapshot(ctx, tenant, prev, sliceSeq(all[:600])); err != nil {
		t.Fatal(err)
	}
	if err := s.FinalizeSnapshot(ctx, tenant, prev); err != nil {
		t.Fatal(err)
	}
	// The next audit: 100 findings gone (resolved now by CarryForward), 100
	// new, some open ones of another severity (one with a reason in its
	// evidence), one accepted.
	var kept []engine.Finding
	changed := 0
	for i, f := range all[100:] {
		f.LastSeenAt = testNow
		switch {
		case f.Status == engine.StatusOpen && i%9 == 1:
			f.Severity = map[engine.Severity]engine.Severity{engine.SeverityCritical: engine.SeverityLow}[f.Severity]
			if f.Severity == "" {
				f.Severity = engine.SeverityCritical
			}
			if changed++; changed == 1 {
				f.Evidence = json.RawMessage(`{"severity_reason":"policy \"x\" <raises> it","observed":1}`)
			}
		case f.Status == engine.StatusOpen && i == 2:
			at := testNow
			f.Status, f.Resolution, f.ResolvedAt = engine.StatusResolved, engine.ResolutionAcceptedRisk, &at
		}
		kept = append(kept, f)
	}
	if changed < 2 {
		t.Fatal("the test needs severity changes")
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
	for _, c := range []struct{ prev, audit string }{{"", prev}, {prev, next}} {
		full := map[string]engine.FindingChange{}
		kinds := map[string]int{}
		for ch, err := range s.DiffSnapshots(ctx, tenant, c.prev, c.audit, engine.DiffMutes{}) {
			if err != nil {
				t.Fatal(err)
			}
			full[ch.Finding.ID] = ch
			kinds[ch.Kind]++
		}
		if c.prev != "" && (kinds[engine.EventFindingCreated] == 0 || kinds[engine.EventFindingResolved] < 80 ||
			kinds[engine.EventFindingSeverityChanged] < 2) {
			t.Fatalf("diff %s → %s: %v, the test needs every kind", c.prev, c.audit, kinds)
		}
		n := 0
		for ch, err := range s.DiffChanges(ctx, tenant, c.prev, c.audit) {
			if err != nil {
				t.Fatal(err)
			}
			n++
			w, ok := full[ch.Finding.ID]
			if !ok {
				t.Errorf("DiffChanges yields %s, DiffSnapshots does not", ch.Finding.ID)
				continue
			}
			g, f := ch.Finding, w.Finding
			if ch.Kind != w.Kind || ch.Previous != w.Previous || g.ID != f.ID || g.Severity != f.Severity ||
				g.Dimension != f.Dimension || g.ResourceID != f.ResourceID || g.Title != f.Title || g.RuleID != f.RuleID ||
				g.AuditID != f.AuditID || g.Status != f.Status || g.Resolution != f.Resolution ||
				g.ResourceType != f.ResourceType || g.Provider != f.Provider || g.Account != f.Account ||
				g.Region != f.Region || g.TenantID != f.TenantID || !equalTimes(g.ResolvedAt, f.ResolvedAt) {
				t.Errorf("DiffChanges\n got %s %s %+v\nwant %s %s %+v", ch.Kind, ch.Previous, g, w.Kind, w.Previous, f)
			}
			if ch.Kind == engine.EventFindingSeverityChanged && string(g.Evidence) != string(f.Evidence) {
				t.Errorf("%s: evidence %s, want %s", g.ID, g.Evidence, f.Evidence)
			}
			if g.Title == "" {
				t.Errorf("%s: no title", g.ID)
			}
		}
		if n != len(full) || n == 0 {
			t.Errorf("diff %s → %s: DiffChanges yields %d changes, DiffSnapshots %d", c.prev, c.audit, n, len(full))
		}
	}
}

func equalTimes(a, b *time.Time) bool {
	return a == nil && b == nil || a != nil && b != nil && a.Equal(*b)
}
