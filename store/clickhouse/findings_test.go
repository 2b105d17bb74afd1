package clickhouse_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"
	gocmp "github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

var testNow = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// snapshot is a written snapshot and the findings as the store returns them.
type snapshot struct {
	tenantID, auditID string
	findings          []engine.Finding // in list order
}

// mustWriteSnapshot writes n generated findings and returns what a reader
// should see, sorted in the list order.
func mustWriteSnapshot(t *testing.T, s *clickhouse.Store, tenantID, auditID string, n int) snapshot {
	t.Helper()
	var want []engine.Finding
	for f := range genFindings(tenantID, n, testNow) {
		f.AuditID = auditID
		want = append(want, f)
	}
	got, err := s.WriteSnapshot(context.Background(), tenantID, auditID, genFindings(tenantID, n, testNow))
	if err != nil {
		t.Fatalf("WriteSnapshot: %v", err)
	}
	if got != int64(n) {
		t.Fatalf("WriteSnapshot wrote %d, want %d", got, n)
	}
	slices.SortFunc(want, listOrder)
	return snapshot{tenantID, auditID, want}
}

func listOrder(a, b engine.Finding) int {
	if c := cmp.Compare(b.Severity.Rank(), a.Severity.Rank()); c != 0 {
		return c
	}
	return strings.Compare(a.ID, b.ID)
}

func matches(f engine.Finding, flt engine.FindingFilter) bool {
	return (flt.Severity == "" || f.Severity == flt.Severity) && (flt.Dimension == "" || f.Dimension == flt.Dimension) &&
		(flt.Status == "" || f.Status == flt.Status) && (flt.ResourceID == "" || f.ResourceID == flt.ResourceID) &&
		(flt.RuleID == "" || f.RuleID == flt.RuleID) && (flt.ResourceType == "" || f.ResourceType == flt.ResourceType) &&
		(flt.Account == "" || f.Account == flt.Account) && (flt.Region == "" || f.Region == flt.Region)
}

// pageAll pages through a snapshot with the given limit and returns every
// finding it saw.
func pageAll(t *testing.T, s *clickhouse.Store, tenantID string, f engine.FindingFilter, limit int) []engine.Finding {
	t.Helper()
	var out []engine.Finding
	var after *engine.FindingKey
	for pages := 0; ; pages++ {
		if pages > 10_000 {
			t.Fatal("paging does not end")
		}
		page, err := s.ListFindings(context.Background(), engine.FindingQuery{TenantID: tenantID, Filter: f, After: after, Limit: limit})
		if err != nil {
			t.Fatalf("ListFindings: %v", err)
		}
		if len(page) > limit {
			t.Fatalf("page of %d findings for limit %d", len(page), limit)
		}
		out = append(out, page...)
		if len(page) < limit {
			return out
		}
		last := page[len(page)-1]
		after = &engine.FindingKey{SeverityRank: last.Severity.Rank(), ID: last.ID}
	}
}

