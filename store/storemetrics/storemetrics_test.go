package storemetrics

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/fourd-dev/fourd/engine"
)

// Observe times every call and counts failed ones by the engine's code; a
// second New on the same registry shares the collectors; nil observes
// nothing.
func TestObserve(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := New(reg)
	call := func(m *Metrics, op string, ret error) (err error) {
		defer m.Observe("audits", op, time.Now(), &err)
		return ret
	}
	_ = call(m, "GetAudit", nil)
	_ = call(New(reg), "GetAudit", engine.ErrNotFound("audit", "aud_x"))
	_ = call(m, "ListAudits", errors.New("connection reset"))
	_ = call(nil, "ListAudits", errors.New("not counted"))
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]uint64{}
	for _, mf := range mfs {
		for _, s := range mf.GetMetric() {
			var labels []string
			for _, l := range s.GetLabel() {
				labels = append(labels, l.GetName()+"="+l.GetValue())
			}
			key := mf.GetName() + "{" + strings.Join(labels, ",") + "}"
			if h := s.GetHistogram(); h != nil {
				got[key] = h.GetSampleCount()
			} else {
				got[key] = uint64(s.GetCounter().GetValue())
			}
		}
	}
	want := map[string]uint64{
		"fourd_store_query_duration_seconds{op=GetAudit,store=audits}":             2,
		"fourd_store_query_duration_seconds{op=ListAudits,store=audits}":           1,
		"fourd_store_errors_total{code=not_found,op=GetAudit,store=audits}":        1,
		"fourd_store_errors_total{code=internal_error,op=ListAudits,store=audits}": 1,
	}
	if len(got) != len(want) {
		t.Errorf("series %v, want %v", got, want)
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%s = %d, want %d (all: %v)", k, got[k], n, got)
		}
	}
}
