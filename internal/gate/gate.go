// Package gate is the one front door of both APIs: REST (/v1) and GraphQL
// (/graphql) give each request its id, authenticate its bearer token and
// count it against its caller's rate limit here, and put the caller in the
// context under engine's key (engine.ContextWithPrincipal), where engine,
// rest and graph all read it. Each API still answers the gate's errors in
// its own documented shape (the REST envelope, GraphQL's errors list).
package gate

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// Authenticator checks a bearer token and returns its caller
// (identity.Service does).
type Authenticator interface {
	Authenticate(ctx context.Context, token string) (engine.Principal, error)
}

// Limiter counts a request against a budget: the caller's, or, for the zero
// Principal, the client address's. Allow returns nil to let the request
// through, or an error (rate_limited for a spent budget); it may set
// X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset and
// Retry-After on h. rest.RateLimiter is one.
type Limiter interface {
	Allow(r *http.Request, p engine.Principal, h http.Header) error
}

// ErrUnauthorized answers a request without a usable Authorization header;
// identity answers the same code for unknown, expired and revoked tokens.
var ErrUnauthorized = engine.Errorf(engine.CodeUnauthorized,
	"send Authorization: Bearer <token> with a valid personal access token")

// Bearer returns the token of an "Authorization: Bearer <token>" header
// (the scheme is case-insensitive, RFC 7235), and false when the header is
// missing, repeated or not one bearer credential.
func Bearer(r *http.Request) (string, bool) {
	hs := r.Header.Values("Authorization")
	if len(hs) != 1 {
		return "", false
	}
	scheme, token, ok := strings.Cut(hs[0], " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimLeft(token, " ")
	if token == "" || strings.ContainsAny(token, " \t") {
		return "", false
	}
	return token, true
}

// WithRequestID gives the request its id and returns its context carrying
// it (engine.ContextWithRequestID): the id an outer layer put in the
// context or already set as the X-Request-Id response header, or a new one
// made at now. X-Request-Id is set before anything can answer.
func WithRequestID(w http.ResponseWriter, r *http.Request, now time.Time) context.Context {
	ctx := r.Context()
	id := engine.RequestIDFromContext(ctx)
	if id == "" {
		id = w.Header().Get("X-Request-Id")
	}
	if id == "" {
		id = engine.NewID(engine.PrefixRequest, now)
	}
	w.Header().Set("X-Request-Id", id)
	return engine.ContextWithRequestID(ctx, id)
}

// Gate authenticates requests and counts them against their rate limits.
// A nil Identity authenticates nothing itself: only a caller an outer gate
// put in the context is admitted. A nil Limiter limits nothing.
type Gate struct {
	Identity Authenticator
	Limiter  Limiter
	// Timeout bounds the token check; 0 means the request's own deadline.
	Timeout time.Duration
	// Observe, when set, hears how long each token check took and its
	// error (the REST server's authentication histogram).
	Observe func(took time.Duration, err error)
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Admit returns r's context carrying its authenticated caller, counted
// against the caller's rate limit (X-RateLimit-* headers go on h). A caller
// already in the context (engine.PrincipalFromContext) is taken as it is;
// otherwise the bearer token is checked. A request without a valid token is
// counted against its address (Anonymous) and answered unauthorized, or
// rate_limited once that budget is spent; an error checking the token
// (unavailable) is returned as it is.
func (g *Gate) Admit(r *http.Request, h http.Header) (context.Context, engine.Principal, error) {
	ctx := r.Context()
	p := engine.PrincipalFromContext(ctx)
	if !p.Authenticated() {
		var err error
		if p, err = g.authenticate(r); err != nil {
			if engine.ErrorCode(err) == engine.CodeUnauthorized {
				err = g.Anonymous(r, h, err)
			}
			return ctx, engine.Principal{}, err
		}
		ctx = engine.ContextWithPrincipal(ctx, p)
	}
	if g.Limiter != nil {
		if err := g.Limiter.Allow(r, p, h); err != nil {
			return ctx, p, err
		}
	}
	return ctx, p, nil
}

// authenticate checks r's bearer token.
func (g *Gate) authenticate(r *http.Request) (engine.Principal, error) {
	token, ok := Bearer(r)
	if !ok || g.Identity == nil {
		return engine.Principal{}, ErrUnauthorized
	}
	ctx := r.Context()
	if g.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, g.Timeout)
		defer cancel()
	}
	now := g.Now
	if now == nil {
		now = time.Now
	}
	start := now()
	p, err := g.Identity.Authenticate(ctx, token)
	if g.Observe != nil {
		g.Observe(now().Sub(start), err)
	}
	if err == nil && !p.Authenticated() {
		err = ErrUnauthorized
	}
	return p, err
}

// Anonymous counts a request that has no caller (no valid token, no route)
// against its client address and returns err, or the limiter's error
// (rate_limited) when the address's budget is spent. Its X-RateLimit-*
// headers go on h.
func (g *Gate) Anonymous(r *http.Request, h http.Header, err error) error {
	if g.Limiter != nil {
		if lerr := g.Limiter.Allow(r, engine.Principal{}, h); lerr != nil {
			return lerr
		}
	}
	return err
}
