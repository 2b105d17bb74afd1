package clickhouse

import (
	"testing"

	ch "github.com/ClickHouse/clickhouse-go/v2"
	"github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
)

func TestTrendQueryToSQL(t *testing.T) {
	ids := ch.GroupSet{Value: []any{"aud_1", "aud_2"}}
	keys := []uint64{snapshotKey("t", "aud_1"), snapshotKey("t", "aud_2")}
	tests := []struct {
		name     string
		q        trendQuery
		wantSQL  string
		wantArgs []any
	}{
		{"counts, grouped, filtered",
			trendQuery{tenantID: "t", auditIDs: []string{"aud_1", "aud_2"}, groupBy: []string{"severity"},
				filter: engine.FindingFilter{Status: "open"}},
			"SELECT audit_id, toString(severity), sum(n) FROM finding_counts WHERE tenant_id = ? AND audit_id IN ? AND status = ? GROUP BY audit_id, toString(severity)",
			[]any{"t", ids, "open"}},
		{"total per audit",
			trendQuery{tenantID: "t", auditIDs: []string{"aud_1", "aud_2"}},
			"SELECT audit_id, sum(n) FROM finding_counts WHERE tenant_id = ? AND audit_id IN ? GROUP BY audit_id",
			[]any{"t", ids}},
		{"by resource: from the rows",
			trendQuery{tenantID: "t", auditIDs: []string{"aud_1", "aud_2"}, groupBy: []string{"dimension"},
				filter: engine.FindingFilter{ResourceID: "res_1"}},
			"SELECT transform(snapshot, ?, ?, '') AS audit_id, toString(dimension), count() FROM snapshot_findings PREWHERE resource_id = ? WHERE snapshot IN ? GROUP BY audit_id, toString(dimension)",
			[]any{keys, []string{"aud_1", "aud_2"}, "res_1", ch.GroupSet{Value: []any{keys[0], keys[1]}}}},
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
}
