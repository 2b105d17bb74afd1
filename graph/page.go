package graph

import (
	"encoding/json"
	"net/http"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/gate"
)

// servePage serves GraphiQL's page and assets, which need no token: each
// request counts against its address's budget, as /v1's public endpoints
// and requests without a valid token do, and every error (unknown asset,
// wrong method, spent budget) is answered in the API's error envelope
// {"error": {"code", "message", "request_id"}} rather than plain text.
func (h *gqlHandler) servePage(w http.ResponseWriter, r *http.Request) {
	ctx := gate.WithRequestID(w, r, h.cfg.Now())
	reqID := engine.RequestIDFromContext(ctx)
	if err := h.keeper.Anonymous(r, w.Header(), nil); err != nil {
		writeEnvelope(w, http.StatusTooManyRequests, engine.ErrorCode(err), engine.ErrorMessage(err), reqID)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		writeEnvelope(w, http.StatusMethodNotAllowed, engine.CodeMethodNotAllowed,
			"method "+r.Method+" is not allowed here; allowed: GET, HEAD", reqID)
		return
	}
	pw := &pageWriter{ResponseWriter: w}
	h.page.ServeHTTP(pw, r)
	switch {
	case pw.status == http.StatusNotFound:
		writeEnvelope(w, http.StatusNotFound, engine.CodeNotFound, "no GraphiQL asset at "+r.URL.Path, reqID)
	case pw.status >= 400:
		h.cfg.Logger.ErrorContext(ctx, "graphiql page failed", "request_id", reqID, "status", pw.status)
		writeEnvelope(w, http.StatusInternalServerError, engine.CodeInternal, internalMessage, reqID)
	}
}

// pageWriter passes a successful answer through and swallows an error
// answer (its status kept), which servePage then writes in the envelope.
type pageWriter struct {
	http.ResponseWriter
	status int
}

func (p *pageWriter) WriteHeader(code int) {
	if p.status == 0 {
		p.status = code
	}
	if code < 400 {
		p.ResponseWriter.WriteHeader(code)
	}
}

func (p *pageWriter) Write(b []byte) (int, error) {
	if p.status == 0 {
		p.status = http.StatusOK
	}
	if p.status >= 400 {
		return len(b), nil
	}
	return p.ResponseWriter.Write(b)
}

// writeEnvelope answers an error outside GraphQL operations in the API's
// envelope.
func writeEnvelope(w http.ResponseWriter, status int, code, msg, reqID string) {
	h := w.Header()
	for _, k := range []string{"Content-Encoding", "Vary"} {
		h.Del(k)
	}
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{"code": code, "message": msg, "request_id": reqID}})
}
