package rules

import "testing"

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
