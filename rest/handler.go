package rest

import (
	"context"
	"crypto/subtle"
	"log/slog"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/audit"
	"github.com/fourd-dev/fourd/engine/dashboard"
	"github.com/fourd-dev/fourd/engine/exports"
	"github.com/fourd-dev/fourd/engine/findings"
	"github.com/fourd-dev/fourd/engine/idempotency"
	"github.com/fourd-dev/fourd/engine/identity"
	"github.com/fourd-dev/fourd/engine/ingest"
	"github.com/fourd-dev/fourd/engine/mutes"
	"github.com/fourd-dev/fourd/engine/policies"
	"github.com/fourd-dev/fourd/engine/posture"
	"github.com/fourd-dev/fourd/engine/reporting"
	"github.com/fourd-dev/fourd/engine/triage"
	"github.com/fourd-dev/fourd/engine/webhooks"
	"github.com/fourd-dev/fourd/internal/gate"
)

// api is the REST handler's state: the Service it adapts and its
// configuration, metrics and routes.
type api struct {
	cfg     Config
	svc     *findings.Service
	ids     *identity.Service
	audits  *audit.Service     // nil: audit writes answer unavailable
	hooks   *webhooks.Service  // nil: the webhook use cases answer unavailable
	ingest  *ingest.Service    // nil: POST /v1/resources answers unavailable
	reports *reporting.Service // nil: reports answer unavailable
	posture *posture.Service   // nil: compliance answers unavailable
	mutes   *mutes.Service     // nil: mute rules answer unavailable
	// policies keeps custom policies; nil: /v1/policies answers unavailable.
	// exports streams the findings and resources exports; nil: those answer
	// unavailable.
	exports *exports.Service
	// triage changes findings and reads their activity; nil: those answer
	// unavailable.
	triage *triage.Service
	// idempotency keeps Idempotency-Key records; nil: the header is
	// refused (unavailable).
	idempotency *idempotency.Service
	policies    *policies.Service
	// dashboard ranks open findings; nil: the rankings answer unavailable.
	dashboard *dashboard.Service
	log       *slog.Logger
	metrics   *httpMetrics
	mux       *http.ServeMux
	bodies    *pageBodies // nil: disabled
	gate      *gate.Gate  // authentication and rate limits, shared with graph
	// patterns lists the registered GET paths (the OpenAPI test compares
	// them with the document's).
	patterns []string
}

// New returns the REST API handler: /v1 behind bearer authentication,
// /v1/openapi.json, /healthz and /readyz in public, and /metrics when
// cfg.MetricsOnAPI is set. Every response carries X-Request-Id and every
// non-2xx response the error envelope.
func New(cfg Config) (http.Handler, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	if _, err := openAPIDocument(); err != nil {
		return nil, err
	}
	a := &api{cfg: cfg, svc: cfg.Service, ids: cfg.Identity, audits: cfg.Audits, hooks: cfg.Webhooks, ingest: cfg.Ingest, reports: cfg.Reports, posture: cfg.Compliance, mutes: cfg.Mutes, policies: cfg.Policies, exports: cfg.Exports, triage: cfg.Triage, idempotency: cfg.Idempotency, dashboard: cfg.Dashboard, log: cfg.Logger, metrics: newHTTPMetrics(cfg.Registry), mux: http.NewServeMux(),
		bodies: newPageBodies(cfg.PageBodyCacheBytes)}
	a.gate = a.newGate()
	a.routes()
	return a.middleware(http.HandlerFunc(a.serveRoute)), nil
}

// routes registers every endpoint. The order of the OpenAPI document's
// paths follows this list.
func (a *api) routes() {
	s := a.svc
	a.get("/v1/findings", a.authenticated(a.listFindings))
	a.get("/v1/findings/summary", a.authenticated(a.summarizeFindings))
	a.get("/v1/findings/rankings", a.authenticated(a.rankFindings))
	a.complianceRoutes()
	a.get("/v1/findings/export", a.authenticated(a.exportFindings))
	a.get("/v1/findings/{id}", a.authenticated(getOf(s.GetFinding)))
	a.get("/v1/resources", a.authenticated(a.listResources))
	a.get("/v1/resources/export", a.authenticated(a.exportResources))
	a.get("/v1/resources/{id}", a.authenticated(getOf(s.GetResource)))
	a.get("/v1/resources/{id}/explain", a.authenticated(getOf(s.ExplainResource)))
	a.get("/v1/audits", a.authenticated(listOf(s.ListAudits)))
	a.get("/v1/audits/{id}", a.authenticated(getOf(s.GetAudit)))
	a.get("/v1/policies", a.authenticated(listOf(a.policies.ListPolicies)))
	a.get("/v1/policies/{id}", a.authenticated(getOf(a.policies.GetPolicy)))
	a.get("/v1/reports", a.authenticated(listOf(a.reports.ListReports)))
	a.get("/v1/reports/{id}", a.authenticated(getOf(a.reports.GetReport)))
	a.auditRoutes()
	a.webhookRoutes()
	a.identityRoutes()
	a.reportRoutes()
	a.muteRuleRoutes()
	// Public, but every response carries the X-RateLimit-* headers (the
	// spec's Limits): these count against the caller's address, as
	// requests without a valid token do.
	a.get("/v1/openapi.json", a.anonymous(serveOpenAPI))
	a.get("/healthz", a.anonymous(a.healthz))
	a.get("/readyz", a.anonymous(a.readyz))
	if a.cfg.MetricsOnAPI {
		a.mux.Handle("GET /metrics", a.handle(a.anonymous(a.serveMetrics(MetricsHandler(a.cfg.Registry)))))
	}
}

