package rules

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// BenchmarkEvaluate runs the whole pack over the NDJSON sample estate (252
// resources of 25 types) and reports resources evaluated per second.
func BenchmarkEvaluate(b *testing.B) {
	rs := loadSample(b, "fourd.ndjson")
	b.ReportAllocs()
	n, v := 0, 0
	for b.Loop() {
		for _, r := range rs {
			v += len(Evaluate(r, sampleNow))
			n++
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "resources/s")
	b.ReportMetric(float64(v)/float64(n), "violations/resource")
}

// BenchmarkAuditor adds the account facts to BenchmarkEvaluate.
func BenchmarkAuditor(b *testing.B) {
	benchAuditor(b, loadSample(b, "fourd.ndjson"))
}

// BenchmarkAuditorSamples is BenchmarkAuditor over every sample inventory
// (NDJSON, AWS Config, Terraform): the Terraform users record no policy
// lists, so their checks run again with witnesses put in (judged), as on
// the partial records of a real estate.
func BenchmarkAuditorSamples(b *testing.B) {
	files, _ := filepath.Glob("../../testdata/inventory/*")
	var rs []engine.Resource
	for _, f := range files {
		rs = append(rs, loadSample(b, filepath.Base(f))...)
	}
	benchAuditor(b, rs)
}

// benchAuditor audits rs once a round (evaluation, account facts, Finish)
// and reports resources per second.
func benchAuditor(b *testing.B, rs []engine.Resource) {
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		a := NewAuditor(sampleNow)
		for _, r := range rs {
			a.Evaluate(r)
			n++
		}
		a.Finish()
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "resources/s")
}

// BenchmarkAuditorInventory is BenchmarkAuditor over the first
// FOURD_BENCH_LINES (default 50,000) resources of the NDJSON inventory
// FOURD_BENCH_INVENTORY (e.g. scripts/gen-inventory.sh's 1M file), with
// each violation's evidence JSON and finding id: the evaluation part of
// `fourd audit` on that inventory's mix, without the stores. Skipped
// without the variable.
func BenchmarkAuditorInventory(b *testing.B) {
	path := os.Getenv("FOURD_BENCH_INVENTORY")
	if path == "" {
		b.Skip("FOURD_BENCH_INVENTORY names no inventory")
	}
	lines := 50_000
	if n, err := strconv.Atoi(os.Getenv("FOURD_BENCH_LINES")); err == nil && n > 0 {
		lines = n
	}
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var head bytes.Buffer
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for i := 0; i < lines && sc.Scan(); i++ {
		head.Write(sc.Bytes())
		head.WriteByte('\n')
	}
	rs := loadReader(b, &head)
	b.ReportAllocs()
	findings := 0
	for b.Loop() {
		a := NewAuditor(sampleNow)
		for _, r := range rs {
			for _, v := range a.Evaluate(r) {
				_ = engine.FindingID("bench", v.Rule.ID, r.NativeID)
				_ = v.EvidenceJSON()
				findings++
			}
		}
		a.Finish()
	}
	b.ReportMetric(float64(len(rs)*b.N)/b.Elapsed().Seconds(), "resources/s")
	b.ReportMetric(float64(findings)/float64(b.N), "findings/op")
}