func TestListFindingsPagesEveryFindingOnceInOrder(t *testing.T) {
	s := chtest.New(t)
	aud := engine.NewID(engine.PrefixAudit, testNow)
	a := mustWriteSnapshot(t, s, "ten_a", aud, 3000)
	// Tenant B has a snapshot under the same audit id: it must never show.
	mustWriteSnapshot(t, s, "ten_b", aud, 1000)
	some := a.findings[1234]
	filters := []engine.FindingFilter{
		{},
		{Severity: engine.SeverityCritical},
		{Severity: engine.SeverityInfo},
		{Dimension: engine.DimensionCost},
		{Status: engine.StatusResolved},
		{ResourceID: some.ResourceID},
		{RuleID: some.RuleID},
		{ResourceType: "aws_iam_role"},
		{Account: "acct-3"},
		{Region: "region-7"},
		{Severity: engine.SeverityHigh, Dimension: engine.DimensionSecurity, Status: engine.StatusOpen, Account: "acct-2"},
		{Account: "acct-404"},
	}
	for _, f := range filters {
		for _, limit := range []int{1, 7, 201} {
			var want []engine.Finding
			for _, x := range a.findings {
				if matches(x, f) {
					want = append(want, x)
				}
			}
			if limit == 1 && len(want) > 100 {
				continue // hundreds of round trips add nothing
			}
			t.Run(fmt.Sprintf("%+v/limit=%d", f, limit), func(t *testing.T) {
				f.AuditID = aud
				got := pageAll(t, s, "ten_a", f, limit)
				if diff := gocmp.Diff(want, got); diff != "" {
					t.Errorf("pages (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// TestListFindingsOmitEvidence: a read that prints no evidence (the CSV
// export) gets every finding as the list does, in the same order, with the
// evidence left out; on each path a page can take (bounded buckets, a
// status scan under decisions, row filters, a resource's keys).
func TestListFindingsOmitEvidence(t *testing.T) {
	s := chtest.New(t)
	aud := engine.NewID(engine.PrefixAudit, testNow)
	a := mustWriteSnapshot(t, s, "ten_a", aud, 1500)
	withEvidence := 0
	for _, f := range a.findings {
		if len(f.Evidence) > 0 {
			withEvidence++
		}
	}
	if withEvidence == 0 {
		t.Fatal("no generated finding has evidence: the test proves nothing")
	}
	some := a.findings[700]
	for _, q := range []engine.FindingQuery{
		{},
		{Filter: engine.FindingFilter{Status: engine.StatusOpen}, ForceResolved: []string{a.findings[3].ID}},
		{Filter: engine.FindingFilter{FirstSeenBefore: testNow.Add(time.Hour)}},
		{Filter: engine.FindingFilter{ResourceID: some.ResourceID}},
	} {
		var want []engine.Finding
		for _, x := range pageAllQuery(t, s, "ten_a", aud, q, 113) {
			x.Evidence = nil
			want = append(want, x)
		}
		q.OmitEvidence = true
		got := pageAllQuery(t, s, "ten_a", aud, q, 113)
		if len(want) == 0 {
			t.Fatalf("%+v: nothing listed", q.Filter)
		}
		if diff := gocmp.Diff(want, got); diff != "" {
			t.Errorf("%+v without evidence (-want +got):\n%s", q.Filter, diff)
		}
	}
}

// pageAllQuery pages through a snapshot with q (its filter's audit set to
// auditID) and returns every finding it saw.
func pageAllQuery(t *testing.T, s *clickhouse.Store, tenantID, auditID string, q engine.FindingQuery, limit int) []engine.Finding {
	t.Helper()
	q.TenantID, q.Filter.AuditID, q.Limit, q.After = tenantID, auditID, limit, nil
	var out []engine.Finding
	for pages := 0; pages < 1000; pages++ {
		page, err := s.ListFindings(context.Background(), q)
		if err != nil {
			t.Fatalf("ListFindings: %v", err)
		}
		out = append(out, page...)
		if len(page) < limit {
			return out
		}
		last := page[len(page)-1]
		q.After = &engine.FindingKey{SeverityRank: last.Severity.Rank(), ID: last.ID}
	}
	t.Fatal("paging does not end")
	return nil
}

func TestListFindingsFromTheMiddle(t *testing.T) {
	s := chtest.New(t)
	aud := engine.NewID(engine.PrefixAudit, testNow)
	a := mustWriteSnapshot(t, s, "ten_a", aud, 2000)
	for _, i := range []int{0, 1, 499, 500, 1000, 1998, 1999} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			k := &engine.FindingKey{SeverityRank: a.findings[i].Severity.Rank(), ID: a.findings[i].ID}
			got, err := s.ListFindings(context.Background(), engine.FindingQuery{TenantID: "ten_a",
				Filter: engine.FindingFilter{AuditID: aud}, After: k, Limit: 50})
			if err != nil {
				t.Fatal(err)
			}
			want := a.findings[i+1 : min(i+51, len(a.findings))]
			if diff := gocmp.Diff(want, got); diff != "" {
				t.Errorf("page (-want +got):\n%s", diff)
			}
		})
	}
}

func TestListFindingsBadInput(t *testing.T) {
	s := chtest.New(t)
	aud := engine.NewID(engine.PrefixAudit, testNow)
	tests := []struct {
		name string
		q    engine.FindingQuery
		code string
	}{
		{"no tenant", engine.FindingQuery{Filter: engine.FindingFilter{AuditID: aud}, Limit: 5}, engine.CodeValidationFailed},
		{"no audit", engine.FindingQuery{TenantID: "ten_a", Limit: 5}, engine.CodeValidationFailed},
		{"zero limit", engine.FindingQuery{TenantID: "ten_a", Filter: engine.FindingFilter{AuditID: aud}}, engine.CodeInvalidLimit},
		{"bad severity", engine.FindingQuery{TenantID: "ten_a", Filter: engine.FindingFilter{AuditID: aud, Severity: "urgent"}, Limit: 5}, engine.CodeInvalidSeverityFilter},
		{"bad dimension", engine.FindingQuery{TenantID: "ten_a", Filter: engine.FindingFilter{AuditID: aud, Dimension: "speed"}, Limit: 5}, engine.CodeValidationFailed},
		{"bad cursor rank", engine.FindingQuery{TenantID: "ten_a", Filter: engine.FindingFilter{AuditID: aud},
			After: &engine.FindingKey{SeverityRank: 9, ID: engine.FindingID("a", "b", "c")}, Limit: 5}, engine.CodeInvalidCursor},
		{"bad cursor id", engine.FindingQuery{TenantID: "ten_a", Filter: engine.FindingFilter{AuditID: aud},
			After: &engine.FindingKey{SeverityRank: 3, ID: "x' OR 1=1"}, Limit: 5}, engine.CodeInvalidCursor},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.ListFindings(context.Background(), tt.q)
			if got := engine.ErrorCode(err); got != tt.code {
				t.Errorf("code = %q (%v), want %q", got, err, tt.code)
			}
		})
	}
}

func TestGetFinding(t *testing.T) {
	s := chtest.New(t)
	aud := engine.NewID(engine.PrefixAudit, testNow)
	other := engine.NewID(engine.PrefixAudit, testNow.Add(time.Hour))
	a := mustWriteSnapshot(t, s, "ten_a", aud, 500)
	for _, i := range []int{0, 250, 499} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			got, err := s.GetFinding(context.Background(), "ten_a", aud, a.findings[i].ID)
			if err != nil {
				t.Fatal(err)
			}
			if diff := gocmp.Diff(a.findings[i], got); diff != "" {
				t.Errorf("GetFinding (-want +got):\n%s", diff)
			}
		})
	}
	missing := []struct{ name, tenant, audit, id string }{
		{"unknown id", "ten_a", aud, engine.FindingID("ten_a", "nope", "nope")},
		{"other tenant", "ten_b", aud, a.findings[0].ID},
		{"other audit", "ten_a", other, a.findings[0].ID},
		{"malformed id", "ten_a", aud, "fnd_'"},
	}
	for _, m := range missing {
		t.Run(m.name, func(t *testing.T) {
			_, err := s.GetFinding(context.Background(), m.tenant, m.audit, m.id)
			if !engine.IsNotFound(err) {
				t.Errorf("err = %v, want not_found", err)
			}
		})
	}
}