func (a *api) get(pattern string, h handlerFunc) {
	a.patterns = append(a.patterns, pattern)
	a.mux.Handle("GET "+pattern, a.handle(h))
}

// serveRoute dispatches to the mux, answering what the mux itself would
// answer in plain text (unknown path, wrong method) in the envelope.
func (a *api) serveRoute(w http.ResponseWriter, r *http.Request) {
	if p := r.URL.Path; p == "" || p[0] != '/' || path.Clean(p) != p {
		// ServeMux would redirect to the cleaned path; an API answers
		// not_found instead of a redirect with an HTML body.
		a.serveError(w, r, a.unrouted(w, r, errNoRoute(p)))
		return
	}
	h, pattern := a.mux.Handler(r)
	if pattern == "" {
		cw := &captureWriter{header: http.Header{}}
		h.ServeHTTP(cw, r)
		if cw.code == http.StatusMethodNotAllowed {
			allow := cw.header.Values("Allow")
			w.Header()["Allow"] = allow
			a.serveError(w, r, a.unrouted(w, r, errMethodNotAllowed(r.Method, allow)))
			return
		}
		a.serveError(w, r, a.unrouted(w, r, errNoRoute(r.URL.Path)))
		return
	}
	infoFrom(r.Context()).route = pattern
	a.mux.ServeHTTP(w, r)
}

// unrouted returns err, the answer to a request no route takes, after
// counting the request against its address like any request without a
// valid token (which sets the X-RateLimit-* headers); rate_limited when
// that budget is spent.
func (a *api) unrouted(w http.ResponseWriter, r *http.Request, err error) error {
	return a.gate.Anonymous(r, w.Header(), err)
}

// captureWriter records what the mux's own not-found and
// method-not-allowed handlers answer, without sending it.
type captureWriter struct {
	header http.Header
	code   int
}

func (c *captureWriter) Header() http.Header         { return c.header }
func (c *captureWriter) Write(b []byte) (int, error) { return len(b), nil }
func (c *captureWriter) WriteHeader(code int)        { c.code = code }

// serveMetrics serves GET /metrics on the API, counted against the
// caller's address like other requests without a token, and behind
// Config.MetricsToken when one is set.
func (a *api) serveMetrics(metrics http.Handler) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		if want := a.cfg.MetricsToken; want != "" {
			got := strings.TrimSpace(strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
			if subtle.ConstantTimeCompare([]byte(got), []byte(want)) != 1 {
				return engine.Errorf(engine.CodeUnauthorized, "send Authorization: Bearer <FOURD_METRICS_TOKEN> to read /metrics")
			}
		}
		metrics.ServeHTTP(w, r)
		return nil
	}
}

// healthz serves GET /healthz: the process answers.
func (a *api) healthz(w http.ResponseWriter, r *http.Request) error {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	return nil
}

// readiness is the body of /readyz: "ok", or "degraded" with what is down.
type readiness struct {
	Status   string   `json:"status"`
	Degraded []string `json:"degraded,omitempty"`
}

// readyz serves GET /readyz: the stores answer (503 unavailable if not).
// Part of the ClickHouse cluster down is 200 "degraded": the requests of
// the tenants whose data it holds answer 503 and the others are served,
// the same on every fourd replica, so a load balancer must keep sending
// traffic (docs/scaling.md).
func (a *api) readyz(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), 3*time.Second)
	defer cancel()
	degraded, err := a.svc.Ready(ctx)
	if err != nil {
		return err
	}
	body := readiness{Status: "ok"}
	if len(degraded) > 0 {
		body = readiness{Status: "degraded", Degraded: degraded}
	}
	writeJSON(w, http.StatusOK, body)
	return nil
}
