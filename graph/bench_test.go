package graph_test

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/graph"
	"github.com/fourd-dev/fourd/internal/testserver"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// benchFindings is the snapshot size of the benchmarks:
// FOURD_BENCH_FINDINGS, default 1,000,000 (docs/benchmarks.md quotes 10M).
func benchFindings(b *testing.B) int {
	if s := os.Getenv("FOURD_BENCH_FINDINGS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1000 {
			b.Fatalf("FOURD_BENCH_FINDINGS=%q: want an integer ≥ 1000", s)
		}
		return n
	}
	return 1_000_000
}

// The large tenant is kept between runs in a ClickHouse database of its own
// per size (fourd_graph_bench_<n>, tenant ten_graphbench, audit derived
// from n), so only the first run at a size pays for the seed (a couple of
// minutes at 10M). A database whose snapshot is incomplete (an interrupted
// seed) is dropped and written again. PostgreSQL is fresh every run: tenant
// A gets a completed audit with the kept snapshot's id, and its ClickHouse
// reads are mapped onto ten_graphbench (largeTenant).
const largeTenantID = "ten_graphbench"

// largeTenant sends tenant from's finding and resource reads to the kept
// large tenant; every other tenant's reads pass through.
type largeTenant struct {
	from string
}

func (m *largeTenant) id(tenantID string) string {
	if m != nil && m.from != "" && tenantID == m.from {
		return largeTenantID
	}
	return tenantID
}

type largeFindings struct {
	engine.FindingStore
	m *largeTenant
}

func (s largeFindings) ListFindings(ctx context.Context, q engine.FindingQuery) ([]engine.Finding, error) {
	q.TenantID = s.m.id(q.TenantID)
	return s.FindingStore.ListFindings(ctx, q)
}

func (s largeFindings) GetFinding(ctx context.Context, tenantID, auditID, id string) (engine.Finding, error) {
	return s.FindingStore.GetFinding(ctx, s.m.id(tenantID), auditID, id)
}

func (s largeFindings) CountFindings(ctx context.Context, q engine.FindingCountQuery) ([]engine.FindingCount, error) {
	q.TenantID = s.m.id(q.TenantID)
	return s.FindingStore.CountFindings(ctx, q)
}

type largeResources struct {
	engine.ResourceStore
	m *largeTenant
}

func (s largeResources) ListResources(ctx context.Context, q engine.ResourceQuery) ([]engine.Resource, error) {
	q.TenantID = s.m.id(q.TenantID)
	return s.ResourceStore.ListResources(ctx, q)
}

func (s largeResources) GetResource(ctx context.Context, tenantID, id string) (engine.Resource, error) {
	return s.ResourceStore.GetResource(ctx, s.m.id(tenantID), id)
}

func (s largeResources) GetResources(ctx context.Context, tenantID string, ids []string) ([]engine.Resource, error) {
	return s.ResourceStore.GetResources(ctx, s.m.id(tenantID), ids)
}

func (s largeResources) GetResourcesPartial(ctx context.Context, tenantID string, ids []string, f engine.ResourceFields) ([]engine.Resource, error) {
	return s.ResourceStore.GetResourcesPartial(ctx, s.m.id(tenantID), ids, f)
}

