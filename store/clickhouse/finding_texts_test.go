package clickhouse_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// A text's id is stored: the same text must get the same id from every
// version of the writer.
func TestTextIDKnownAnswer(t *testing.T) {
	f := engine.Finding{Title: "S3 bucket is public", Description: "Anyone can list it.", Remediation: "Block public access.",
		Compliance: []string{"cis-aws-2.1.5", "soc2-cc6.1"}}
	if got, want := clickhouse.TextID(f), uint64(0); got == want {
		t.Fatal("text id 0 is reserved for inline texts")
	}
	a := clickhouse.TextID(f)
	if a != 0x49b254aaa5ca5d1e {
		t.Errorf("text id %#x changed: stored ids would no longer match their texts", a)
	}
	// Fields never run into each other.
	g := f
	g.Title, g.Description = f.Title+"A", f.Description[1:]
	h := f
	h.Compliance = []string{"cis-aws-2.1.5soc2-cc6.1"}
	if clickhouse.TextID(g) == a || clickhouse.TextID(h) == a {
		t.Error("two different texts share an id")
	}
}

// Rows written before finding_texts carry their text inline (text_id 0).
// Migrations 0012 and 0013 move a snapshot holding such rows beside new
// ones (as CarryForward made them) from findings to finding_rows, then to
// snapshot_findings with its ids as bytes (decoded by the server), and it reads
// right through every path: pages, a single finding, the stream, the diff
// and the reports' rule totals. Each tenant reads its own texts only.
func TestFindingTextsOldAndNewRows(t *testing.T) {
	s := chtest.New(t)
	ctx := context.Background()
	aud := engine.NewID(engine.PrefixAudit, testNow)
	a := mustWriteSnapshot(t, s, "ten_a", aud, 300)
	// Tenant B: the same rule ids with other texts, same audit id.
	var bWant []engine.Finding
	bFindings := func(yield func(engine.Finding, error) bool) {
		for f := range genFindings("ten_b", 50, testNow) {
			f.Title, f.Description, f.Remediation = "B: "+f.Title, "B: "+f.Description, "B: "+f.Remediation
			f.Compliance = []string{"b-only"}
			if !yield(f, nil) {
				return
			}
		}
	}
	for f := range bFindings {
		f.AuditID = aud
		bWant = append(bWant, f)
	}
	slices.SortFunc(bWant, listOrder)
	if _, err := s.WriteSnapshot(ctx, "ten_b", aud, bFindings); err != nil {
		t.Fatal(err)
	}

	// Both snapshots as the findings table of before migration 0012 held
	// them, a third of tenant A's rows old-style: inline text, text_id 0
	// (rows written before migration 0005). Then 0012 runs again and moves
	// them into snapshot_findings.
	old := map[string]bool{}
	for i, f := range a.findings {
		if i%3 == 0 {
			old[f.ID] = true
		}
	}
	var oldIDs []string
	for id := range old {
		oldIDs = append(oldIDs, "'"+id+"'")
	}
	isOld := "tid IN (" + strings.Join(oldIDs, ", ") + ") AND snapshot = " + fmt.Sprint(clickhouse.SnapshotKey("ten_a", aud))
	withTextIDs(t, s, "rows_as_text", "SELECT * FROM snapshot_findings", a.findings, bWant)
	for _, tenant := range []string{"ten_a", "ten_b"} {
		mustExec(t, s, "INSERT INTO findings (tenant_id, audit_id, sev_order, id, severity, dimension, status, resolution, "+
			"resource_id, rule_id, resource_type, provider, account, region, title, description, remediation, evidence, compliance, "+
			"first_seen_at, last_seen_at, resolved_at, text_id, written_at) "+
			"SELECT '"+tenant+"', '"+aud+"', sev_order, tid, severity, dimension, status, resolution, resource_id, rule_id, resource_type, "+
			"provider, account, region, if("+isOld+", concat('old ', rule_id), ''), if("+isOld+", 'old description', ''), "+
			"if("+isOld+", 'old remediation', ''), evidence, if("+isOld+", ['old-ctl'], emptyArrayString()), "+
			"first_seen_at, last_seen_at, resolved_at, if("+isOld+", toUInt64(0), text_id), written_at "+
			"FROM rows_as_text WHERE snapshot = "+fmt.Sprint(clickhouse.SnapshotKey(tenant, aud)))
	}
	// The resource keys as finding_resource_index held them.
	withTextIDs(t, s, "index_as_text", "SELECT * FROM snapshot_finding_index", a.findings, bWant)
	mustExec(t, s, "INSERT INTO finding_resource_index (snapshot, resource_hash, sev_order, id, written_at) "+
		"SELECT snapshot, resource_hash, sev_order, tid, written_at FROM index_as_text")
	// 0012 moves findings into finding_rows, 0013 that into snapshot_findings.
	rerunMigrations(t, s, "0012_finding_rows", "0013_snapshot_findings")
	var legacy, moved uint64
	mustQueryRow(t, s, "SELECT count() FROM findings", &legacy)
	mustQueryRow(t, s, "SELECT count() FROM snapshot_findings", &moved)
	if legacy != moved || moved != uint64(len(a.findings)+len(bWant)) {
		t.Fatalf("migrations 0012 and 0013 moved %d rows of %d; want %d", moved, legacy, len(a.findings)+len(bWant))
	}
	for _, f := range a.findings[:20] {
		if got := pageAll(t, s, "ten_a", engine.FindingFilter{AuditID: aud, ResourceID: f.ResourceID}, 50); !slices.ContainsFunc(got,
			func(g engine.Finding) bool { return g.ID == f.ID }) {
			t.Fatalf("after the migrations the findings of %s lack %s", f.ResourceID, f.ID)
		}
	}
	want := slices.Clone(a.findings)
	for i := range want {
		if old[want[i].ID] {
			want[i].Title, want[i].Description, want[i].Remediation = "old "+want[i].RuleID, "old description", "old remediation"
			want[i].Compliance = []string{"old-ctl"}
		}
	}

	if diff := gocmp.Diff(want, pageAll(t, s, "ten_a", engine.FindingFilter{AuditID: aud}, 64)); diff != "" {
		t.Errorf("pages of ten_a (-want +got):\n%s", diff)
	}
	if diff := gocmp.Diff(bWant, pageAll(t, s, "ten_b", engine.FindingFilter{AuditID: aud}, 64)); diff != "" {
		t.Errorf("pages of ten_b (-want +got):\n%s", diff)
	}
	for _, i := range []int{0, 1, 2} {
		got, err := s.GetFinding(ctx, "ten_a", aud, want[i].ID)
		if err != nil {
			t.Fatal(err)
		}
		if diff := gocmp.Diff(want[i], got); diff != "" {
			t.Errorf("GetFinding %s (-want +got):\n%s", want[i].ID, diff)
		}
	}
	byID := map[string]engine.Finding{}
	for _, f := range want {
		byID[f.ID] = f
	}
	n := 0
	if err := s.StreamFindings(ctx, "ten_a", aud, func(f engine.Finding) error {
		n++
		if diff := gocmp.Diff(byID[f.ID], f); diff != "" {
			t.Errorf("streamed %s (-want +got):\n%s", f.ID, diff)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if n != len(want) {
		t.Errorf("streamed %d findings, want %d", n, len(want))
	}
	n = 0
	for ch, err := range s.DiffSnapshots(ctx, "ten_a", "", aud, engine.DiffMutes{}) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		if w := byID[ch.Finding.ID]; ch.Finding.Title != w.Title || !slices.Equal(ch.Finding.Compliance, w.Compliance) {
			t.Errorf("diff row %s: title %q compliance %q, want %q %q", w.ID, ch.Finding.Title, ch.Finding.Compliance, w.Title, w.Compliance)
		}
	}
	if n == 0 {
		t.Error("the diff from nothing yielded no change")
	}
	totals, err := s.RuleTotals(ctx, engine.ReportScope{TenantID: "ten_b", AuditID: aud})
	if err != nil {
		t.Fatal(err)
	}
	if len(totals) == 0 {
		t.Fatal("no rule totals for ten_b")
	}
	for _, r := range totals {
		if r.Title == "" || r.Title[:3] != "B: " || r.Remediation[:3] != "B: " {
			t.Errorf("rule %s of ten_b: title %q remediation %q, want tenant B's own texts", r.RuleID, r.Title, r.Remediation)
		}
	}
	totals, err = s.RuleTotals(ctx, engine.ReportScope{TenantID: "ten_a", AuditID: aud})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range totals {
		if r.Title == "" || r.Remediation == "" {
			t.Errorf("rule %s of ten_a: empty title or remediation", r.RuleID)
		}
	}
}

// A snapshot sends each text once, and a text of one tenant is not found
// under another (texts are keyed by tenant).
func TestFindingTextsOncePerSnapshotAndTenant(t *testing.T) {
	s := chtest.New(t)
	aud := engine.NewID(engine.PrefixAudit, testNow)
	a := mustWriteSnapshot(t, s, "ten_a", aud, 2000)
	texts := map[uint64]bool{}
	for _, f := range a.findings {
		texts[clickhouse.TextID(f)] = true
	}
	var rows uint64
	mustQueryRow(t, s, "SELECT count() FROM finding_texts WHERE tenant_id = 'ten_a'", &rows)
	if rows != uint64(len(texts)) {
		t.Errorf("finding_texts holds %d rows of ten_a for %d distinct texts", rows, len(texts))
	}
	mustQueryRow(t, s, "SELECT count() FROM finding_texts WHERE tenant_id != 'ten_a'", &rows)
	if rows != 0 {
		t.Errorf("finding_texts holds %d rows of other tenants", rows)
	}
}

// Migration 0005 adds a column, which 18.16 cannot do "IF NOT EXISTS": a
// rerun after its statements ran but before it was recorded (or a replica
// migrating at the same time) must still succeed.
func TestMigrateRerunsAnAddedColumn(t *testing.T) {
	s := chtest.New(t)
	ctx := context.Background()
	mustExec(t, s, "ALTER TABLE schema_migrations DELETE WHERE version = '0005_finding_texts'")
	if err := s.WaitForMutations(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.Migrate(ctx); err != nil {
		t.Fatalf("Migrate over an added text_id column: %v", err)
	}
	got, err := s.AppliedMigrations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(got, "0005_finding_texts") {
		t.Errorf("applied migrations %v lack 0005_finding_texts", got)
	}
}

// TestMigrateAddColumnKeepsTableReadable: a migration that adds a column
// (0005's text_id, run again) leaves the table readable throughout. On a
// cluster the Distributed table was dropped and made again with the new
// column, and a read in between failed (code 60, no such table): during a
// rolling upgrade the API answered those reads with an error.
func TestMigrateAddColumnKeepsTableReadable(t *testing.T) {
	s := chtest.New(t)
	ctx := context.Background()
	mustExec(t, s, "ALTER TABLE schema_migrations DELETE WHERE version = '0005_finding_texts'")
	if err := s.WaitForMutations(ctx); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	done := make(chan []string)
	go func() {
		var failed []string
		reads := 0
		for {
			select {
			case <-stop:
				if reads == 0 {
					failed = append(failed, "no read ran during the migration")
				}
				done <- failed
				return
			default:
			}
			if _, err := s.QueryStrings(ctx, "SELECT toString(count()) FROM findings"); err != nil {
				failed = append(failed, err.Error())
			}
			reads++
		}
	}()
	err := s.Migrate(ctx)
	close(stop)
	failed := <-done
	if err != nil {
		t.Fatalf("Migrate: %v", err)
	}
	if len(failed) > 0 {
		t.Errorf("%d reads of findings failed while a migration added its column: %q", len(failed), failed[:min(3, len(failed))])
	}
}
