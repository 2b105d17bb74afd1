// Package storemetrics times the stores' calls into Prometheus: the
// ClickHouse and PostgreSQL stores each observe their calls, next to the
// `defer wrap(&err, …)` that names the call in its error, so that no
// per-method wrapper has to stand between the engine and a store.
package storemetrics

import (
	"errors"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/prometheus/client_golang/prometheus"
)

// Buckets suit store calls that answer in milliseconds (they are the HTTP
// server's buckets, so the two histograms line up on a dashboard).
var Buckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}

// Metrics are the store-call collectors: fourd_store_query_duration_seconds
// by store interface and operation, and fourd_store_errors_total by store
// interface, operation and error code (not_found is an answer, not a
// failure, and is counted like any other code so that dashboards can tell
// them apart). A nil *Metrics observes nothing.
type Metrics struct {
	duration *prometheus.HistogramVec
	errors   *prometheus.CounterVec
}

// New registers the collectors in reg, or reuses the equal ones already
// registered there (both stores, and several servers in one test process,
// share one registry).
func New(reg prometheus.Registerer) *Metrics {
	return &Metrics{
		duration: register(reg, prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "fourd_store_query_duration_seconds",
			Help:    "Time of a store call, by store interface and operation.",
			Buckets: Buckets,
		}, []string{"store", "op"})),
		errors: register(reg, prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "fourd_store_errors_total",
			Help: "Store calls that returned an error, by store interface, operation and error code.",
		}, []string{"store", "op", "code"})),
	}
}

// Observe records one call of op on the store interface named store
// ("findings", "tenants", …) that started at start and ended with *errp.
// Stores defer it before their `defer wrap(&err, …)`, so that it runs
// after wrap and counts the error by the code the engine will see:
//
//	defer s.metrics.Observe("findings", "ListFindings", time.Now(), &err)
//	defer wrap(&err, "ListFindings(%q)", q.TenantID)
func (m *Metrics) Observe(store, op string, start time.Time, errp *error) {
	if m == nil {
		return
	}
	m.duration.WithLabelValues(store, op).Observe(time.Since(start).Seconds())
	if errp != nil && *errp != nil {
		m.errors.WithLabelValues(store, op, engine.ErrorCode(*errp)).Inc()
	}
}

// register registers c, or returns the equal collector already registered.
func register[C prometheus.Collector](reg prometheus.Registerer, c C) C {
	if err := reg.Register(c); err != nil {
		var are prometheus.AlreadyRegisteredError
		if errors.As(err, &are) {
			if existing, ok := are.ExistingCollector.(C); ok {
				return existing
			}
		}
		panic("storemetrics: registering metrics: " + err.Error())
	}
	return c
}
