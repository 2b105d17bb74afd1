package rest

import (
	"context"
	"net/http"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// requestInfo is what the layers of one request tell each other: the
// outermost layer creates it, the router fills the route, authentication the
// token id, and the access log and metrics read it at the end.
type requestInfo struct {
	requestID string
	start     time.Time
	route     string // the ServeMux pattern, or "unmatched"
	tokenID   string
	errCode   string
	encoding  string // the content coding compress negotiated; "" for none
}

type ctxKey int

const (
	infoKey ctxKey = iota
	principalKey
)

// infoFrom returns the request's info; a zero one when the request did not
// pass through the outer layer (never in production; handy in tests).
func infoFrom(ctx context.Context) *requestInfo {
	if info, ok := ctx.Value(infoKey).(*requestInfo); ok {
		return info
	}
	return &requestInfo{}
}

// RequestID returns the request id (req_…) of the request ctx belongs to,
// or "" outside a request served by this package.
func RequestID(ctx context.Context) string { return infoFrom(ctx).requestID }

// PrincipalFrom returns the authenticated caller of the request ctx belongs
// to, and false when the request is not authenticated.
func PrincipalFrom(ctx context.Context) (engine.Principal, bool) {
	p, ok := ctx.Value(principalKey).(engine.Principal)
	return p, ok && p.Authenticated()
}

// WithPrincipal returns ctx carrying p (for middleware that authenticates
// by other means, such as the OAuth layer of issue 4, and for tests).
func WithPrincipal(ctx context.Context, p engine.Principal) context.Context {
	return context.WithValue(ctx, principalKey, p)
}

// withRequestInfo is the outermost layer: it gives the request its id,
// sets X-Request-Id before anything can answer, and records the start.
func (a *api) withRequestInfo(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		now := a.cfg.Now()
		info := &requestInfo{requestID: engine.NewID(engine.PrefixRequest, now), start: now, route: "unmatched"}
		w.Header().Set("X-Request-Id", info.requestID)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), infoKey, info)))
	})
}
