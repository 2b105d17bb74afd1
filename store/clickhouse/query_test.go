package clickhouse

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"
	"github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
)

func TestQueriesToSQL(t *testing.T) {
	const cols = "SELECT " + findingColumns + " FROM snapshot_findings"
	tests := []struct {
		name     string
		q        sqlQuery
		wantSQL  string
		wantArgs []any
	}{
		{"bucket, first page",
			bucketPageQuery{tenantID: "t", auditID: "a", bucket: 0, hi: "fnd_1", limit: 201},
			cols + " WHERE snapshot = ? AND sev_order = ? AND id < ? ORDER BY id LIMIT 201",
			[]any{snapshotKey("t", "a"), uint8(0), idRangeKey("fnd_1")}},
		{"bucket, after a cursor, unbounded, filters without the severity",
			bucketPageQuery{tenantID: "t", auditID: "a", bucket: 2, lo: "fnd_x", limit: 5,
				filter: engine.FindingFilter{Severity: "medium", Dimension: "cost", Status: "open", RuleID: "r", ResourceType: "rt", Account: "ac", Region: "re"}},
			cols + " WHERE snapshot = ? AND sev_order = ? AND id > ? AND dimension = ? AND status = ? AND rule_id = ? AND resource_type = ? AND account = ? AND region = ? ORDER BY id LIMIT 5",
			[]any{snapshotKey("t", "a"), uint8(2), idRangeKey("fnd_x"), "cost", "open", "r", "rt", "ac", "re"}},
		{"bucket, without evidence (a CSV export)",
			bucketPageQuery{tenantID: "t", auditID: "a", bucket: 1, hi: "fnd_1", limit: 9, columns: findingColumnsNoEvidence},
			"SELECT sev_order, id, severity, dimension, status, resolution,\nresource_id, rule_id, resource_type, provider, account, region, title, description, remediation,\n'', compliance, first_seen_at, last_seen_at, resolved_at, text_id FROM snapshot_findings WHERE snapshot = ? AND sev_order = ? AND id < ? ORDER BY id LIMIT 9",
			[]any{snapshotKey("t", "a"), uint8(1), idRangeKey("fnd_1")}},
		{"bucket, widened range",
			bucketPageQuery{tenantID: "t", auditID: "a", bucket: 4, lo: "fnd_2", loInclusive: true, hi: "fnd_3", limit: 7},
			cols + " WHERE snapshot = ? AND sev_order = ? AND id >= ? AND id < ? ORDER BY id LIMIT 7",
			[]any{snapshotKey("t", "a"), uint8(4), idRangeKey("fnd_2"), idRangeKey("fnd_3")}},
		{"row filters, a probe of a bucket's range",
			rowFilterPageQuery{tenantID: "t", auditID: "a", filter: engine.FindingFilter{FirstSeenAfter: time.Unix(100, 0), Dimension: "cost"},
				rng: &bucketRange{bucket: 1, lo: "fnd_2", loInclusive: true, hi: "fnd_3"}, limit: 7},
			cols + " PREWHERE first_seen_at >= toDateTime(?, 'UTC') WHERE snapshot = ? AND sev_order = ? AND id >= ? AND id < ? AND dimension = ? ORDER BY id LIMIT 7",
			[]any{int64(100), snapshotKey("t", "a"), uint8(1), idRangeKey("fnd_2"), idRangeKey("fnd_3"), "cost"}},
		{"row filters, a probe after a cursor to the bucket's end",
			rowFilterPageQuery{tenantID: "t", auditID: "a", filter: engine.FindingFilter{FirstSeenBefore: time.Unix(100, 1)},
				rng: &bucketRange{bucket: 3, lo: "fnd_2"}, limit: 5},
			cols + " PREWHERE first_seen_at < toDateTime(?, 'UTC') WHERE snapshot = ? AND sev_order = ? AND id > ? ORDER BY id LIMIT 5",
			[]any{int64(101), snapshotKey("t", "a"), uint8(3), idRangeKey("fnd_2")}},
		{"row filters, the pass after the probes",
			rowFilterPageQuery{tenantID: "t", auditID: "a", filter: engine.FindingFilter{FirstSeenAfter: time.Unix(100, 0)},
				from: &keyPos{bucket: 2, bound: "fnd_4", inclusive: true}, limit: 3},
			cols + " WHERE snapshot = ? AND (sev_order, id) IN (SELECT sev_order, id FROM snapshot_findings PREWHERE first_seen_at >= toDateTime(?, 'UTC') WHERE snapshot = ? AND (sev_order > ? OR (sev_order = ? AND id >= ?)) ORDER BY sev_order, id LIMIT 3) ORDER BY sev_order, id LIMIT 3",
			[]any{snapshotKey("t", "a"), int64(100), snapshotKey("t", "a"), uint8(2), uint8(2), idRangeKey("fnd_4")}},
		{"row filters, a pass after a cursor",
			rowFilterPageQuery{tenantID: "t", auditID: "a", filter: engine.FindingFilter{FirstSeenAfter: time.Unix(100, 0)},
				from: &keyPos{bucket: 0, bound: "fnd_4"}, limit: 3},
			cols + " WHERE snapshot = ? AND (sev_order, id) IN (SELECT sev_order, id FROM snapshot_findings PREWHERE first_seen_at >= toDateTime(?, 'UTC') WHERE snapshot = ? AND (sev_order > ? OR (sev_order = ? AND id > ?)) ORDER BY sev_order, id LIMIT 3) ORDER BY sev_order, id LIMIT 3",
			[]any{snapshotKey("t", "a"), int64(100), snapshotKey("t", "a"), uint8(0), uint8(0), idRangeKey("fnd_4")}},
		{"scan with a resource",
			scanPageQuery{tenantID: "t", auditID: "a", filter: engine.FindingFilter{ResourceID: "res_1", Severity: "high"},
				after: &engine.FindingKey{SeverityRank: 4, ID: "fnd_9"}, limit: 3},
			cols + " PREWHERE resource_id = ? WHERE snapshot = ? AND (sev_order > ? OR (sev_order = ? AND id > ?)) AND severity = ? ORDER BY sev_order, id LIMIT 3",
			[]any{"res_1", snapshotKey("t", "a"), uint8(1), uint8(1), idRangeKey("fnd_9"), "high"}},
		{"point lookup",
			getFindingQuery{tenantID: "t", auditID: "a", id: "fnd_1"},
			cols + " PREWHERE id = ? WHERE snapshot = ? AND ((sev_order = ? AND id = ?) OR (sev_order = ? AND id = ?) OR (sev_order = ? AND id = ?) OR (sev_order = ? AND id = ?) OR (sev_order = ? AND id = ?)) LIMIT 1",
			[]any{"fnd_1", snapshotKey("t", "a"), uint8(0), "fnd_1", uint8(1), "fnd_1", uint8(2), "fnd_1", uint8(3), "fnd_1", uint8(4), "fnd_1"}},
		{"counts from the summary",
			countQuery{tenantID: "t", auditID: "a", filter: engine.FindingFilter{Account: "ac"}, groupBy: []string{"severity", "dimension"}},
			"SELECT toString(severity), toString(dimension), sum(n) FROM finding_counts WHERE tenant_id = ? AND audit_id = ? AND account = ? GROUP BY toString(severity), toString(dimension)",
			[]any{"t", "a", "ac"}},
		{"total from the summary",
			countQuery{tenantID: "t", auditID: "a"},
			"SELECT sum(n) FROM finding_counts WHERE tenant_id = ? AND audit_id = ?",
			[]any{"t", "a"}},
		{"counts of a resource from the rows",
			countQuery{tenantID: "t", auditID: "a", filter: engine.FindingFilter{ResourceID: "res_1"}, groupBy: []string{"rule_id"}},
			"SELECT toString(rule_id), count() FROM snapshot_findings PREWHERE resource_id = ? WHERE snapshot = ? GROUP BY toString(rule_id)",
			[]any{"res_1", snapshotKey("t", "a")}},
		{"keys of a resource after a cursor",
			resourceKeysQuery{tenantID: "t", auditID: "a", resourceID: "res_1", after: &engine.FindingKey{SeverityRank: 5, ID: "fnd_2"}, limit: 10},
			"SELECT sev_order, id FROM snapshot_finding_index PREWHERE resource_hash = ? WHERE snapshot = ? AND (sev_order > ? OR (sev_order = ? AND id > ?)) ORDER BY sev_order, id LIMIT 10",
			[]any{resourceHash("res_1"), snapshotKey("t", "a"), uint8(0), uint8(0), idRangeKey("fnd_2")}},
		{"findings by key",
			byKeysPageQuery{tenantID: "t", auditID: "a", filter: engine.FindingFilter{ResourceID: "res_1", Region: "re"},
				keys: []findingKey{{0, "fnd_1"}, {3, "fnd_2"}}, limit: 4},
			cols + " PREWHERE (sev_order, id) IN ? WHERE snapshot = ? AND resource_id = ? AND region = ? ORDER BY sev_order, id LIMIT 4",
			[]any{keysGroupSet([]findingKey{{0, "fnd_1"}, {3, "fnd_2"}}), snapshotKey("t", "a"), "res_1", "re"}},
		{"counts of a resource by key",
			countQuery{tenantID: "t", auditID: "a", filter: engine.FindingFilter{ResourceID: "res_1"}, groupBy: []string{"status"}, keys: []findingKey{{1, "fnd_1"}}},
			"SELECT toString(status), count() FROM snapshot_findings WHERE snapshot = ? AND (sev_order, id) IN ? AND resource_id = ? GROUP BY toString(status)",
			[]any{snapshotKey("t", "a"), keysGroupSet([]findingKey{{1, "fnd_1"}}), "res_1"}},
		{"resource page",
			resourcePageQuery{tenantID: "t", filter: engine.ResourceFilter{Type: "ty", Region: "re"}, lo: "res_1", hi: "res_2", limit: 9},
			"SELECT " + resourceColumns + " FROM resources WHERE tenant_id = ? AND id > ? AND id < ? AND id IN (SELECT id FROM resources WHERE tenant_id = ? AND id > ? AND id < ? AND type = ? AND region = ? ORDER BY id LIMIT 1 BY id LIMIT 9) ORDER BY id, version DESC LIMIT 1 BY id",
			[]any{"t", "res_1", "res_2", "t", "res_1", "res_2", "ty", "re"}},
		{"resource stream chunk",
			streamResourcesQuery{tenantID: "t", lo: "res_1"},
			"SELECT " + streamResourceColumns + " FROM resources WHERE tenant_id = ? AND id >= ? ORDER BY id, version DESC LIMIT 1 BY id",
			[]any{"t", "res_1"}},
		{"finding stream chunk",
			streamFindingsQuery{tenantID: "t", auditID: "a", hi: "fnd_2"},
			cols + " WHERE snapshot = ? AND ((sev_order = ? AND id < ?) OR (sev_order = ? AND id < ?) OR (sev_order = ? AND id < ?) OR (sev_order = ? AND id < ?) OR (sev_order = ? AND id < ?)) ORDER BY id",
			[]any{snapshotKey("t", "a"), uint8(0), idRangeKey("fnd_2"), uint8(1), idRangeKey("fnd_2"), uint8(2), idRangeKey("fnd_2"),
				uint8(3), idRangeKey("fnd_2"), uint8(4), idRangeKey("fnd_2")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sql, args := tt.q.toSQL()
			if diff := cmp.Diff(tt.wantSQL, sql); diff != "" {
				t.Errorf("SQL (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantArgs, args); diff != "" {
				t.Errorf("args (-want +got):\n%s", diff)
			}
		})
	}
}

func TestIDBoundOrdersLikePositions(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	ids := make([]string, 2000)
	for i := range ids {
		ids[i] = engine.DerivedID(engine.PrefixFinding, string(rune(r.Int32())), "x")
	}
	for range 200 {
		p := r.Uint64N(idSpace)
		b := idBound(engine.PrefixFinding, p)
		if got := idPos(b); got != p {
			t.Fatalf("idPos(idBound(%d)) = %d", p, got)
		}
		for _, id := range ids {
			if below, want := id < b, idPos(id) < p; below != want {
				t.Fatalf("%s < %s is %v, but position %d < %d is %v", id, b, below, idPos(id), p, want)
			}
		}
	}
}

func TestRangeEnd(t *testing.T) {
	tests := []struct {
		name   string
		lo     string
		want   int
		total  uint64
		factor float64
		wantHi string
	}{
		{"whole space", "", 100, 100, 1, ""},
		{"no rows", "", 10, 0, 2, ""},
		{"a quarter from the start", "", 25, 100, 1, idBound("fnd", idSpace/4+1)},
		{"past the end", idBound("fnd", idSpace/2), 60, 100, 1, ""},
		{"from the middle", idBound("fnd", idSpace/2), 10, 100, 2, idBound("fnd", idSpace/2+idSpace/5+1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Float arithmetic: the position may differ in the last few units.
			got := rangeEnd("fnd", tt.lo, tt.want, tt.total, tt.factor)
			if (got == "") != (tt.wantHi == "") || absDiff(idPos(got), idPos(tt.wantHi)) > 1<<8 {
				t.Errorf("rangeEnd = %q, want %q", got, tt.wantHi)
			}
		})
	}
}

func TestIDChunksCoverTheSpaceInOrder(t *testing.T) {
	for _, n := range []int{1, 2, 7, 64} {
		cs := idChunks("res", n)
		if len(cs) != n || cs[0][0] != "" || cs[n-1][1] != "" {
			t.Fatalf("idChunks(%d) = %v", n, cs)
		}
		for i := 1; i < n; i++ {
			if cs[i][0] != cs[i-1][1] || (i > 1 && cs[i][0] <= cs[i-1][0]) {
				t.Fatalf("idChunks(%d): chunk %d does not follow chunk %d: %v", n, i, i-1, cs)
			}
		}
	}
}

func TestMigrationsSplit(t *testing.T) {
	fsys := fstest.MapFS{
		"migrations/0002_b.sql": {Data: []byte("-- two\nCREATE TABLE b (x UInt8) ENGINE = Log;\n\n-- c\nCREATE TABLE c (x UInt8)\nENGINE = Log;\n")},
		"migrations/0001_a.sql": {Data: []byte("CREATE TABLE a (x String) ENGINE = Log\n")},
		"migrations/0003_e.sql": {Data: []byte("-- only a comment\n")},
	}
	_, err := loadMigrations(fsys)
	if err == nil || !strings.Contains(err.Error(), "0003_e") {
		t.Errorf("a migration without statements: err = %v", err)
	}
	delete(fsys, "migrations/0003_e.sql")
	got, err := loadMigrations(fsys)
	if err != nil {
		t.Fatal(err)
	}
	want := []migration{
		{"0001_a", []string{"CREATE TABLE a (x String) ENGINE = Log"}},
		{"0002_b", []string{"CREATE TABLE b (x UInt8) ENGINE = Log", "CREATE TABLE c (x UInt8)\nENGINE = Log"}},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(migration{})); diff != "" {
		t.Errorf("migrations (-want +got):\n%s", diff)
	}
	embedded, err := loadMigrations(migrationFS)
	if err != nil || !slices.ContainsFunc(embedded, func(m migration) bool { return m.version == "0001_findings" }) {
		t.Errorf("embedded migrations = %v, %v", embedded, err)
	}
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		ok   bool
	}{
		{"native", Config{URL: "clickhouse://127.0.0.1:19000/default?dial_timeout=2s&max_execution_time=5"}, true},
		{"empty", Config{}, false},
		{"http", Config{URL: "http://127.0.0.1:8123/default"}, false},
		{"no host", Config{URL: "clickhouse:///default"}, false},
		{"string setting", Config{URL: "clickhouse://127.0.0.1:19000/default?timeout_overflow_mode=break"}, false},
		{"sub-second execution time", Config{URL: "clickhouse://h:1/d", MaxExecutionTime: 1}, false},
		{"negative batch", Config{URL: "clickhouse://h:1/d", BatchSize: -1}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.cfg.Validate(); (err == nil) != tt.ok {
				t.Errorf("Validate() = %v, want ok = %v", err, tt.ok)
			}
		})
	}
}

