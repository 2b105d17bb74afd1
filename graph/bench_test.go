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
)

// benchFindings is the snapshot size of the benchmarks:
// FOURD_BENCH_FINDINGS, default 1,000,000 (docs/benchmarks.md records 10M).
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

// seedLarge writes n findings over n/50 resources (at most 200k) into a new
// completed audit of tenant A, streaming them.
func seedLarge(b *testing.B, e *env, n int) {
	b.Helper()
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Second)
	nres := min(max(n/50, 10), 200_000)
	res := make([]engine.Resource, nres)
	for i := range res {
		native := fmt.Sprintf("arn:bench:%d", i)
		res[i] = engine.Resource{ID: engine.ResourceID(e.a.id, "aws", native), TenantID: e.a.id, Provider: "aws",
			Account: fmt.Sprintf("acct-%d", i%7), Region: seedRegions[i%len(seedRegions)], Type: seedTypes[i%3], NativeID: native,
			Name: fmt.Sprintf("bench resource %d", i), Tags: map[string]string{"env": "prod"},
			Attributes: json.RawMessage(`{"public":true}`), FirstSeenAt: now, LastSeenAt: now}
	}
	if _, err := e.ch.WriteResources(ctx, e.a.id, seqOf(res)); err != nil {
		b.Fatal(err)
	}
	a := completeAudit(b, e.pg, e.a.id, now.Add(-time.Minute))
	findings := func(yield func(engine.Finding, error) bool) {
		for i := range n {
			r := res[i%nres]
			rule := fmt.Sprintf("rule_%04d", i/nres)
			f := engine.Finding{ID: engine.FindingID(e.a.id, rule, r.ID), TenantID: e.a.id, AuditID: a.ID, ResourceID: r.ID,
				RuleID: rule, Dimension: engine.Dimensions[i%4], Severity: engine.Severities[(i*7)%5], Status: engine.StatusOpen,
				Title: "bench finding", Description: "d", Remediation: "r", Evidence: json.RawMessage(`{}`), Compliance: []string{},
				ResourceType: r.Type, Provider: r.Provider, Account: r.Account, Region: r.Region, FirstSeenAt: now, LastSeenAt: now}
			if !yield(f, nil) {
				return
			}
		}
	}
	start := time.Now()
	if _, err := e.ch.WriteSnapshot(ctx, e.a.id, a.ID, iter.Seq2[engine.Finding, error](findings)); err != nil {
		b.Fatal(err)
	}
	b.Logf("seeded %d findings over %d resources in %v", n, nres, time.Since(start).Round(time.Second))
}

// BenchmarkLargeTenant measures, on one tenant with FOURD_BENCH_FINDINGS
// findings, in the same run: a page of 200 findings with their resources
// over GraphQL, findingStats by severity and dimension over GraphQL, and
// the REST summary of the same data; for comparison, the same page without
// resources and the REST list. It reports p50/p99 in ms and the
// GraphQL/REST ratio of the stats.
func BenchmarkLargeTenant(b *testing.B) {
	e := newEnv(b, envOptions{findingsA: 10, findingsB: 10})
	seedLarge(b, e, benchFindings(b))
	page := `{ findings(first: 200) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id severity dimension title resource { id name type region } } } } }`
	stats := `{ findingStats(groupBy: [SEVERITY, DIMENSION]) { total groups { severity dimension count } } }`
	bare := `{ findings(first: 200) { edges { cursor node { id severity dimension title resourceId } } } }`
	var pageT, statsT, restT, bareT, listT []time.Duration
	for i := 0; b.Loop(); i++ {
		t0 := time.Now()
		if r := e.gql(b, e.tokA, page, nil); len(r.Errors) > 0 {
			b.Fatalf("page: %+v", r.Errors)
		}
		t1 := time.Now()
		if r := e.gql(b, e.tokA, stats, nil); len(r.Errors) > 0 {
			b.Fatalf("stats: %+v", r.Errors)
		}
		t2 := time.Now()
		var sum engine.FindingSummary
		if st := e.rest(b, "/v1/findings/summary?group_by=severity,dimension", e.tokA, &sum); st != 200 {
			b.Fatalf("REST summary: %d", st)
		}
		t3 := time.Now()
		if r := e.gql(b, e.tokA, bare, nil); len(r.Errors) > 0 {
			b.Fatalf("bare page: %+v", r.Errors)
		}
		t4 := time.Now()
		var list restPage
		if st := e.rest(b, "/v1/findings?limit=200", e.tokA, &list); st != 200 {
			b.Fatalf("REST list: %d", st)
		}
		t5 := time.Now()
		pageT, statsT, restT = append(pageT, t1.Sub(t0)), append(statsT, t2.Sub(t1)), append(restT, t3.Sub(t2))
		bareT, listT = append(bareT, t4.Sub(t3)), append(listT, t5.Sub(t4))
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
