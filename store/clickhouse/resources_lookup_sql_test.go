package clickhouse

import (
	"testing"

	ch "github.com/ClickHouse/clickhouse-go/v2"
	"github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
)

func TestResourcesByIDQuery(t *testing.T) {
	const tail = " FROM resources PREWHERE id IN ? WHERE tenant_id = ? ORDER BY id, version DESC LIMIT 1 BY id"
	narrow := "SELECT tenant_id, id, version, provider, account, region, type, native_id, name, first_seen_at, last_seen_at"
	ids := []string{"res_1", "res_2"}
	tests := []struct {
		name   string
		fields engine.ResourceFields
		want   string
	}{
		{"narrow", engine.ResourceFields{}, narrow + tail},
		{"tags", engine.ResourceFields{Tags: true}, narrow + ", tags.key, tags.value" + tail},
		{"attributes", engine.ResourceFields{Attributes: true}, narrow + ", attributes" + tail},
		{"captured at", engine.ResourceFields{CapturedAt: true}, narrow + ", captured_at" + tail},
		{"all", engine.AllResourceFields, narrow + ", tags.key, tags.value, attributes, captured_at" + tail},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sql, args := resourcesByIDQuery{tenantID: "t", ids: ids, fields: tt.fields}.toSQL()
			if diff := cmp.Diff(tt.want, sql); diff != "" {
				t.Errorf("SQL (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]any{groupSet(ids), "t"}, args); diff != "" {
				t.Errorf("args (-want +got):\n%s", diff)
			}
		})
	}
	// Small lookups use the server's uncompressed cache, large ones do not.
	small := resourcesByIDQuery{tenantID: "t", ids: make([]string, lookupCacheMaxIDs)}.settings()
	large := resourcesByIDQuery{tenantID: "t", ids: make([]string, lookupCacheMaxIDs+1)}.settings()
	if diff := cmp.Diff(ch.Settings{"max_query_size": 16 << 20, "use_uncompressed_cache": 1}, small); diff != "" {
		t.Errorf("settings of %d ids (-want +got):\n%s", lookupCacheMaxIDs, diff)
	}
	if diff := cmp.Diff(ch.Settings{"max_query_size": 16 << 20}, large); diff != "" {
		t.Errorf("settings of %d ids (-want +got):\n%s", lookupCacheMaxIDs+1, diff)
	}
}

// TestSampleIDsQuery: the passing sample reads two narrow columns, the
// first perType ids of each type.
func TestSampleIDsQuery(t *testing.T) {
	sql, args := sampleIDsQuery{tenantID: "t", types: []string{"aws_s3_bucket", "aws_instance"}, perType: 10}.toSQL()
	want := "SELECT type, id FROM resources WHERE tenant_id = ? AND type IN ? GROUP BY type, id ORDER BY type, id LIMIT ? BY type"
	if diff := cmp.Diff(want, sql); diff != "" {
		t.Errorf("SQL (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]any{"t", groupSet([]string{"aws_s3_bucket", "aws_instance"}), 10}, args); diff != "" {
		t.Errorf("args (-want +got):\n%s", diff)
	}
}