// largeSeed returns a store holding the large tenant with n findings over
// n/50 resources (at most 200k), and the id of its snapshot's audit; it
// writes them when the kept database does not hold them.
func largeSeed(b *testing.B, n int) (*clickhouse.Store, string) {
	b.Helper()
	ctx := context.Background()
	db := fmt.Sprintf("fourd_graph_bench_%d", n)
	auditID := engine.DerivedID(engine.PrefixAudit, "graph-bench", fmt.Sprint(n))
	open := func() *clickhouse.Store {
		chtest.CreateDatabase(b, db)
		s, err := clickhouse.Open(ctx, clickhouse.Config{URL: chtest.WithDatabase(b, chtest.URL(), db), QueryTimeout: 5 * time.Minute})
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Migrate(ctx); err != nil {
			b.Fatal(err)
		}
		return s
	}
	s := open()
	got, err := s.CountFindings(ctx, engine.FindingCountQuery{TenantID: largeTenantID, Filter: engine.FindingFilter{AuditID: auditID}})
	if err != nil {
		b.Fatal(err)
	}
	if got[0].Count == int64(n) {
		b.Cleanup(func() { s.Close() })
		return s, auditID
	}
	b.Logf("%s does not hold the %d-finding tenant (count %d): writing it", db, n, got[0].Count)
	s.Close()
	chtest.DropDatabase(b, db)
	s = open()
	b.Cleanup(func() { s.Close() })
	now := time.Now().UTC().Truncate(time.Second)
	nres := min(max(n/50, 10), 200_000)
	res := make([]engine.Resource, nres)
	for i := range res {
		native := fmt.Sprintf("arn:bench:%d", i)
		res[i] = engine.Resource{ID: engine.ResourceID(largeTenantID, "aws", native), TenantID: largeTenantID, Provider: "aws",
			Account: fmt.Sprintf("acct-%d", i%7), Region: testserver.SeedRegions[i%len(testserver.SeedRegions)], Type: testserver.SeedTypes[i%3], NativeID: native,
			Name: fmt.Sprintf("bench resource %d", i), Tags: engine.TagsFromMap(map[string]string{"env": "prod"}),
			Attributes: json.RawMessage(`{"public":true}`), FirstSeenAt: now, LastSeenAt: now}
	}
	if _, err := s.WriteResources(ctx, largeTenantID, testserver.SeqOf(res)); err != nil {
		b.Fatal(err)
	}
	findings := func(yield func(engine.Finding, error) bool) {
		for i := range n {
			r := res[i%nres]
			rule := fmt.Sprintf("rule_%04d", i/nres)
			f := engine.Finding{ID: engine.FindingID(largeTenantID, rule, r.ID), TenantID: largeTenantID, AuditID: auditID, ResourceID: r.ID,
				RuleID: rule, Dimension: engine.Dimensions[i%4], Severity: engine.Severities[(i*7)%5], Status: engine.StatusOpen,
				Title: "bench finding", Description: "d", Remediation: "r", Evidence: json.RawMessage(`{}`), Compliance: []string{},
				ResourceType: r.Type, Provider: r.Provider, Account: r.Account, Region: r.Region, FirstSeenAt: now, LastSeenAt: now}
			if !yield(f, nil) {
				return
			}
		}
	}
	start := time.Now()
	if _, err := s.WriteSnapshot(ctx, largeTenantID, auditID, iter.Seq2[engine.Finding, error](findings)); err != nil {
		b.Fatal(err)
	}
	b.Logf("seeded %d findings over %d resources in %v", n, nres, time.Since(start).Round(time.Second))
	return s, auditID
}

// newLargeEnv is the test env whose tenant A reads the kept large tenant
// of n findings through a completed audit with the snapshot's id.
func newLargeEnv(b *testing.B, n int) *env {
	b.Helper()
	s, auditID := largeSeed(b, n)
	m := &largeTenant{}
	e := newEnv(b, envOptions{findingsA: 10, findingsB: 10,
		stores: func(engine.FindingStore, engine.ResourceStore) (engine.FindingStore, engine.ResourceStore) {
			return largeFindings{s, m}, largeResources{s, m}
		},
		// A budget that hundreds of iterations a minute do not spend (the
		// default runs out before 200); the charge itself still runs.
		graph: func(c *graph.Config) { c.CostBudget = graph.NewCostBudget(1 << 40) },
	})
	m.from = e.a.ID
	ctx := context.Background()
	at := time.Now().UTC().Truncate(time.Second)
	a := engine.Audit{ID: auditID, TenantID: e.a.ID, Status: engine.AuditQueued, RequestedBy: "system", CreatedAt: at}
	if err := e.pg.CreateAudit(ctx, a); err != nil {
		b.Fatal(err)
	}
	started, done := at.Add(time.Second), at.Add(time.Minute)
	a.Status, a.StartedAt, a.CompletedAt = engine.AuditCompleted, &started, &done
	if err := e.pg.UpdateAudit(ctx, a); err != nil {
		b.Fatal(err)
	}
	return e
}

// checkPage fails the benchmark unless the page has 200 findings, each with
// its resource (a store mapping that lost the tenant would answer nulls).
func checkPage(b *testing.B, r gqlResponse) {
	b.Helper()
	got := data[struct {
		Findings struct {
			Edges []struct {
				Node struct {
					Resource *struct{ ID, Name string }
				}
			}
		}
	}](b, r)
	if len(got.Findings.Edges) != 200 {
		b.Fatalf("page has %d findings, want 200", len(got.Findings.Edges))
	}
	for _, ed := range got.Findings.Edges {
		if ed.Node.Resource == nil || ed.Node.Resource.Name == "" {
			b.Fatalf("a finding's resource is %+v", ed.Node.Resource)
		}
	}
}

