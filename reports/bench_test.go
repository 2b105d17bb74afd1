package reports

import (
	"fmt"
	"io"
	"runtime"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// BenchmarkExecutivePDF renders the fixture executive summary.
func BenchmarkExecutivePDF(b *testing.B) {
	doc := fxExecutive()
	b.ReportAllocs()
	for b.Loop() {
		if err := RenderPDF(io.Discard, doc); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRemediationStream writes a plan of 2,000 groups covering
// 1,000,000 affected resources (500 per group, 50 listed) group by group
// to JSON and PDF, and reports the peak heap seen between groups.
func BenchmarkRemediationStream(b *testing.B) {
	groups, perGroup := benchGroups, 500
	sevs := []engine.Severity{engine.SeverityCritical, engine.SeverityHigh, engine.SeverityMedium, engine.SeverityLow}
	doc := fxRemediation()
	doc.RemediationPlan.Summary.Groups = int64(groups)
	doc.RemediationPlan.Summary.Findings = int64(groups * perGroup)
	b.ReportAllocs()
	var peak uint64
	for b.Loop() {
		rw, err := NewRemediationWriter(io.Discard, io.Discard, doc)
		if err != nil {
			b.Fatal(err)
		}
		for i := 1; i <= groups; i++ {
			if err := rw.WriteGroup(fxGroup(i, fmt.Sprintf("team-%d", i/100), sevs[(i-1)*len(sevs)/groups], perGroup)); err != nil {
				b.Fatal(err)
			}
			if i%250 == 0 {
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapAlloc)
			}
		}
		if err := rw.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
}
