package graph

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/fourd-dev/fourd/engine"
)

// Codes only GraphQL has; every other error carries engine's codes, the
// same as REST's. The persisted-query code is the one Apollo clients look
// for to resend the full query.
const (
	codeTooComplex          = "query_too_complex"
	codeTooDeep             = "query_too_deep"
	codeNotAcceptable       = "not_acceptable"
	codePersistedNotFound   = "PERSISTED_QUERY_NOT_FOUND"
	internalMessage         = "internal error; quote the request id to support"
	gqlgenComplexityCode    = "COMPLEXITY_LIMIT_EXCEEDED"
	gqlgenPersistedNotFound = "PERSISTED_QUERY_NOT_FOUND"
)

// protocolCodes maps the codes gqlgen sets on errors found before
// execution to ours.
var protocolCodes = map[string]string{
	errcode.ParseFailed:             engine.CodeInvalidRequest,
	errcode.ValidationFailed:        engine.CodeInvalidRequest,
	gqlgenComplexityCode:            codeTooComplex,
	gqlgenPersistedNotFound:         codePersistedNotFound,
	"PERSISTED_QUERY_NOT_SUPPORTED": engine.CodeInvalidRequest,
}

// presentError is the error presenter: an *engine.Error keeps its code and
// safe message (and field); an error gqlgen or our extensions raised before
// execution (parse, validation, variables, cost, depth) gets its code
// mapped; anything else is internal_error with a generic message, logged
// with the request id. Every error carries extensions.request_id.
func presentError(log *slog.Logger) graphql.ErrorPresenterFunc {
	return func(ctx context.Context, err error) *gqlerror.Error {
		gerr := graphql.DefaultErrorPresenter(ctx, err)
		reqID := engine.RequestIDFromContext(ctx)
		ext := map[string]any{}
		var e *engine.Error
		switch {
		case errors.As(err, &e) && e.Code != engine.CodeInternal:
			gerr.Message = e.Message
			ext["code"] = e.Code
			if e.Code == engine.CodeUnavailable {
				markUnavailable(ctx)
				log.WarnContext(ctx, "store unavailable", "request_id", reqID, "path", gerr.Path.String(), "err", err)
			}
			if e.Field != "" {
				ext["field"] = e.Field
			}
		case gerr.Err == nil && gerr.Extensions["code"] != nil:
			code, _ := gerr.Extensions["code"].(string)
			if mapped, ok := protocolCodes[code]; ok {
				code = mapped
			}
			ext["code"] = code
		default:
			log.ErrorContext(ctx, "graphql operation failed", "request_id", reqID, "path", gerr.Path.String(), "err", err)
			gerr.Message = internalMessage
			ext["code"] = engine.CodeInternal
		}
		ext["request_id"] = reqID
		gerr.Extensions = ext
		gerr.Err = nil
		return gerr
	}
}

// recoverPanic turns a resolver's panic into an internal error (logged by
// the presenter, never shown).
func recoverPanic(ctx context.Context, v any) error {
	return &panicError{v: v}
}

type panicError struct{ v any }

func (p *panicError) Error() string { return fmt.Sprintf("panic in resolver: %v", p.v) }

// statusOf is the HTTP status of an error answered before GraphQL runs.
var statusOf = map[string]int{
	engine.CodeUnauthorized:      http.StatusUnauthorized,
	engine.CodeInsufficientScope: http.StatusForbidden,
	engine.CodeMethodNotAllowed:  http.StatusMethodNotAllowed,
	engine.CodeInvalidRequest:    http.StatusBadRequest,
	engine.CodePayloadTooLarge:   http.StatusRequestEntityTooLarge,
	engine.CodeRateLimited:       http.StatusTooManyRequests,
	engine.CodeUnavailable:       http.StatusServiceUnavailable,
}
