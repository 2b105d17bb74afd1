package graph

import (
	"context"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
)

// A store that is down or hung: a query's work has the deadline
// Config.ReadTimeout, and an answer with an unavailable error is sent with
// HTTP 503 and Retry-After (its data, if any, still in the body), as the
// REST API answers such reads.

// DefaultReadTimeout bounds a query when Config.ReadTimeout is 0.
const DefaultReadTimeout = 5 * time.Second

// retryAfterUnavailable is the Retry-After of a 503 answer, in seconds.
const retryAfterUnavailable = "5"

// unavailableKey finds the request's unavailableFlag in a context.
type unavailableKey struct{}

// unavailableFlag is set when an error of the request's answer has the
// unavailable code.
type unavailableFlag struct{ set atomic.Bool }

// withUnavailableFlag gives ctx a flag the error presenter sets.
func withUnavailableFlag(ctx context.Context) (context.Context, *unavailableFlag) {
	f := &unavailableFlag{}
	return context.WithValue(ctx, unavailableKey{}, f), f
}

// markUnavailable sets ctx's flag, if it has one.
func markUnavailable(ctx context.Context) {
	if f, ok := ctx.Value(unavailableKey{}).(*unavailableFlag); ok {
		f.set.Store(true)
	}
}

// unavailableWriter answers 503 with Retry-After instead of 200 when the
// flag is set by the time the answer's status is written.
type unavailableWriter struct {
	http.ResponseWriter
	flag  *unavailableFlag
	wrote bool
}

func (w *unavailableWriter) WriteHeader(status int) {
	if !w.wrote {
		w.wrote = true
		if status == http.StatusOK && w.flag.set.Load() {
			w.Header().Set("Retry-After", retryAfterUnavailable)
			status = http.StatusServiceUnavailable
		}
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *unavailableWriter) Write(p []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(p)
}

// queryDeadline gives a query operation (not a mutation, whose writes
// must not be cut short) the deadline d.
func queryDeadline(d time.Duration) graphql.OperationMiddleware {
	return func(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
		oc := graphql.GetOperationContext(ctx)
		if d <= 0 || oc == nil || oc.Operation == nil || oc.Operation.Operation != ast.Query {
			return next(ctx)
		}
		respond := next(ctx)
		return func(ctx context.Context) *graphql.Response {
			ctx, cancel := context.WithTimeout(ctx, d)
			defer cancel()
			return respond(ctx)
		}
	}
}
