// Package graph is fourd's GraphQL API (gqlgen): the same data and rules as
// the REST API, through the same findings.Service (and identity.Service for
// authentication). Schema files (*.graphqls)
// live beside the resolvers; gqlgen generates graph/generated and
// graph/model/models_gen.go from them (go generate ./graph).
package graph

import (
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/fourd-dev/fourd/engine/audit"
	"github.com/fourd-dev/fourd/engine/dashboard"
	"github.com/fourd-dev/fourd/engine/findings"
	"github.com/fourd-dev/fourd/engine/identity"
	"github.com/fourd-dev/fourd/engine/mutes"
	"github.com/fourd-dev/fourd/engine/policies"
	"github.com/fourd-dev/fourd/engine/posture"
	"github.com/fourd-dev/fourd/engine/reporting"
	"github.com/fourd-dev/fourd/engine/triage"
	"github.com/fourd-dev/fourd/graph/generated"
	"github.com/fourd-dev/fourd/graph/graphiql"
	"github.com/fourd-dev/fourd/internal/gate"
)

// Defaults for the zero values of Config.
const (
	DefaultPath          = "/graphql"
	DefaultAPQCacheSize  = 1000
	DefaultQueryCacheLen = 1000
	DefaultMaxBodyBytes  = 1 << 20
)

