package clickhouse_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

func TestCountsByAudit(t *testing.T) {
	s := chtest.New(t)
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Second)
	res := engine.ResourceID("ten_a", "aws", "arn:1")
	a1, a2, a3 := engine.NewID(engine.PrefixAudit, now), engine.NewID(engine.PrefixAudit, now.Add(time.Second)), engine.NewID(engine.PrefixAudit, now.Add(2*time.Second))
	write := func(auditID string, sevs ...engine.Severity) {
		t.Helper()
		fs := make([]engine.Finding, len(sevs))
		for i, sev := range sevs {
			fs[i] = engine.Finding{ID: engine.FindingID("ten_a", fmt.Sprintf("r%d", i), res), TenantID: "ten_a", AuditID: auditID,
				ResourceID: res, RuleID: "r", Dimension: engine.DimensionSecurity, Severity: sev, Status: engine.StatusOpen,
				Title: "t", ResourceType: "aws_s3_bucket", FirstSeenAt: now, LastSeenAt: now}
		}
		if _, err := s.WriteSnapshot(ctx, "ten_a", auditID, func(yield func(engine.Finding, error) bool) {
			for _, f := range fs {
				if !yield(f, nil) {
					return
				}
			}
		}); err != nil {
			t.Fatal(err)
		}
	}
	write(a1, engine.SeverityHigh, engine.SeverityHigh, engine.SeverityLow)
	write(a2, engine.SeverityCritical)
	key := func(sev engine.Severity) map[engine.GroupBy]string {
		return map[engine.GroupBy]string{engine.GroupBySeverity: string(sev)}
	}
	for _, tc := range []struct {
		name   string
		filter engine.FindingFilter
		want   map[string][]engine.FindingCount
	}{
		{"all", engine.FindingFilter{}, map[string][]engine.FindingCount{
			a1: {{Key: key(engine.SeverityHigh), Count: 2}, {Key: key(engine.SeverityLow), Count: 1}},
			a2: {{Key: key(engine.SeverityCritical), Count: 1}},
		}},
		{"filtered: an audit without matches is absent", engine.FindingFilter{Severity: engine.SeverityHigh}, map[string][]engine.FindingCount{
			a1: {{Key: key(engine.SeverityHigh), Count: 2}},
		}},
		{"by resource, from the rows", engine.FindingFilter{ResourceID: res, Severity: engine.SeverityCritical}, map[string][]engine.FindingCount{
			a2: {{Key: key(engine.SeverityCritical), Count: 1}},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.CountsByAudit(ctx, "ten_a", []string{a1, a2, a3}, tc.filter, []engine.GroupBy{engine.GroupBySeverity})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if _, err := s.CountsByAudit(ctx, "ten_a", []string{a1}, engine.FindingFilter{}, []engine.GroupBy{"bogus"}); engine.ErrorCode(err) != engine.CodeValidationFailed {
		t.Errorf("unknown group by: %v", err)
	}
}
