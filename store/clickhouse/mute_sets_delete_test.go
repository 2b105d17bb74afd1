package clickhouse_test

import (
	"context"
	"maps"
	"strconv"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// TestDeleteMuteSets: deleting a superseded build removes its rows and
// counts (a mutation: soon, not at once) and leaves another build of the
// same snapshot, and its counts, as they were.
func TestDeleteMuteSets(t *testing.T) {
	t.Parallel()
	s := chtest.New(t)
	ctx := context.Background()
	tenantID, auditID := "ten_mutedel", engine.NewID(engine.PrefixAudit, testNow)
	var findings []engine.Finding
	for i := range 120 {
		resID := engine.ResourceID(tenantID, "aws", "arn:"+strconv.Itoa(i%17))
		sev := engine.Severities[i%5]
		findings = append(findings, engine.Finding{ID: engine.FindingID(tenantID, "rule"+strconv.Itoa(i), resID), TenantID: tenantID,
			AuditID: auditID, ResourceID: resID, RuleID: "rule_" + strconv.Itoa(i%3), Severity: sev, Dimension: engine.DimensionSecurity,
			Status: engine.StatusOpen, Title: "t", ResourceType: "bucket", Provider: "aws", Account: "111", Region: "eu-west-1",
			FirstSeenAt: testNow, LastSeenAt: testNow})
	}
	if _, err := s.WriteSnapshot(ctx, tenantID, auditID, sliceSeq(findings)); err != nil {
		t.Fatal(err)
	}
	keys := make([]engine.FindingKey, len(findings))
	for i, f := range findings {
		keys[i] = engine.FindingKey{SeverityRank: f.Severity.Rank(), ID: f.ID}
	}
	refs := []engine.MuteRef{{RuleID: "mrl_a", Version: 1}, {RuleID: "mrl_b", Version: 1}}
	conds := []engine.MuteCond{{Op: engine.MuteEq, Field: engine.MuteSeverity, Values: []string{"high"}},
		{Op: engine.MuteEq, Field: engine.MuteRuleID, Values: []string{"rule_1"}}}
	for i, cond := range conds {
		if _, err := s.PutMuteMatchesWhere(ctx, tenantID, auditID, refs[i], cond); err != nil {
			t.Fatal(err)
		}
	}
	old, err := s.PutMuteSet(ctx, tenantID, auditID, "build-old", refs[:1])
	if err != nil {
		t.Fatal(err)
	}
	cur, err := s.PutMuteSet(ctx, tenantID, auditID, "build-cur", refs)
	if err != nil {
		t.Fatal(err)
	}
	if old == 0 || cur <= old {
		t.Fatalf("the sets mute %d and %d: not a useful case", old, cur)
	}
	want, err := s.MutedAmong(ctx, tenantID, auditID, refs, "build-cur", keys)
	if err != nil {
		t.Fatal(err)
	}
	count := func(build string, refs []engine.MuteRef) int64 {
		t.Helper()
		q := engine.FindingCountQuery{TenantID: tenantID, Filter: engine.FindingFilter{AuditID: auditID}, MuteSet: build}
		cs, err := s.CountMuted(ctx, q, refs, nil)
		if err != nil {
			t.Fatal(err)
		}
		var n int64
		for _, c := range cs {
			n += c.Count
		}
		return n
	}
	if err := s.DeleteMuteSets(ctx, []engine.MuteSetBuild{{TenantID: tenantID, AuditID: auditID, Build: "build-old"}}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		gone, err := s.MutedAmong(ctx, tenantID, auditID, refs[:1], "build-old", keys)
		if err != nil {
			t.Fatal(err)
		}
		if len(gone) == 0 && count("build-old", refs[:1]) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the deleted build still has %d rows and counts %d", len(gone), count("build-old", refs[:1]))
		}
	}
	got, err := s.MutedAmong(ctx, tenantID, auditID, refs, "build-cur", keys)
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(got, want) || int64(len(got)) != cur || count("build-cur", refs) != cur {
		t.Errorf("the kept build mutes %d (counts %d), want %d", len(got), count("build-cur", refs), cur)
	}
	if err := s.DeleteMuteSets(ctx, nil); err != nil {
		t.Errorf("deleting no build: %v", err)
	}
}
