package rest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/ulule/limiter/v3"
	"github.com/ulule/limiter/v3/drivers/store/memory"
	redisstore "github.com/ulule/limiter/v3/drivers/store/redis"

	"github.com/fourd-dev/fourd/engine"
)

// Rate limit defaults (requests per Period).
const (
	DefaultTokenRate     = 1000 // per token (the spec's default)
	DefaultHeavyRate     = 20   // per token, for report generation, audit start and reanalysis
	DefaultAnonymousRate = 300  // per client address, for requests without a valid token
	DefaultRatePeriod    = time.Minute
)

// DefaultHeavyRoutes are the ServeMux patterns of the heavy endpoints,
// which draw on their own budget.
var DefaultHeavyRoutes = []string{"POST /v1/reports", "POST /v1/audits", "POST /v1/audits/{id}/reanalyze"}

// RateLimitConfig configures a RateLimiter.
type RateLimitConfig struct {
	// Store keeps the counters; nil means an in-memory store (one
	// replica). Use NewRedisLimitStore so that replicas share budgets.
	Store limiter.Store
	// TokenRate is a token's default budget per Period; a token's or
	// OAuth client's own rate (Principal.RateLimit) replaces it.
	TokenRate int64
	// HeavyRate is the budget per token and Period of HeavyRoutes.
	HeavyRate int64
	// AnonymousRate is the budget per client address and Period of
	// requests without a valid token (sign-in, token endpoint, 401s).
	AnonymousRate int64
	// Period is the window of every budget; default one minute.
	Period time.Duration
	// HeavyRoutes lists ServeMux patterns ("POST /v1/reports") of the heavy
	// endpoints; nil means DefaultHeavyRoutes.
	HeavyRoutes []string
	Logger      *slog.Logger
	// Now is the clock of Retry-After and RateLimit's t; nil is time.Now.
	Now func() time.Time
}

// Validate reports the first invalid field.
func (c RateLimitConfig) Validate() error {
	if c.TokenRate < 0 || c.HeavyRate < 0 || c.AnonymousRate < 0 || c.Period < 0 {
		return errors.New("rest: rate limits and period must not be negative")
	}
	return nil
}

// RateLimiter is the Limiter of issue 4 over github.com/ulule/limiter: per
// token (default 1,000 a minute), per token on heavy endpoints (their own
// smaller budget), and per client address without a token. Every answer
// carries X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset (Unix
// seconds) and the IETF RateLimit-Policy and RateLimit fields naming the
// budget ("token", "heavy" or "address"); a spent budget is 429
// rate_limited with Retry-After.
type RateLimiter struct {
	store limiter.Store
	cfg   RateLimitConfig
	log   *slog.Logger
}

var _ Limiter = (*RateLimiter)(nil)

