package clickhouse_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/store/clickhouse"
	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
)

// The read benchmarks run on a snapshot of one tenant kept in the database
// fourd_bench between runs (it is written once, then reused while it has the
// right size). The 10M-finding variants run only with FOURD_BENCH_10M=1:
//
//	FOURD_BENCH_10M=1 go test ./store/clickhouse -run '^$' -bench . -benchtime 200x -timeout 30m
const (
	benchDB     = "fourd_bench"
	benchTenant = "ten_bench"
)

var benchSizes = []int{200_000, 10_000_000}

func benchSizeName(n int) string {
	if n >= 1_000_000 {
		return fmt.Sprintf("%dM", n/1_000_000)
	}
	return fmt.Sprintf("%dk", n/1000)
}

func skipUnlessSize(b *testing.B, n int) {
	if n > 1_000_000 && os.Getenv("FOURD_BENCH_10M") != "1" {
		b.Skip("set FOURD_BENCH_10M=1 to run the 10M-finding benchmarks")
	}
}

var benchStores sync.Map // size → *clickhouse.Store with the snapshot written

// benchSnapshot returns a store on fourd_bench holding a snapshot of n
// findings for benchTenant, and its audit id; it writes the snapshot when
// it is missing.
func benchSnapshot(b *testing.B, n int) (*clickhouse.Store, string) {
	b.Helper()
	auditID := engine.DerivedID(engine.PrefixAudit, "bench", fmt.Sprint(n))
	if s, ok := benchStores.Load(n); ok {
		return s.(*clickhouse.Store), auditID
	}
	chtest.CreateDatabase(b, benchDB)
	ctx := context.Background()
	s, err := clickhouse.Open(ctx, clickhouse.Config{URL: chtest.WithDatabase(b, chtest.URL(), benchDB), QueryTimeout: 5 * time.Minute})
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Migrate(ctx); err != nil {
		b.Fatal(err)
	}
	total, err := s.CountFindings(ctx, engine.FindingCountQuery{TenantID: benchTenant, Filter: engine.FindingFilter{AuditID: auditID}})
	if err != nil {
		b.Fatal(err)
	}
	if total[0].Count != int64(n) {
		if total[0].Count != 0 {
			b.Fatalf("%s holds %d findings for %s, want %d: drop the database", benchDB, total[0].Count, auditID, n)
		}
		start := time.Now()
		peak := trackPeakHeap()
		if _, err := s.WriteSnapshot(ctx, benchTenant, auditID, genFindings(benchTenant, n, testNow)); err != nil {
			b.Fatal(err)
		}
		d := time.Since(start)
		b.Logf("wrote the %d-finding bench snapshot in %v (%.0f rows/s, peak Go heap %.0f MiB)", n, d, float64(n)/d.Seconds(), peak())
	}
	benchStores.Store(n, s)
	return s, auditID
}

// trackPeakHeap samples the Go heap until the returned function is called,
// which returns the peak in MiB.
func trackPeakHeap() func() float64 {
	var mu sync.Mutex
	var peak uint64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			mu.Lock()
			peak = max(peak, m.HeapInuse)
			mu.Unlock()
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() float64 {
		close(done)
		<-stopped
		mu.Lock()
		defer mu.Unlock()
		return float64(peak) / (1 << 20)
	}
}

// rowsRead returns a context whose queries add the rows the server read to
// a counter, and the counter's reader.
func rowsRead() (context.Context, func() uint64) {
	var n atomic.Uint64
	ctx := ch.Context(context.Background(), ch.WithProgress(func(p *ch.Progress) { n.Add(p.Rows) }))
	return ctx, n.Load
}

// timings collects per-iteration latencies to report p50 and p99.
type timings []time.Duration

