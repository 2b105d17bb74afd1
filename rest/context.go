package rest

import (
	"context"
	"net/http"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/gate"
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

const infoKey ctxKey = 0

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

// withRequestInfo is the outermost layer: the gate gives the request its
// id (in engine's context key, X-Request-Id set before anything can
// answer), and the info records it and the start.
func (a *api) withRequestInfo(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		now := a.cfg.Now()
		ctx := gate.WithRequestID(w, r, now)
		info := &requestInfo{requestID: engine.RequestIDFromContext(ctx), start: now, route: "unmatched"}
		next.ServeHTTP(w, r.WithContext(context.WithValue(ctx, infoKey, info)))
	})
}