func absDiff(a, b uint64) uint64 {
	if a > b {
		return a - b
	}
	return b - a
}

// TestSelectiveRowFilterSQL: a tag or q filter resolved to few resources
// reads the keys of their findings from the resource index, by resource
// hash, and keeps only their resource ids; none resolved reads nothing.
func TestSelectiveRowFilterSQL(t *testing.T) {
	sel := &selectiveResources{snapshot: snapshotKey("t", "a"), tags: []string{"res_1", "res_2"}, q: []string{}}
	var c conds
	addRowFilter(&c, "t", engine.FindingFilter{Tags: "team=x", Q: "abc"}, nil, sel)
	wantSQL := "((sev_order, id) IN (SELECT sev_order, id FROM snapshot_finding_index WHERE snapshot = ? AND resource_hash IN ?) AND resource_id IN ?)" +
		" AND (text_id IN (SELECT text_id FROM finding_texts WHERE tenant_id = ? AND positionCaseInsensitiveUTF8(title, ?) > 0) OR 0)"
	if got := c.sql(); got != wantSQL {
		t.Errorf("SQL\n got %s\nwant %s", got, wantSQL)
	}
	wantArgs := []any{snapshotKey("t", "a"), ch.GroupSet{Value: []any{resourceHash("res_1"), resourceHash("res_2")}},
		groupSet([]string{"res_1", "res_2"}), "t", "abc"}
	if diff := cmp.Diff(wantArgs, c.args); diff != "" {
		t.Errorf("args (-want +got):\n%s", diff)
	}
	// No title holds q: only its resources' findings, by the index (no
	// text_id read); some do: those texts listed.
	var noTitle conds
	addRowFilter(&noTitle, "t", engine.FindingFilter{Q: "abc"}, nil, &selectiveResources{snapshot: 1, q: []string{"res_1"}, titles: []uint64{}})
	if got, want := noTitle.sql(), "((sev_order, id) IN (SELECT sev_order, id FROM snapshot_finding_index WHERE snapshot = ? AND resource_hash IN ?) AND resource_id IN ?)"; got != want {
		t.Errorf("q without titles:\n got %s\nwant %s", got, want)
	}
	var titled conds
	addRowFilter(&titled, "t", engine.FindingFilter{Q: "abc"}, nil, &selectiveResources{snapshot: 1, q: []string{}, titles: []uint64{7, 9}})
	if got, want := titled.sql(), "(text_id IN ? OR 0)"; got != want {
		t.Errorf("q with titles:\n got %s\nwant %s", got, want)
	}
	// Not resolved (too many): the subquery over the tenant's resources.
	var sub conds
	addRowFilter(&sub, "t", engine.FindingFilter{Tags: "team=x"}, nil, &selectiveResources{q: []string{"res_1"}})
	if got := sub.sql(); !strings.HasPrefix(got, "resource_id IN (SELECT id FROM resources PREWHERE id IN (SELECT id FROM resource_tags WHERE tenant = ? AND tag = ?) WHERE tenant_id = ?") {
		t.Errorf("unresolved tag filter: %s", got)
	}
}