func TestStreamFindingsInIDOrder(t *testing.T) {
	s := chtest.New(t)
	aud := engine.NewID(engine.PrefixAudit, testNow)
	a := mustWriteSnapshot(t, s, "ten_a", aud, 1500)
	mustWriteSnapshot(t, s, "ten_b", aud, 100)
	want := slices.Clone(a.findings)
	slices.SortFunc(want, func(x, y engine.Finding) int { return strings.Compare(x.ID, y.ID) })
	var got []engine.Finding
	if err := s.StreamFindings(context.Background(), "ten_a", aud, func(f engine.Finding) error {
		got = append(got, f)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("StreamFindings (-want +got):\n%s", diff)
	}
	stop := errors.New("stop")
	n := 0
	err := s.StreamFindings(context.Background(), "ten_a", aud, func(engine.Finding) error {
		if n++; n == 10 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || n != 10 {
		t.Errorf("after the callback's error: err = %v after %d calls, want stop after 10", err, n)
	}
}

func TestMigrateTwice(t *testing.T) {
	s := chtest.New(t)
	ctx := context.Background()
	for i := range 2 {
		if err := s.Migrate(ctx); err != nil {
			t.Fatalf("Migrate #%d: %v", i+2, err)
		}
	}
	got, err := s.AppliedMigrations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"0001_findings", "0002_resources", "0003_finding_resources"} {
		if !slices.Contains(got, v) {
			t.Errorf("applied migrations %v lack %s", got, v)
		}
	}
	// Each migration was recorded once: the reruns applied nothing.
	var rows uint64
	mustQueryRow(t, s, "SELECT count() FROM schema_migrations", &rows)
	if rows != uint64(len(got)) {
		t.Errorf("schema_migrations has %d rows for %d migrations", rows, len(got))
	}
}

// mustExec runs a statement on the store's database over a connection of
// its own.
func mustExec(t *testing.T, s *clickhouse.Store, stmt string) {
	t.Helper()
	conn := testConn(t, s)
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := conn.Exec(ctx, stmt); err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
}

func testConn(t *testing.T, s *clickhouse.Store) ch.Conn {
	t.Helper()
	opts, err := ch.ParseDSN(chtest.WithDatabase(t, chtest.URL(), s.Database()))
	if err != nil {
		t.Fatal(err)
	}
	conn, err := ch.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	return conn
}

// mustQueryRow runs a query on the store's database over a connection of
// its own.
func mustQueryRow(t *testing.T, s *clickhouse.Store, query string, dest ...any) {
	t.Helper()
	conn := testConn(t, s)
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := conn.QueryRow(ctx, query).Scan(dest...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}
