package main

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"

	"github.com/fourd-dev/fourd/rest"
)

// limitSettings configure the API's rate limits (FOURD_REDIS_URL,
// FOURD_RATE_LIMIT*).
type limitSettings struct {
	RedisURL  string // empty: in-memory counters (one replica)
	Token     int64  // requests a minute per token
	Heavy     int64  // per token on heavy endpoints
	Anonymous int64  // per client address without a valid token
}

func loadLimitSettings(get func(name, def string) string) (limitSettings, error) {
	s := limitSettings{RedisURL: get("FOURD_REDIS_URL", "")}
	if s.RedisURL != "" {
		if err := checkURL("FOURD_REDIS_URL", s.RedisURL, "redis", "rediss"); err != nil {
			return s, err
		}
	}
	for _, v := range []struct {
		name string
		def  int64
		dst  *int64
	}{{"FOURD_RATE_LIMIT", rest.DefaultTokenRate, &s.Token}, {"FOURD_RATE_LIMIT_HEAVY", rest.DefaultHeavyRate, &s.Heavy},
		{"FOURD_RATE_LIMIT_ANONYMOUS", rest.DefaultAnonymousRate, &s.Anonymous}} {
		raw := get(v.name, strconv.FormatInt(v.def, 10))
		n, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || n < 1 {
			return s, fmt.Errorf("%s=%q: want a positive number of requests a minute", v.name, raw)
		}
		*v.dst = n
	}
	return s, nil
}

// newLimiter returns the API's rate limiter and a function that releases
// its Redis connection.
func newLimiter(ctx context.Context, s limitSettings, log *slog.Logger) (*rest.RateLimiter, func(), error) {
	cfg := rest.RateLimitConfig{TokenRate: s.Token, HeavyRate: s.Heavy, AnonymousRate: s.Anonymous, Logger: log}
	closeFn := func() {}
	if s.RedisURL != "" {
		store, closeRedis, err := rest.NewRedisLimitStore(ctx, s.RedisURL)
		if err != nil {
			return nil, nil, fmt.Errorf("FOURD_REDIS_URL: %w", err)
		}
		cfg.Store, closeFn = store, func() { _ = closeRedis() }
	}
	l, err := rest.NewRateLimiter(cfg)
	if err != nil {
		closeFn()
		return nil, nil, err
	}
	return l, closeFn, nil
}