// TestComplianceFilterSQL: the compliance filter keeps the findings of the
// texts holding its control (or a control of its framework), listed when
// resolved beforehand (none listed: nothing), else by a subquery.
func TestComplianceFilterSQL(t *testing.T) {
	for _, tc := range []struct {
		name     string
		f        engine.FindingFilter
		sel      *selectiveResources
		wantSQL  string
		wantArgs []any
	}{
		{"a control, by subquery", engine.FindingFilter{Compliance: "CIS-AWS-4.0.1:2.1.4"}, nil,
			"text_id IN (SELECT text_id FROM finding_texts WHERE tenant_id = ? AND has(compliance, ?))",
			[]any{"t", "CIS-AWS-4.0.1:2.1.4"}},
		{"a framework, by subquery", engine.FindingFilter{Compliance: "SOC2"}, &selectiveResources{q: []string{}},
			"text_id IN (SELECT text_id FROM finding_texts WHERE tenant_id = ? AND arrayExists(x -> substring(x, 1, ?) = ?, compliance))",
			[]any{"t", uint64(5), "SOC2:"}},
		{"texts listed", engine.FindingFilter{Compliance: "SOC2"}, &selectiveResources{compliance: []uint64{3, 5}},
			"text_id IN ?", []any{ch.GroupSet{Value: []any{uint64(3), uint64(5)}}}},
		{"no text holds it", engine.FindingFilter{Compliance: "SOC2"}, &selectiveResources{compliance: []uint64{}}, "0", nil},
	} {
		var c conds
		addRowFilter(&c, "t", tc.f, nil, tc.sel)
		if got := c.sql(); got != tc.wantSQL {
			t.Errorf("%s: SQL\n got %s\nwant %s", tc.name, got, tc.wantSQL)
		}
		if diff := cmp.Diff(tc.wantArgs, c.args); diff != "" {
			t.Errorf("%s: args (-want +got):\n%s", tc.name, diff)
		}
	}
	if !(&selectiveResources{compliance: []uint64{}}).none() || (&selectiveResources{}).none() || (*selectiveResources)(nil).none() {
		t.Error("none() is true only when the compliance filter's texts are listed and empty")
	}
}
