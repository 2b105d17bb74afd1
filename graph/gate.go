package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/graph/loaders"
	"github.com/fourd-dev/fourd/internal/gate"
)

// Limiter is the request rate limiter REST uses (the one gate's,
// internal/gate): every GraphQL request counts at least one request
// against it.
type Limiter = gate.Limiter

// gate runs before GraphQL: request id, caller, rate limit, method and body
// checks; then it hands the request to gqlgen with the caller and fresh
// dataloaders in the context.
func (h *gqlHandler) gate(w http.ResponseWriter, r *http.Request) {
	ctx := gate.WithRequestID(w, r, h.cfg.Now())
	if _, ok := negotiate(r); !ok {
		writeErrors(w, r, http.StatusNotAcceptable, errorEntry{Message: "Accept names no media type this endpoint answers in: " +
			"send Accept: application/graphql-response+json or application/json",
			Extensions: map[string]any{"code": codeNotAcceptable, "request_id": engine.RequestIDFromContext(ctx)}})
		return
	}
	// The one gate (internal/gate), as on /v1: a request without a valid
	// token counts against its address and carries that budget's
	// X-RateLimit-* headers.
	ctx, p, err := h.keeper.Admit(r.WithContext(ctx), w.Header())
	if err != nil {
		h.fail(ctx, w, r, err)
		return
	}
	switch r.Method {
	case http.MethodGet:
	case http.MethodPost:
		if err := h.checkBody(w, r); err != nil {
			h.fail(ctx, w, r, err)
			return
		}
	default:
		w.Header().Set("Allow", "GET, POST")
		h.fail(ctx, w, r, engine.Errorf(engine.CodeMethodNotAllowed, "method %s is not allowed here; allowed: GET, POST", r.Method))
		return
	}
	ctx = loaders.With(ctx, loaders.New(h.cfg.Service, p))
	ctx, flag := withUnavailableFlag(ctx)
	h.srv.ServeHTTP(&unavailableWriter{ResponseWriter: w, flag: flag}, r.WithContext(ctx))
}

// checkBody reads a POST body (bounded) and checks it is a JSON object, so
// that a malformed request gets a coded error; the body is put back.
func (h *gqlHandler) checkBody(w http.ResponseWriter, r *http.Request) error {
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(strings.ToLower(ct), "application/json") {
		return engine.Errorf(engine.CodeInvalidRequest, "send the operation as Content-Type: application/json")
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.cfg.MaxBodyBytes))
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return engine.Errorf(engine.CodePayloadTooLarge, "the request body is over %d bytes", h.cfg.MaxBodyBytes)
		}
		return engine.Errorf(engine.CodeInvalidRequest, "the request body could not be read")
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(body, &probe); err != nil {
		return engine.Errorf(engine.CodeInvalidRequest, "the request body must be a JSON object with query, variables and operationName")
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	return nil
}

// fail answers an error found before GraphQL runs, in the GraphQL response
// shape with a code, with the matching HTTP status (401 for a missing
// token, as the REST gate answers).
func (h *gqlHandler) fail(ctx context.Context, w http.ResponseWriter, r *http.Request, err error) {
	code := engine.ErrorCode(err)
	status, ok := statusOf[code]
	msg := engine.ErrorMessage(err)
	if !ok {
		status, code, msg = http.StatusInternalServerError, engine.CodeInternal, internalMessage
		h.cfg.Logger.ErrorContext(ctx, "graphql request failed", "request_id", engine.RequestIDFromContext(ctx), "err", err)
	}
	if code == engine.CodeUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="fourd"`)
	}
	if code == engine.CodeUnavailable {
		w.Header().Set("Retry-After", retryAfterUnavailable)
	}
	writeErrors(w, r, status, errorEntry{Message: msg, Extensions: map[string]any{"code": code, "request_id": engine.RequestIDFromContext(ctx)}})
}

type errorEntry struct {
	Message    string         `json:"message"`
	Extensions map[string]any `json:"extensions"`
}

// writeErrors answers errors found before GraphQL runs (no data entry) in
// the negotiated media type.
func writeErrors(w http.ResponseWriter, r *http.Request, status int, errs ...errorEntry) {
	w.Header().Set("Content-Type", contentType(responseMedia(r)))
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"errors": errs})
}
