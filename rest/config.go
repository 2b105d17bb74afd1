package rest

import (
	"errors"
	"log/slog"
	"strings"
	"time"

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
	"github.com/prometheus/client_golang/prometheus"
)

// DefaultMaxBodyBytes bounds request bodies when Config.MaxBodyBytes is 0.
const DefaultMaxBodyBytes int64 = 1 << 20

// DefaultReadTimeout bounds a read request (GET, HEAD) when
// Config.ReadTimeout is 0: a store that is down or hung answers 503
// unavailable after at most this long, not after the driver's timeouts.
const DefaultReadTimeout = 5 * time.Second

// retryAfterUnavailable is the Retry-After of a 503 unavailable answer, in
// seconds.
const retryAfterUnavailable = "5"

// Limiter is the seam for rate limiting (issue 4): it runs after
// authentication with the caller's Principal. Allow returns nil to let the
// request through, or an error (rate_limited for a spent budget) that is
// answered in the error envelope. It may set headers such as
// X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset and
// Retry-After on h.
type Limiter = gate.Limiter

// Config holds what the REST handler needs. Service and Identity are
// required; the rest have defaults.
type Config struct {
	Service *findings.Service
	// Identity authenticates bearer tokens and serves the tokens API and
	// the OAuth 2.0 endpoints (engine/identity; never its Operator).
	Identity *identity.Service
	// Audits starts, reanalyzes and cancels audits (engine/audit);
	// optional, those answer 503 unavailable without it.
	Audits *audit.Service
	// Webhooks serves the webhook endpoints and events APIs
	// (engine/webhooks); optional, they answer 503 unavailable without it.
	Webhooks *webhooks.Service
	// Ingest takes inventory (POST /v1/resources, engine/ingest); optional,
	// it answers 503 unavailable without it.
	Ingest *ingest.Service
	// Reports lists, generates and serves reports (engine/reporting);
	// optional, /v1/reports answers 503 unavailable without it.
	Reports *reporting.Service
	// Compliance judges the compliance posture (engine/posture); optional,
	// /v1/compliance answers 503 unavailable without it.
	Compliance *posture.Service
	// Dashboard ranks open findings (engine/dashboard); optional,
	// /v1/findings/rankings answers 503 unavailable without it.
	Dashboard *dashboard.Service
	// Triage changes findings (status, assignee, notes; one or many) and
	// reads their activity (engine/triage); optional, those endpoints
	// answer 503 unavailable without it.
	Triage *triage.Service
	// Idempotency keeps the answers of requests sent with an
	// Idempotency-Key (engine/idempotency); optional, a request with the
	// header answers 503 unavailable without it.
	Idempotency *idempotency.Service
	// Exports streams the findings and resources exports (engine/exports);
	// optional, /v1/findings/export and /v1/resources/export answer 503
	// unavailable without it.
	Exports *exports.Service
	// Policies keeps custom policies (engine/policies); optional,
	// /v1/policies answers 503 unavailable without it.
	Policies *policies.Service
	// Mutes keeps mute rules (engine/mutes); optional, /v1/mute_rules
	// answers 503 unavailable without it.
	Mutes *mutes.Service
	// Secret keys the OAuth consent form's CSRF tokens: at least 32 bytes,
	// the same on every replica (cmd/fourd gives FOURD_SECRET). Without it
	// every consent form is refused as expired.
	Secret []byte
	Logger *slog.Logger
	// CORSOrigins lists the origins browsers may call the API from
	// ("https://app.example.com"); "*" allows any. Empty disables CORS.
	CORSOrigins []string
	// TrustProxyHeaders makes the handler take the client address and scheme
	// from X-Forwarded-For, X-Real-IP and X-Forwarded-Proto. Enable it only
	// behind a proxy that sets them.
	TrustProxyHeaders bool
	// MaxBodyBytes bounds request bodies; larger ones are answered with 413
	// payload_too_large. 0 means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// Registry receives the HTTP metrics; nil means a new private registry.
	Registry *prometheus.Registry
	// MetricsOnAPI serves GET /metrics on the API handler. Leave it false to
	// bind MetricsHandler(Registry) to a separate address instead.
	MetricsOnAPI bool
	// MetricsToken, when set, makes /metrics on the API handler answer only
	// requests with Authorization: Bearer <MetricsToken> (401 otherwise).
	MetricsToken string
	// Limiter rate-limits authenticated requests; nil means no limit.
	Limiter Limiter
	// PageBodyCacheBytes bounds the encoded finding pages the handler keeps
	// (see pageBodies); 0 means DefaultPageBodyCacheBytes, negative
	// disables it.
	PageBodyCacheBytes int
	// InventoryMaxBodyBytes bounds a POST /v1/resources body; 0 means
	// InventoryMaxBodyBytes (50 MiB).
	InventoryMaxBodyBytes int64
	// ReadTimeout is the deadline of a GET or HEAD request's work, its
	// store reads included; past it the answer is 503 unavailable with
	// Retry-After. 0 means DefaultReadTimeout; negative means none.
	ReadTimeout time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Validate reports the first missing or invalid field.
func (c Config) Validate() error {
	switch {
	case c.Service == nil || c.Identity == nil:
		return errors.New("rest: Service and Identity are required")
	case len(c.Secret) > 0 && len(c.Secret) < minSecret:
		return errors.New("rest: Secret must be at least 32 bytes")
	case c.MaxBodyBytes < 0 || c.InventoryMaxBodyBytes < 0:
		return errors.New("rest: MaxBodyBytes and InventoryMaxBodyBytes must not be negative")
	}
	for _, o := range c.CORSOrigins {
		if o != "*" && !strings.HasPrefix(o, "http://") && !strings.HasPrefix(o, "https://") {
			return errors.New("rest: CORS origin " + o + ` must be "*" or start with http:// or https://`)
		}
	}
	return nil
}

func (c Config) withDefaults() Config {
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.MaxBodyBytes == 0 {
		c.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if c.InventoryMaxBodyBytes == 0 {
		c.InventoryMaxBodyBytes = InventoryMaxBodyBytes
	}
	if c.ReadTimeout == 0 {
		c.ReadTimeout = DefaultReadTimeout
	}
	if c.Registry == nil {
		c.Registry = prometheus.NewRegistry()
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.PageBodyCacheBytes == 0 {
		c.PageBodyCacheBytes = DefaultPageBodyCacheBytes
	}
	return c
}
