package engine

import "context"

type ctxKey int

const (
	principalKey ctxKey = iota
	requestIDKey
)

// ContextWithPrincipal returns ctx carrying the authenticated caller, as the
// API gate (REST and GraphQL alike) sets it.
func ContextWithPrincipal(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, principalKey, p)
}

// PrincipalFromContext returns the caller set by ContextWithPrincipal; the
// zero Principal (unauthenticated) when there is none.
func PrincipalFromContext(ctx context.Context) Principal {
	p, _ := ctx.Value(principalKey).(Principal)
	return p
}

// ContextWithRequestID returns ctx carrying the request id (req_…) that
// error bodies and logs quote.
func ContextWithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey, id)
}

// RequestIDFromContext returns the request id, or "".
func RequestIDFromContext(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey).(string)
	return id
}
