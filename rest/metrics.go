package rest

import (
	"errors"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// latencyBuckets suit an API whose pages answer in milliseconds.
var latencyBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}

// httpMetrics are the HTTP server's Prometheus collectors.
type httpMetrics struct {
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	inFlight prometheus.Gauge
	auth     *prometheus.HistogramVec

	mu     sync.RWMutex
	routes map[routeMetricsKey]routeMetrics
}

func newHTTPMetrics(reg prometheus.Registerer) *httpMetrics {
	return &httpMetrics{
		routes: map[routeMetricsKey]routeMetrics{},
		requests: register(reg, prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "fourd_http_requests_total",
			Help: "HTTP requests answered, by route pattern, method and status.",
		}, []string{"route", "method", "status"})),
		latency: register(reg, prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "fourd_http_request_duration_seconds",
			Help:    "Time to answer an HTTP request, by route pattern and method.",
			Buckets: latencyBuckets,
		}, []string{"route", "method"})),
		inFlight: register(reg, prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "fourd_http_requests_in_flight",
			Help: "HTTP requests being answered.",
		})),
		auth: register(reg, prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "fourd_http_authentication_duration_seconds",
			Help:    "Time to authenticate a bearer token, by result (ok or the error code).",
			Buckets: latencyBuckets,
		}, []string{"result"})),
	}
}

// register registers c, or returns the equal collector already registered
// (two handlers may share one registry).
func register[C prometheus.Collector](reg prometheus.Registerer, c C) C {
	if err := reg.Register(c); err != nil {
		var are prometheus.AlreadyRegisteredError
		if errors.As(err, &are) {
			if existing, ok := are.ExistingCollector.(C); ok {
				return existing
			}
		}
		panic("rest: registering metrics: " + err.Error())
	}
	return c
}

func (m *httpMetrics) observeAuth(d time.Duration, err error) {
	result := "ok"
	if err != nil {
		result = engine.ErrorCode(err)
	}
	m.auth.WithLabelValues(result).Observe(d.Seconds())
}

// instrument counts, times and logs (accessLog) every request by the route
// that served it.
func (a *api) instrument(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.metrics.inFlight.Inc()
		sw := &statusWriter{ResponseWriter: w}
		path := r.URL.Path
		defer func() {
			a.metrics.inFlight.Dec()
			info := infoFrom(r.Context())
			took := a.cfg.Now().Sub(info.start)
			m := a.metrics.forRoute(info.route, r.Method, sw.status())
			m.requests.Inc()
			m.latency.Observe(took.Seconds())
			a.accessLog(r, info, path, sw, took)
		}()
		next.ServeHTTP(sw, r)
	})
}

// routeMetrics are the collectors of one route, method and status with
// their labels resolved: resolving labels hashes and checks every value,
// which a request need not pay again.
type routeMetrics struct {
	requests prometheus.Counter
	latency  prometheus.Observer
}

type routeMetricsKey struct {
	route, method string
	status        int
}

// maxRouteMetrics bounds the resolved collectors kept (methods come from
// clients); past it they are resolved per request.
const maxRouteMetrics = 4096

func (m *httpMetrics) forRoute(route, method string, status int) routeMetrics {
	k := routeMetricsKey{route, method, status}
	m.mu.RLock()
	rm, ok := m.routes[k]
	m.mu.RUnlock()
	if ok {
		return rm
	}
	rm = routeMetrics{requests: m.requests.WithLabelValues(route, method, strconv.Itoa(status)),
		latency: m.latency.WithLabelValues(route, method)}
	m.mu.Lock()
	if len(m.routes) < maxRouteMetrics {
		m.routes[k] = rm
	}
	m.mu.Unlock()
	return rm
}

// statusWriter remembers the status a handler answered with and counts
// the bytes of the body.
type statusWriter struct {
	http.ResponseWriter
	code  int
	bytes int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

func (w *statusWriter) status() int {
	if w.code == 0 {
		return http.StatusOK
	}
	return w.code
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// MetricsHandler serves the registry in the Prometheus exposition format.
// It needs no token; bind it to a separate, private address, or set
// Config.MetricsOnAPI to serve it at /metrics on the API handler.
func MetricsHandler(reg *prometheus.Registry) http.Handler {
	return promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg})
}
