package rest

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/fourd-dev/fourd/engine"
)

// handlerFunc is the shape of every handler: it writes a success response
// or returns an error, which serveError turns into the envelope.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

// statusOf maps an error code to its HTTP status.
var statusOf = map[string]int{
	engine.CodeUnauthorized:          http.StatusUnauthorized,
	engine.CodeInsufficientScope:     http.StatusForbidden,
	engine.CodeNotFound:              http.StatusNotFound,
	engine.CodeMethodNotAllowed:      http.StatusMethodNotAllowed,
	engine.CodeInvalidRequest:        http.StatusBadRequest,
	engine.CodeInvalidCursor:         http.StatusBadRequest,
	engine.CodeInvalidLimit:          http.StatusUnprocessableEntity,
	engine.CodeInvalidSeverityFilter: http.StatusUnprocessableEntity,
	engine.CodeValidationFailed:      http.StatusUnprocessableEntity,
	engine.CodeConflict:              http.StatusConflict,
	engine.CodePayloadTooLarge:       http.StatusRequestEntityTooLarge,
	engine.CodeRateLimited:           http.StatusTooManyRequests,
	engine.CodeInternal:              http.StatusInternalServerError,
	engine.CodeUnavailable:           http.StatusServiceUnavailable,
}

// StatusOf returns the HTTP status for err's code; unknown codes are 500.
func StatusOf(err error) int {
	if s, ok := statusOf[engine.ErrorCode(err)]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// errorBody is the error envelope every non-2xx response carries.
type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Code      string `json:"code"`
	Message   string `json:"message"`
	RequestID string `json:"request_id"`
}

// serveError answers r with err in the error envelope (under /oauth/, an
// RFC 6749 body: serveOAuthError). Internal errors are
// logged with the request id and answered with a generic message; an
// unauthorized answer carries WWW-Authenticate as RFC 6750 asks.
func (a *api) serveError(w http.ResponseWriter, r *http.Request, err error) {
	if isOAuthPath(r.URL.Path) {
		a.serveOAuthError(w, r, err)
		return
	}
	code := engine.ErrorCode(err)
	status, ok := statusOf[code]
	if !ok {
		code, status = engine.CodeInternal, http.StatusInternalServerError
	}
	msg := engine.ErrorMessage(err)
	info := infoFrom(r.Context())
	if code == engine.CodeInternal && errors.Is(r.Context().Err(), context.Canceled) {
		// The client went away before the answer (a body cut off, a
		// closed connection): the failure that follows is not the server's.
		a.log.InfoContext(r.Context(), "client went away", "request_id", info.requestID,
			"method", r.Method, "path", r.URL.Path, "err", err)
		code, status, msg = engine.CodeInvalidRequest, http.StatusBadRequest, "the client closed the connection before the answer was ready"
	}
	switch {
	case status >= 500 && code != engine.CodeUnavailable:
		a.log.ErrorContext(r.Context(), "request failed", "request_id", info.requestID,
			"method", r.Method, "path", r.URL.Path, "code", code, "err", err)
		if code == engine.CodeInternal {
			msg = "internal error; quote the request id to support"
		}
	case code == engine.CodeUnavailable:
		if w.Header().Get("Retry-After") == "" {
			w.Header().Set("Retry-After", retryAfterUnavailable)
		}
		a.log.WarnContext(r.Context(), "store unavailable", "request_id", info.requestID,
			"method", r.Method, "path", r.URL.Path, "err", err)
	case code == engine.CodeUnauthorized:
		w.Header().Set("WWW-Authenticate", `Bearer realm="fourd"`)
		if r.Header.Get("Authorization") != "" {
			w.Header().Set("WWW-Authenticate", `Bearer realm="fourd", error="invalid_token"`)
		}
	case code == engine.CodeInsufficientScope:
		w.Header().Set("WWW-Authenticate", `Bearer realm="fourd", error="insufficient_scope"`)
	}
	info.errCode = code
	writeJSON(w, status, errorBody{Error: errorDetail{Code: code, Message: msg, RequestID: info.requestID}})
}

// errMethodNotAllowed is the error for a known path with the wrong method;
// the caller sets Allow.
func errMethodNotAllowed(method string, allow []string) error {
	return engine.Errorf(engine.CodeMethodNotAllowed, "method %s is not allowed here; allowed: %s",
		method, strings.Join(allow, ", "))
}

// errNoRoute is the error for a path no route serves.
func errNoRoute(path string) error {
	return engine.Errorf(engine.CodeNotFound, "no endpoint at %s; see /v1/openapi.json", truncate(path, 100))
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return strings.ToValidUTF8(s, "?")
}

// handle adapts a handlerFunc to http.Handler, answering its error.
func (a *api) handle(h handlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r); err != nil {
			a.serveError(w, r, err)
		}
	})
}

// isMaxBytes reports whether err comes from http.MaxBytesReader.
func isMaxBytes(err error) bool {
	var mb *http.MaxBytesError
	return errors.As(err, &mb)
}