// NewRateLimiter returns a RateLimiter with cfg's defaults filled in.
func NewRateLimiter(cfg RateLimitConfig) (*RateLimiter, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Store == nil {
		cfg.Store = memory.NewStoreWithOptions(limiter.StoreOptions{Prefix: "fourd", CleanUpInterval: time.Minute})
	}
	if cfg.TokenRate == 0 {
		cfg.TokenRate = DefaultTokenRate
	}
	if cfg.HeavyRate == 0 {
		cfg.HeavyRate = DefaultHeavyRate
	}
	if cfg.AnonymousRate == 0 {
		cfg.AnonymousRate = DefaultAnonymousRate
	}
	if cfg.Period == 0 {
		cfg.Period = DefaultRatePeriod
	}
	if cfg.HeavyRoutes == nil {
		cfg.HeavyRoutes = DefaultHeavyRoutes
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &RateLimiter{store: cfg.Store, cfg: cfg, log: cfg.Logger}, nil
}

// NewRedisLimitStore returns a limiter store in the Redis at url
// (redis://host:port/db), shared by every replica that uses it.
func NewRedisLimitStore(ctx context.Context, url string) (limiter.Store, func() error, error) {
	opt, err := redis.ParseURL(url)
	if err != nil {
		return nil, nil, fmt.Errorf("rest: redis URL: %w", err)
	}
	client := redis.NewClient(opt)
	if err := client.Ping(ctx).Err(); err != nil {
		client.Close()
		return nil, nil, fmt.Errorf("rest: redis at %s is not answering: %w", opt.Addr, err)
	}
	store, err := redisstore.NewStoreWithOptions(client, limiter.StoreOptions{Prefix: "fourd:ratelimit"})
	if err != nil {
		client.Close()
		return nil, nil, fmt.Errorf("rest: redis limiter store: %w", err)
	}
	return store, client.Close, nil
}

// Allow counts r against its budget and sets the rate limit headers on h.
// An authenticated p is limited per token (heavy routes on their own
// budget); the zero Principal per client address. It returns rate_limited
// when the budget is spent. When the store fails, the request is let
// through (and logged): the limiter protects the service, it must not take
// it down.
func (l *RateLimiter) Allow(r *http.Request, p engine.Principal, h http.Header) error {
	policy, key, quota := "token", "tok:"+p.TokenID, l.cfg.TokenRate
	switch {
	case !p.Authenticated():
		policy, key, quota = "address", "ip:"+clientAddress(r), l.cfg.AnonymousRate
	case slices.Contains(l.cfg.HeavyRoutes, r.Pattern):
		policy, key, quota = "heavy", "heavy:"+p.TokenID, l.cfg.HeavyRate
	case p.RateLimit > 0:
		quota = int64(p.RateLimit)
	}
	rate := limiter.Rate{Period: l.cfg.Period, Limit: quota}
	lc, err := l.store.Get(r.Context(), key+":"+strconv.FormatInt(quota, 10), rate)
	if err != nil {
		l.log.WarnContext(r.Context(), "rate limiter store failed; request let through", "err", err)
		return nil
	}
	now := l.cfg.Now()
	resetIn := max(lc.Reset-now.Unix(), 0)
	window := int64(l.cfg.Period / time.Second)
	h.Set("X-RateLimit-Limit", strconv.FormatInt(lc.Limit, 10))
	h.Set("X-RateLimit-Remaining", strconv.FormatInt(lc.Remaining, 10))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(lc.Reset, 10))
	h.Set("RateLimit-Policy", fmt.Sprintf(`"%s";q=%d;w=%d`, policy, lc.Limit, window))
	h.Set("RateLimit", fmt.Sprintf(`"%s";r=%d;t=%d`, policy, lc.Remaining, resetIn))
	if lc.Reached {
		h.Set("Retry-After", strconv.FormatInt(max(resetIn, 1), 10))
		what := map[string]string{"token": "this token", "heavy": "this token on this heavy endpoint",
			"address": "requests without a valid token from this address"}[policy]
		return engine.Errorf(engine.CodeRateLimited, "rate limit of %d requests per %s for %s exceeded; retry after %d s",
			lc.Limit, l.cfg.Period, what, max(resetIn, 1))
	}
	return nil
}

// AllowHeavy charges one heavy operation run through another API (a
// GraphQL startAudit, reanalyzeAudit or generateReport, each alias once)
// to p's heavy budget, the one the heavy routes draw on: rate_limited when
// it is spent. As Allow, it lets the operation through when the store fails.
func (l *RateLimiter) AllowHeavy(ctx context.Context, p engine.Principal) error {
	if !p.Authenticated() {
		return nil
	}
	quota := l.cfg.HeavyRate
	rate := limiter.Rate{Period: l.cfg.Period, Limit: quota}
	lc, err := l.store.Get(ctx, "heavy:"+p.TokenID+":"+strconv.FormatInt(quota, 10), rate)
	if err != nil {
		l.log.WarnContext(ctx, "rate limiter store failed; heavy operation let through", "err", err)
		return nil
	}
	if lc.Reached {
		resetIn := max(lc.Reset-l.cfg.Now().Unix(), 1)
		return engine.Errorf(engine.CodeRateLimited, "rate limit of %d heavy operations (audits, reanalyses, reports; REST and GraphQL together) per %s for this token exceeded; retry after %d s",
			lc.Limit, l.cfg.Period, resetIn)
	}
	return nil
}

// clientAddress is the host part of r.RemoteAddr (which the proxy header
// layer rewrites when the handler trusts proxies).
func clientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
