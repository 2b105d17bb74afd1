package clickhouse_test

import (
	"context"
	"maps"
	"strconv"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/audit"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// TestMutedAmongManyKeys asks which of 24,000 findings are muted, in the
// matches and in a built set: the 4,000 of the snapshot and 20,000 ids it
// does not hold. The keys travel as data of the query (an external table),
// not in its text: written into the SQL, 24,000 (severity, id) tuples make
// a query of ~600 kB, over the server's max_query_size (256 KiB), and even
// the 10,000 of an export page take the server seconds to parse (issue 33
// §5: an export under an active mute rule). The answer must not change
// with the ids that are not there, nor leak another tenant's matches.
func TestMutedAmongManyKeys(t *testing.T) {
	t.Parallel()
	s := chtest.New(t)
	ctx := context.Background()
	tenantID, auditID := "ten_mutekeys", engine.NewID(engine.PrefixAudit, testNow)
	sevs := []engine.Severity{engine.SeverityCritical, engine.SeverityHigh, engine.SeverityMedium, engine.SeverityLow}
	var findings []engine.Finding
	for i := range 4000 {
		resID := engine.ResourceID(tenantID, "aws", "arn:"+strconv.Itoa(i%97))
		rule := "rule_" + strconv.Itoa(i%5)
		findings = append(findings, engine.Finding{ID: engine.FindingID(tenantID, rule+strconv.Itoa(i), resID), TenantID: tenantID,
			AuditID: auditID, ResourceID: resID, RuleID: rule, Severity: sevs[i%len(sevs)], Dimension: engine.DimensionSecurity,
			Status: engine.StatusOpen, Title: "t", ResourceType: "aws_s3_bucket", Provider: "aws", Account: "111",
			Region: "eu-west-1", FirstSeenAt: testNow, LastSeenAt: testNow})
	}
	if _, err := s.WriteSnapshot(ctx, tenantID, auditID, sliceSeq(findings)); err != nil {
		t.Fatal(err)
	}
	ev := audit.New(nil)
	var refs []engine.MuteRef
	for i, expr := range []string{`finding.rule_id == "rule_1"`, `finding.severity == "critical"`} {
		m, err := ev.CompileMute(expr)
		if err != nil {
			t.Fatal(err)
		}
		cond, _ := m.(engine.MuteConditioner).Condition()
		ref := engine.MuteRef{RuleID: "mrl_keys" + strconv.Itoa(i), Version: 1}
		if _, err := s.PutMuteMatchesWhere(ctx, tenantID, auditID, ref, cond); err != nil {
			t.Fatal(err)
		}
		refs = append(refs, ref)
	}
	if _, err := s.PutMuteSet(ctx, tenantID, auditID, "build-keys", refs); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	keys := make([]engine.FindingKey, 0, 24000)
	for _, f := range findings {
		keys = append(keys, engine.FindingKey{SeverityRank: f.Severity.Rank(), ID: f.ID})
		switch {
		case f.RuleID == "rule_1":
			want[f.ID] = refs[0].RuleID
		case f.Severity == engine.SeverityCritical:
			want[f.ID] = refs[1].RuleID
		}
	}
	for i := range 20000 {
		id := engine.FindingID(tenantID, "absent"+strconv.Itoa(i), "res_x")
		keys = append(keys, engine.FindingKey{SeverityRank: sevs[i%len(sevs)].Rank(), ID: id})
	}
	for _, set := range []string{"", "build-keys"} {
		got, err := s.MutedAmong(ctx, tenantID, auditID, refs, set, keys)
		if err != nil {
			t.Fatalf("set %q: %v", set, err)
		}
		if !maps.Equal(got, want) {
			t.Errorf("set %q: %d muted, want %d (2,400 of rule_1 or critical)", set, len(got), len(want))
		}
		other, err := s.MutedAmong(ctx, "ten_other", auditID, refs, set, keys)
		if err != nil || len(other) != 0 {
			t.Errorf("set %q: another tenant sees %d muted (%v)", set, len(other), err)
		}
	}
}
