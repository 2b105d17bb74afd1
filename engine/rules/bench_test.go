package rules

import (
	"path/filepath"
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
	rs := loadSample(b, "fourd.ndjson")
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
