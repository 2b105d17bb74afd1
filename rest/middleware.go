package rest

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/gorilla/handlers"
)

// middleware wraps the router in the layers every request passes, outermost
// first: request id, proxy headers (when trusted), metrics and access log,
// CORS (when configured), compression, panic recovery, body size limit.
func (a *api) middleware(h http.Handler) http.Handler {
	h = a.limitBody(h)
	h = a.readDeadline(h)
	h = a.recovery(h)
	h = a.compress(h)
	if len(a.cfg.CORSOrigins) > 0 {
		cors := handlers.CORS(
			handlers.AllowedOrigins(a.cfg.CORSOrigins),
			handlers.AllowedMethods([]string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPatch, http.MethodDelete}),
			handlers.AllowedHeaders([]string{"Authorization", "Content-Type", "Idempotency-Key"}),
			handlers.ExposedHeaders([]string{"X-Request-Id", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "Retry-After"}),
			handlers.MaxAge(600),
		)(h)
		h = a.envelopeBareErrors(cors)
	}
	h = a.instrument(h)
	if a.cfg.TrustProxyHeaders {
		h = handlers.ProxyHeaders(h)
	}
	return a.withRequestInfo(h)
}

// accessLog writes one structured line per request (instrument calls it
// when the request is answered). It logs the token id, never the token.
func (a *api) accessLog(r *http.Request, info *requestInfo, path string, sw *statusWriter, took time.Duration) {
	level := slog.LevelInfo
	if sw.status() >= 500 {
		level = slog.LevelError
	}
	if !a.log.Enabled(r.Context(), level) {
		return
	}
	a.log.LogAttrs(r.Context(), level, "http request",
		slog.String("request_id", info.requestID),
		slog.String("method", r.Method),
		slog.String("path", path),
		slog.String("route", info.route),
		slog.Int("status", sw.status()),
		slog.Int("bytes", sw.bytes),
		slog.Duration("duration", took),
		slog.String("token_id", info.tokenID),
		slog.String("error_code", info.errCode),
		slog.String("remote", r.RemoteAddr),
	)
}

// recovery answers a panicking handler with a generic internal_error in the
// envelope, logging the panic and its stack with the request id; nothing of
// the panic reaches the caller. When the handler had already begun its
// answer, the connection is aborted instead.
func (a *api) recovery(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w}
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler { //nolint:errorlint // the sentinel is compared, as net/http does
				panic(v)
			}
			info := infoFrom(r.Context())
			a.log.ErrorContext(r.Context(), "handler panicked", "request_id", info.requestID,
				"method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			if sw.code != 0 {
				panic(http.ErrAbortHandler)
			}
			a.serveError(sw, r, fmt.Errorf("panic: %v", v))
		}()
		next.ServeHTTP(sw, r)
	})
}

// limitBody bounds request bodies: a declared length over the limit is
// answered at once; otherwise reading past the limit fails, and decodeJSON
// turns that into payload_too_large.
func (a *api) limitBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		limit := a.cfg.MaxBodyBytes
		if r.Method == http.MethodPost && r.URL.Path == "/v1/resources" {
			limit = max(limit, a.cfg.InventoryMaxBodyBytes) // inventory batches stream
		}
		if r.ContentLength > limit {
			w.Header().Set("Connection", "close")
			a.serveError(w, r, errTooLarge(&http.MaxBytesError{Limit: limit}))
			return
		}
		if r.Body != nil && r.Body != http.NoBody {
			r.Body = http.MaxBytesReader(w, r.Body, limit)
			readBody(r)
		}
		next.ServeHTTP(w, r)
	})
}

// readDeadline gives a read request (GET, HEAD) the deadline
// Config.ReadTimeout, which the stores' reads inherit: a store that is down
// or hung answers 503 unavailable within it. An export is the exception:
// its total time grows with the tenant, so streamExport bounds its
// preparation and each store page by ReadTimeout instead.
func (a *api) readDeadline(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if a.cfg.ReadTimeout > 0 && (r.Method == http.MethodGet || r.Method == http.MethodHead) && !isExportPath(r.URL.Path) {
			ctx, cancel := context.WithTimeout(r.Context(), a.cfg.ReadTimeout)
			defer cancel()
			r = r.WithContext(ctx)
		}
		next.ServeHTTP(w, r)
	})
}

// envelopeBareErrors gives an error status that a third-party layer (the
// CORS preflight check) answers without a body the error envelope, so that
// every non-2xx response has one.
func (a *api) envelopeBareErrors(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		bw := &bareErrorWriter{ResponseWriter: w}
		next.ServeHTTP(bw, r)
		if bw.pending != 0 {
			err := engine.Errorf(engine.CodeInvalidRequest,
				"the CORS preflight asks for a method or header this API does not allow")
			a.serveError(w, r, err)
		}
	})
}

// bareErrorWriter holds back an error status until a body follows; if none
// does, the status is left pending for envelopeBareErrors.
type bareErrorWriter struct {
	http.ResponseWriter
	pending int
}

func (w *bareErrorWriter) WriteHeader(code int) {
	if code >= 400 && w.pending == 0 {
		w.pending = code
		return
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *bareErrorWriter) Write(b []byte) (int, error) {
	if w.pending != 0 {
		w.ResponseWriter.WriteHeader(w.pending)
		w.pending = 0
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *bareErrorWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