// Config configures the GraphQL handler. Service and Identity are required.
type Config struct {
	Service *findings.Service
	// Audits starts, reanalyzes and cancels audits (engine/audit);
	// optional, those mutations answer unavailable without it.
	Audits *audit.Service
	// Reports lists, generates and reads reports (engine/reporting);
	// Compliance judges the compliance posture (engine/posture). Optional:
	// those fields answer unavailable without them.
	Reports    *reporting.Service
	Compliance *posture.Service
	// Dashboard ranks open findings (engine/dashboard); optional, the
	// rankings answer unavailable without it.
	Dashboard *dashboard.Service
	// Triage changes findings and reads their activity (engine/triage);
	// optional, those fields answer unavailable without it.
	Triage *triage.Service
	// Policies keeps custom policies (engine/policies); optional, those
	// fields answer unavailable without it.
	Policies *policies.Service
	// Mutes keeps mute rules (engine/mutes); optional, those fields
	// answer unavailable without it.
	Mutes *mutes.Service
	// Identity authenticates bearer tokens (engine/identity).
	Identity *identity.Service
	Logger   *slog.Logger
	// Path is where the handler is mounted; GraphiQL's assets are served
	// under Path + "/assets/". Default /graphql.
	Path string
	// MaxComplexity is the most an operation may cost (see cost.go);
	// default DefaultMaxComplexity.
	MaxComplexity int
	// MaxDepth is how deeply selections may nest; default DefaultMaxDepth.
	MaxDepth int
	// MaxQueryBytes, MaxQueryFields and MaxMutations bound a document
	// before it is validated (see limits.go); defaults DefaultMaxQueryBytes,
	// DefaultMaxQueryFields, DefaultMaxMutations.
	MaxQueryBytes  int
	MaxQueryFields int
	MaxMutations   int
	// Heavy charges heavy mutations to the caller's heavy budget; nil
	// means Limiter when it is a HeavyLimiter (rest.RateLimiter is), so
	// that GraphQL and REST draw on one budget.
	Heavy HeavyLimiter
	// APQCacheSize bounds the automatic persisted queries kept (LRU).
	APQCacheSize int
	// MaxBodyBytes bounds a POST body; default 1 MiB.
	MaxBodyBytes int64
	// Authenticate makes the handler authenticate the Bearer token itself
	// when no outer gate put a Principal in the request context (with
	// engine.ContextWithPrincipal). Leave it false behind such a gate.
	Authenticate bool
	// Limiter counts each request against the caller's request rate (the
	// REST limiter); nil means none, e.g. when an outer gate counts it.
	Limiter Limiter
	// CostBudget is charged each operation's cost; nil means
	// NewCostBudget(DefaultCostPerMinute). Set NoCostBudget to disable.
	CostBudget   CostBudget
	NoCostBudget bool
	// ReadTimeout is the deadline of a query's work (and of the token's
	// check), store reads included: a store down or hung answers 503
	// unavailable within it. 0 means DefaultReadTimeout; negative, none.
	ReadTimeout time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Validate reports a configuration NewHandler would reject.
func (c Config) Validate() error {
	switch {
	case c.Service == nil || c.Identity == nil:
		return errors.New("graph: Service and Identity are required")
	case c.MaxComplexity < 0 || c.MaxDepth < 0 || c.APQCacheSize < 0 || c.MaxBodyBytes < 0 ||
		c.MaxQueryBytes < 0 || c.MaxQueryFields < 0 || c.MaxMutations < 0:
		return errors.New("graph: limits must not be negative")
	case c.Path != "" && (!strings.HasPrefix(c.Path, "/") || strings.HasSuffix(c.Path, "/")):
		return errors.New("graph: Path must start with / and not end with /")
	}
	return nil
}

func (c Config) withDefaults() Config {
	if c.Logger == nil {
		c.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if c.Path == "" {
		c.Path = DefaultPath
	}
	if c.MaxComplexity == 0 {
		c.MaxComplexity = DefaultMaxComplexity
	}
	if c.MaxDepth == 0 {
		c.MaxDepth = DefaultMaxDepth
	}
	if c.MaxQueryBytes == 0 {
		c.MaxQueryBytes = DefaultMaxQueryBytes
	}
	if c.MaxQueryFields == 0 {
		c.MaxQueryFields = DefaultMaxQueryFields
	}
	if c.MaxMutations == 0 {
		c.MaxMutations = DefaultMaxMutations
	}
	if hl, ok := c.Limiter.(HeavyLimiter); ok && c.Heavy == nil {
		c.Heavy = hl
	}
	if c.APQCacheSize == 0 {
		c.APQCacheSize = DefaultAPQCacheSize
	}
	if c.MaxBodyBytes == 0 {
		c.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if c.CostBudget == nil && !c.NoCostBudget {
		c.CostBudget = NewCostBudget(DefaultCostPerMinute)
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.ReadTimeout == 0 {
		c.ReadTimeout = DefaultReadTimeout
	}
	return c
}

type gqlHandler struct {
	cfg    Config
	srv    *handler.Server
	page   http.Handler
	keeper *gate.Gate // the one gate REST shares (internal/gate)
}

// NewHandler returns the GraphQL endpoint: POST (queries and mutations)
// and GET with query parameters (queries only) behind the gate, and
// GraphiQL for a browser's GET without a query, with its bundled assets.
func NewHandler(cfg Config) (http.Handler, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	es := generated.NewExecutableSchema(generated.Config{
		Resolvers:  &Resolver{svc: cfg.Service, audits: cfg.Audits, reports: cfg.Reports, posture: cfg.Compliance, mutes: cfg.Mutes, policies: cfg.Policies, triage: cfg.Triage, dashboard: cfg.Dashboard, log: cfg.Logger},
		Complexity: complexity(),
	})
	srv := handler.New(es)
	h := &gqlHandler{cfg: cfg, srv: srv, page: graphiql.Handler(cfg.Path),
		keeper: &gate.Gate{Limiter: cfg.Limiter, Timeout: cfg.ReadTimeout, Now: cfg.Now}}
	if cfg.Authenticate {
		h.keeper.Identity = cfg.Identity
	}
	srv.AddTransport(transport.Options{AllowedMethods: []string{http.MethodGet, http.MethodPost, http.MethodOptions}})
	srv.AddTransport(getTransport{check: h.checkDocument})
	srv.AddTransport(postTransport{check: h.checkDocument})
	srv.SetQueryCache(newGQLCache[*ast.QueryDocument](DefaultQueryCacheLen))
	srv.Use(extension.Introspection{}) // every caller is authenticated by the gate
	srv.Use(persistedQueries{extension.AutomaticPersistedQuery{Cache: newGQLCache[string](cfg.APQCacheSize)}})
	srv.Use(depthLimit{limit: cfg.MaxDepth})
	srv.Use(extension.FixedComplexityLimit(cfg.MaxComplexity))
	if cfg.CostBudget != nil {
		srv.Use(costCharge{budget: cfg.CostBudget})
	}
	srv.AroundOperations(queryDeadline(cfg.ReadTimeout))
	srv.SetErrorPresenter(presentError(cfg.Logger))
	srv.SetRecoverFunc(recoverPanic)
	srv.AroundFields(h.chargeHeavy)
	return h, nil
}

// ServeHTTP routes GraphiQL (page and assets, public but rate-limited per
// address: the page asks for a token and sends it) and GraphQL operations
// (behind the gate).
func (h *gqlHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, h.cfg.Path+"/assets/") ||
		(r.Method == http.MethodGet && r.URL.RawQuery == "" && acceptsHTML(r)) {
		h.servePage(w, r)
		return
	}
	h.gate(w, r)
}

// acceptsHTML reports whether a browser asks for a page.
func acceptsHTML(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/html")
}
