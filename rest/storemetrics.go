package rest

import (
	"context"
	"iter"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/prometheus/client_golang/prometheus"
)

// storeMetrics time every store call by store and operation and count its
// errors by code (not_found is an answer, not a failure, and is counted
// like any other code so dashboards can tell them apart).
type storeMetrics struct {
	duration *prometheus.HistogramVec
	errors   *prometheus.CounterVec
}

func (m *storeMetrics) observe(store, op string, start time.Time, err error) {
	m.duration.WithLabelValues(store, op).Observe(time.Since(start).Seconds())
	if err != nil {
		m.errors.WithLabelValues(store, op, engine.ErrorCode(err)).Inc()
	}
}

// InstrumentStores returns c with every store wrapped so that its query
// durations (fourd_store_query_duration_seconds) and errors
// (fourd_store_errors_total) are recorded in reg. cmd/fourd calls it before
// engine.NewService, with the registry it gives Config.Registry. Wrapped
// stores keep answering Ping, so /readyz still checks them.
func InstrumentStores(reg prometheus.Registerer, c engine.Config) engine.Config {
	m := &storeMetrics{
		duration: register(reg, prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "fourd_store_query_duration_seconds",
			Help:    "Time of a store call, by store interface and operation.",
			Buckets: latencyBuckets,
		}, []string{"store", "op"})),
		errors: register(reg, prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "fourd_store_errors_total",
			Help: "Store calls that returned an error, by store interface, operation and error code.",
		}, []string{"store", "op", "code"})),
	}
	c.Findings = findingStore{c.Findings, m}
	c.Resources = resourceStore{c.Resources, m}
	c.Tenants = tenantStore{c.Tenants, m}
	c.Audits = auditStore{c.Audits, m}
	c.Policies = policyStore{c.Policies, m}
	c.Reports = reportStore{c.Reports, m}
	return c
}

// ping forwards to the wrapped store when it is an engine.Pinger.
func ping(ctx context.Context, s any) error {
	if p, ok := s.(engine.Pinger); ok {
		return p.Ping(ctx)
	}
	return nil
}

type findingStore struct {
	s engine.FindingStore
	m *storeMetrics
}

func (w findingStore) Ping(ctx context.Context) error { return ping(ctx, w.s) }

// Degraded forwards to the wrapped store when it is an engine.Degrader.
func (w findingStore) Degraded(ctx context.Context) []string {
	if d, ok := w.s.(engine.Degrader); ok {
		return d.Degraded(ctx)
	}
	return nil
}

func (w findingStore) ListFindings(ctx context.Context, q engine.FindingQuery) (out []engine.Finding, err error) {
	defer func(t time.Time) { w.m.observe("findings", "ListFindings", t, err) }(time.Now())
	return w.s.ListFindings(ctx, q)
}

func (w findingStore) GetFinding(ctx context.Context, tenantID, auditID, id string) (out engine.Finding, err error) {
	defer func(t time.Time) { w.m.observe("findings", "GetFinding", t, err) }(time.Now())
	return w.s.GetFinding(ctx, tenantID, auditID, id)
}

func (w findingStore) CountFindings(ctx context.Context, q engine.FindingCountQuery) (out []engine.FindingCount, err error) {
	defer func(t time.Time) { w.m.observe("findings", "CountFindings", t, err) }(time.Now())
	return w.s.CountFindings(ctx, q)
}

func (w findingStore) WriteSnapshot(ctx context.Context, tenantID, auditID string, fs iter.Seq2[engine.Finding, error]) (n int64, err error) {
	defer func(t time.Time) { w.m.observe("findings", "WriteSnapshot", t, err) }(time.Now())
	return w.s.WriteSnapshot(ctx, tenantID, auditID, fs)
}

type resourceStore struct {
	s engine.ResourceStore
	m *storeMetrics
}

func (w resourceStore) Ping(ctx context.Context) error { return ping(ctx, w.s) }

func (w resourceStore) ListResources(ctx context.Context, q engine.ResourceQuery) (out []engine.Resource, err error) {
	defer func(t time.Time) { w.m.observe("resources", "ListResources", t, err) }(time.Now())
	return w.s.ListResources(ctx, q)
}

func (w resourceStore) GetResource(ctx context.Context, tenantID, id string) (out engine.Resource, err error) {
	defer func(t time.Time) { w.m.observe("resources", "GetResource", t, err) }(time.Now())
	return w.s.GetResource(ctx, tenantID, id)
}

func (w resourceStore) GetResources(ctx context.Context, tenantID string, ids []string) (out []engine.Resource, err error) {
	defer func(t time.Time) { w.m.observe("resources", "GetResources", t, err) }(time.Now())
	return w.s.GetResources(ctx, tenantID, ids)
}

func (w resourceStore) GetResourcesPartial(ctx context.Context, tenantID string, ids []string, f engine.ResourceFields) (out []engine.Resource, err error) {
	defer func(t time.Time) { w.m.observe("resources", "GetResourcesPartial", t, err) }(time.Now())
	return w.s.GetResourcesPartial(ctx, tenantID, ids, f)
}

func (w resourceStore) WriteResources(ctx context.Context, tenantID string, rs iter.Seq2[engine.Resource, error]) (out engine.WriteResourcesResult, err error) {
	defer func(t time.Time) { w.m.observe("resources", "WriteResources", t, err) }(time.Now())
	return w.s.WriteResources(ctx, tenantID, rs)
}

// WriteResourcesNotify forwards to a store that reports new resources as
// it writes them; over one that cannot, it writes and then reads the new
// ones back.
func (w resourceStore) WriteResourcesNotify(ctx context.Context, tenantID string, resources iter.Seq2[engine.Resource, error],
	prepare func([]engine.Resource) func() error) (res engine.WriteResourcesResult, err error) {
	defer func(t time.Time) { w.m.observe("resources", "WriteResources", t, err) }(time.Now())
	if n, ok := w.s.(engine.ResourceNotifier); ok {
		return n.WriteResourcesNotify(ctx, tenantID, resources, prepare)
	}
	if res, err = w.s.WriteResources(ctx, tenantID, resources); err != nil || prepare == nil {
		return res, err
	}
	for ids := res.NewIDs; len(ids) > 0; {
		chunk := ids[:min(len(ids), 1000)]
		ids = ids[len(chunk):]
		rs, err := w.s.GetResources(ctx, tenantID, chunk)
		if err == nil {
			err = prepare(rs)()
		}
		if err != nil {
			return res, err
		}
	}
	return res, nil
}
