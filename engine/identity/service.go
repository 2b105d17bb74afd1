// Package identity is fourd's identity and OAuth 2.0 server: personal access
// tokens, users' passwords and sign-in, OAuth clients, authorization codes,
// access and refresh tokens, and Authenticate, which turns a bearer token
// into an engine.Principal. engine keeps the vocabulary (Principal, scopes,
// roles, User, Tenant, Token, the error codes); this package keeps the rules.
//
// New returns two values over the same state: the Service, which the API
// adapters (rest, graph) take — every method checks the caller's Principal
// or the OAuth client's credentials — and the Operator, which only cmd/fourd
// holds: issuing tokens, creating and disabling users, registering clients,
// without a Principal, and hearing the read path's change feed for the
// Service's token cache.
package identity

import (
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// Config holds what the identity services need. Tenants and Secret are
// required; the rest have defaults.
type Config struct {
	// Tenants holds tenants, users and personal access tokens.
	Tenants engine.TenantStore
	// Store holds passwords and the OAuth 2.0 records (issue 4); optional:
	// sign-in, OAuth, users and the tokens API are unavailable without it.
	Store Store
	// Secret keys consent sessions (rest keys its CSRF tokens itself); at
	// least 32 bytes.
	Secret []byte
	// TokenCacheSize and TokenCacheTTL bound the in-process cache of token
	// lookups: defaults 10,000 entries and 5 s (at most MaxTokenCacheTTL).
	// A token revoked through another replica stops working here when the
	// change feed reports it (milliseconds; the Service is an
	// engine.ChangeListener), or at worst after the TTL while the feed is
	// down.
	TokenCacheSize int
	TokenCacheTTL  time.Duration
	Logger         *slog.Logger
	Now            func() time.Time
}

// Validate reports the first missing or invalid field.
func (c Config) Validate() error {
	if c.Tenants == nil {
		return errors.New("identity: Tenants is required")
	}
	return engine.CheckSecret("identity", c.Secret)
}

// Service is the identity use cases an API adapter may call.
type Service struct {
	cfg    Config
	log    *slog.Logger
	now    func() time.Time
	tokens *tokenCache
}

// Operator is the operator-only identity actions, for the command line, and
// the Service's change listener (the token cache's purges): they take no
// Principal, so no API adapter holds one.
type Operator struct{ s *Service }

// New returns the Service and the Operator over cfg; they share the token
// cache, so what the Operator changes applies to this process's next request.
func New(cfg Config) (*Service, *Operator, error) {
	if err := cfg.Validate(); err != nil {
		return nil, nil, err
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	s := &Service{cfg: cfg, log: cfg.Logger, now: cfg.Now,
		tokens: newTokenCache(cfg.TokenCacheSize, cfg.TokenCacheTTL, cfg.Now)}
	return s, &Operator{s}, nil
}

var _ engine.ChangeListener = (*Operator)(nil)

// Up is part of engine.ChangeListener (the Operator hears the read path's
// change feed for the Service): token lookups are cached with or without a
// feed (for at most TokenCacheTTL).
func (o *Operator) Up() {}

// Down is part of engine.ChangeListener.
func (o *Operator) Down(error) {}

// Changed drops every cached token lookup when tokens, users or anything
// tenant-wide changed (cached lookups are a few seconds each: all go).
func (o *Operator) Changed(c engine.Change) {
	if c.Kind == engine.ChangeTokens || c.TenantID == "" || c.Kind != engine.ChangeAudits && c.Kind != engine.ChangeOverrides {
		o.s.tokens.purge()
	}
}

// quote quotes a value for an error message, cut at 64 bytes.
func quote(s string) string {
	if len(s) > 64 {
		s = s[:64] + "…"
	}
	return "\"" + strings.ToValidUTF8(s, "?") + "\""
}
