package clickhouse

import (
	"testing"

	ch "github.com/ClickHouse/clickhouse-go/v2"
	"github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
)

func TestReportQueriesToSQL(t *testing.T) {
	scope := engine.ReportScope{TenantID: "t", AuditID: "a"}
	filtered := scope
	filtered.Filters = engine.ReportFilters{Severities: []engine.Severity{"high"}, Accounts: []string{"111"}}
	decided := scope
	f1, f2 := engine.FindingID("t", "r1", "x1"), engine.FindingID("t", "r1", "x2")
	decided.ForceResolved, decided.ForceOpen = []string{f1, "fnd_not-an-id"}, []string{f2}
	set := func(v ...any) ch.GroupSet { return ch.GroupSet{Value: v} }
	tests := []struct {
		name     string
		q        sqlQuery
		wantSQL  string
		wantArgs []any
	}{
		{"open counts, filtered", openCountsQuery{scope: filtered},
			"SELECT toString(severity), toString(dimension), account, rule_id, sum(n) FROM finding_counts WHERE tenant_id = ? AND audit_id = ? AND status = ? AND severity IN ? AND account IN ? GROUP BY severity, dimension, account, rule_id ORDER BY severity DESC, dimension, account, rule_id",
			[]any{"t", "a", "open", set("high"), set("111")}},
		{"top resources", topResourcesQuery{scope: scope, limit: 10},
			"SELECT resource_id, count(), sum(multiIf(severity = 'critical', 10.0, severity = 'high', 5.0, severity = 'medium', 2.0, severity = 'low', 1.0, severity = 'info', 0.0, 0.0)) AS w, toString(max(severity)) FROM snapshot_findings WHERE snapshot = ? AND status = ? GROUP BY resource_id ORDER BY w DESC, resource_id LIMIT ?",
			[]any{snapshotKey("t", "a"), "open", 10}},
		{"affected, decisions applied", affectedQuery{scope: decided, ruleIDs: []string{"r1"}, perRule: 50},
			"SELECT rule_id, id, resource_id, resource_type, account, region, toString(severity) FROM snapshot_findings WHERE snapshot = ? AND ((status = ? AND id NOT IN ?) OR (id IN ? AND resolution != 'fixed')) AND rule_id IN ? ORDER BY rule_id, sev_order, resource_id, id LIMIT ? BY rule_id",
			[]any{snapshotKey("t", "a"), "open", set(mustIDKey(t, f1)), set(mustIDKey(t, f2)), set("r1"), 50}},
		{"resolution times, a reopened finding left out", resolutionTimesQuery{scope: decided},
			"SELECT toString(severity), count(), avg(toUInt32(resolved_at) - toUInt32(first_seen_at)) FROM snapshot_findings WHERE snapshot = ? AND (status = ? AND (id NOT IN ? OR resolution = 'fixed')) AND toUInt32(resolved_at) > 0 AND resolved_at >= first_seen_at GROUP BY severity ORDER BY severity DESC",
			[]any{snapshotKey("t", "a"), "resolved", set(mustIDKey(t, f2))}},
		{"severe resources: only the critical and high rows are read", severeResourcesQuery{scope: scope},
			"SELECT uniqExact(resource_id) FROM snapshot_findings WHERE snapshot = ? AND status = ? AND sev_order IN (?, ?) AND severity IN (?, ?)",
			[]any{snapshotKey("t", "a"), "open", sevOrder(engine.SeverityCritical), sevOrder(engine.SeverityHigh), "critical", "high"}},
		{"resource types", resourceTypesQuery{tenantID: "t"},
			"SELECT type, uniqExact(cityHash64(id)) FROM resources WHERE tenant_id = ? GROUP BY type ORDER BY type", []any{"t"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sql, args := tc.q.toSQL()
			if diff := cmp.Diff(tc.wantSQL, sql); diff != "" {
				t.Errorf("SQL (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantArgs, args); diff != "" {
				t.Errorf("args (-want +got):\n%s", diff)
			}
		})
	}
	if sql, args := (ruleTotalsQuery{scope: scope}).toSQL(); args[0] != "t" || len(args) != 3 || sql == "" {
		t.Errorf("rule totals: the production subquery's tenant comes first: %v", args)
	}
}