// BenchmarkLargeTenant measures, on one tenant with FOURD_BENCH_FINDINGS
// findings, in the same run: a page of 200 findings with their resources
// over GraphQL, findingStats by severity and dimension over GraphQL, and
// the REST summary of the same data; for comparison, the same page without
// resources and the REST list. It reports p50/p99 in ms and the
// GraphQL/REST ratio of the stats.
func BenchmarkLargeTenant(b *testing.B) {
	e := newLargeEnv(b, benchFindings(b))
	page := `{ findings(first: 200) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id severity dimension title resource { id name type region } } } } }`
	stats := `{ findingStats(groupBy: [SEVERITY, DIMENSION]) { total groups { severity dimension count } } }`
	bare := `{ findings(first: 200) { edges { cursor node { id severity dimension title resourceId } } } }`
	// One untimed round first: a process's first requests open the HTTP,
	// ClickHouse and PostgreSQL connections and fill gqlgen's caches, which
	// is not what a serving replica's latencies are made of. It also checks
	// the page's answer.
	checkPage(b, e.gql(b, e.tokA, page, nil))
	for _, q := range []string{stats, bare} {
		if r := e.gql(b, e.tokA, q, nil); len(r.Errors) > 0 {
			b.Fatalf("%s: %+v", q, r.Errors)
		}
	}
	var sum engine.FindingSummary
	var list restPage
	e.rest(b, "/v1/findings/summary?group_by=severity,dimension", e.tokA, &sum)
	e.rest(b, "/v1/findings?limit=200", e.tokA, &list)

	var pageT, statsT, restT, bareT, listT []time.Duration
	gqlStats := func() {
		if r := e.gql(b, e.tokA, stats, nil); len(r.Errors) > 0 {
			b.Fatalf("stats: %+v", r.Errors)
		}
	}
	restSummary := func() {
		if st := e.rest(b, "/v1/findings/summary?group_by=severity,dimension", e.tokA, &sum); st != 200 {
			b.Fatalf("REST summary: %d", st)
		}
	}
	timed := func(f func()) time.Duration {
		t := time.Now()
		f()
		return time.Since(t)
	}
	for i := 0; b.Loop(); i++ {
		pageT = append(pageT, timed(func() {
			if r := e.gql(b, e.tokA, page, nil); len(r.Errors) > 0 {
				b.Fatalf("page: %+v", r.Errors)
			}
		}))
		// The stats and the REST summary take turns coming first: the one
		// right after the page's resource read runs on a busier server.
		if i%2 == 0 {
			statsT = append(statsT, timed(gqlStats))
			restT = append(restT, timed(restSummary))
		} else {
			restT = append(restT, timed(restSummary))
			statsT = append(statsT, timed(gqlStats))
		}
		bareT = append(bareT, timed(func() {
			if r := e.gql(b, e.tokA, bare, nil); len(r.Errors) > 0 {
				b.Fatalf("bare page: %+v", r.Errors)
			}
		}))
		listT = append(listT, timed(func() {
			if st := e.rest(b, "/v1/findings?limit=200", e.tokA, &list); st != 200 {
				b.Fatalf("REST list: %d", st)
			}
		}))
	}
	ms := func(ds []time.Duration, q float64) float64 {
		s := slices.Clone(ds)
		slices.Sort(s)
		return float64(s[min(len(s)-1, int(q*float64(len(s))))].Microseconds()) / 1000
	}
	b.ReportMetric(ms(pageT, 0.5), "page-p50-ms")
	b.ReportMetric(ms(pageT, 0.99), "page-p99-ms")
	b.ReportMetric(ms(statsT, 0.5), "stats-p50-ms")
	b.ReportMetric(ms(statsT, 0.99), "stats-p99-ms")
	b.ReportMetric(ms(restT, 0.5), "rest-summary-p50-ms")
	b.ReportMetric(ms(statsT, 0.5)/ms(restT, 0.5), "stats/rest-ratio")
	b.ReportMetric(ms(bareT, 0.5), "page-no-resources-p50-ms")
	b.ReportMetric(ms(listT, 0.5), "rest-list-p50-ms")
}