func (ts timings) report(b *testing.B) {
	if len(ts) == 0 {
		return
	}
	slices.Sort(ts)
	q := func(p float64) float64 {
		return float64(ts[min(len(ts)-1, int(p*float64(len(ts))))].Microseconds()) / 1000
	}
	b.ReportMetric(q(0.50), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
}

func BenchmarkWriteSnapshot(b *testing.B) {
	for _, n := range benchSizes {
		b.Run("rows="+benchSizeName(n), func(b *testing.B) {
			skipUnlessSize(b, n)
			s := chtest.New(b)
			var rows int64
			var peak float64
			start, cpu0 := time.Now(), processCPU()
			for i := 0; b.Loop(); i++ {
				audit := engine.DerivedID(engine.PrefixAudit, "write", fmt.Sprint(i))
				stop := trackPeakHeap()
				w, err := s.WriteSnapshot(context.Background(), benchTenant, audit, genFindings(benchTenant, n, testNow))
				peak = max(peak, stop())
				if err != nil {
					b.Fatal(err)
				}
				rows += w
			}
			b.ReportMetric(float64(rows)/time.Since(start).Seconds(), "rows/s")
			b.ReportMetric(float64((processCPU()-cpu0).Nanoseconds())/float64(rows), "client-cpu-ns/row")
			b.ReportMetric(peak, "peak-heap-MiB")
		})
	}
}

// cursorAt is a cursor at a position of a severity bucket: a syntactically
// valid finding id at that fraction of the id space.
func cursorAt(sev engine.Severity, fraction float64) *engine.FindingKey {
	const digits = "0123456789abcdefghjkmnpqrstvwxyz"
	v := uint64(fraction * float64(uint64(1)<<58))
	var body [26]byte
	for i := range body {
		body[i] = '0'
	}
	for i := 11; i >= 0; i-- {
		body[i] = digits[v&31]
		v >>= 5
	}
	return &engine.FindingKey{SeverityRank: sev.Rank(), ID: "fnd_" + string(body[:])}
}

func BenchmarkListFindings(b *testing.B) {
	for _, n := range benchSizes {
		b.Run("rows="+benchSizeName(n), func(b *testing.B) {
			skipUnlessSize(b, n)
			s, audit := benchSnapshot(b, n)
			ctx := context.Background()
			byRule := genFinding(benchTenant, 12345, testNow)
			// The generator's last bucket is info; 150 info findings from its end.
			info, err := s.CountFindings(ctx, engine.FindingCountQuery{TenantID: benchTenant,
				Filter: engine.FindingFilter{AuditID: audit, Severity: engine.SeverityInfo}})
			if err != nil {
				b.Fatal(err)
			}
			lastFrac := 1 - 150/float64(info[0].Count)
			cases := []struct {
				name   string
				filter engine.FindingFilter
				after  *engine.FindingKey
			}{
				{"first", engine.FindingFilter{}, nil},
				{"middle", engine.FindingFilter{}, cursorAt(engine.SeverityMedium, 0.5)},
				{"last", engine.FindingFilter{}, cursorAt(engine.SeverityInfo, lastFrac)},
				{"first/account", engine.FindingFilter{Account: "acct-7"}, nil},
				{"middle/account+status", engine.FindingFilter{Account: "acct-7", Status: engine.StatusOpen}, cursorAt(engine.SeverityMedium, 0.5)},
				{"middle/rule", engine.FindingFilter{RuleID: byRule.RuleID}, cursorAt(byRule.Severity, 0.5)},
				{"first/resource", engine.FindingFilter{ResourceID: byRule.ResourceID}, nil},
			}
			for _, c := range cases {
				b.Run(c.name, func(b *testing.B) {
					f := c.filter
					f.AuditID = audit
					q := engine.FindingQuery{TenantID: benchTenant, Filter: f, After: c.after, Limit: 200}
					var ts timings
					rows := 0
					rctx, read := rowsRead()
					for b.Loop() {
						start := time.Now()
						page, err := s.ListFindings(rctx, q)
						ts = append(ts, time.Since(start))
						if err != nil {
							b.Fatal(err)
						}
						rows = len(page)
					}
					ts.report(b)
					b.ReportMetric(float64(rows), "rows/page")
					b.ReportMetric(float64(read())/float64(b.N), "rows-read/op")
				})
			}
		})
	}
}

func BenchmarkCountFindings(b *testing.B) {
	for _, n := range benchSizes {
		b.Run("rows="+benchSizeName(n), func(b *testing.B) {
			skipUnlessSize(b, n)
			s, audit := benchSnapshot(b, n)
			res := genFinding(benchTenant, 777, testNow).ResourceID
			sevDim := []engine.GroupBy{engine.GroupBySeverity, engine.GroupByDimension}
			cases := []struct {
				name    string
				filter  engine.FindingFilter
				groupBy []engine.GroupBy
			}{
				{"severity×dimension", engine.FindingFilter{}, sevDim},
				{"severity×dimension/account", engine.FindingFilter{Account: "acct-7"}, sevDim},
				{"severity×dimension/region", engine.FindingFilter{Region: "region-3"}, sevDim},
				{"severity×dimension/resource_type", engine.FindingFilter{ResourceType: "aws_iam_role"}, sevDim},
				{"rule×account", engine.FindingFilter{}, []engine.GroupBy{engine.GroupByRule, engine.GroupByAccount}},
				{"severity×dimension/resource(rows)", engine.FindingFilter{ResourceID: res}, sevDim},
			}
			for _, c := range cases {
				b.Run(strings.ReplaceAll(c.name, "×", "x"), func(b *testing.B) {
					f := c.filter
					f.AuditID = audit
					q := engine.FindingCountQuery{TenantID: benchTenant, Filter: f, GroupBy: c.groupBy}
					var ts timings
					rctx, read := rowsRead()
					for b.Loop() {
						start := time.Now()
						_, err := s.CountFindings(rctx, q)
						ts = append(ts, time.Since(start))
						if err != nil {
							b.Fatal(err)
						}
					}
					ts.report(b)
					b.ReportMetric(float64(read())/float64(b.N), "rows-read/op")
				})
			}
		})
	}
}

func BenchmarkGetFinding(b *testing.B) {
	for _, n := range benchSizes {
		b.Run("rows="+benchSizeName(n), func(b *testing.B) {
			skipUnlessSize(b, n)
			s, audit := benchSnapshot(b, n)
			id := genFinding(benchTenant, n/3, testNow).ID
			var ts timings
			rctx, read := rowsRead()
			for b.Loop() {
				start := time.Now()
				_, err := s.GetFinding(rctx, benchTenant, audit, id)
				ts = append(ts, time.Since(start))
				if err != nil {
					b.Fatal(err)
				}
			}
			ts.report(b)
			b.ReportMetric(float64(read())/float64(b.N), "rows-read/op")
		})
	}
}

// processCPU is the CPU time (user and system) this process used so far:
// the client's share of a write, whatever else loads the machine.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
