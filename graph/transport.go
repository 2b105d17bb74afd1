package graph

import (
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/fourd-dev/fourd/engine"
)

// The transports answer by the GraphQL-over-HTTP specification (see
// media.go): a request that is not well-formed (body not a JSON object, a
// parameter of the wrong type, no query) is 400 in both media types; a
// well-formed one that fails before execution is 200 under
// application/json and 400 (429 for a spent budget) under
// application/graphql-response+json; an executed one is 200. Unlike
// gqlgen's transports, every error carries a code.

// getTransport serves GET /graphql?query=…&variables=…&operationName=…
// (and automatic persisted queries by hash). GET never runs a mutation,
// also not one found by its persisted hash: that is method_not_allowed with
// Allow: POST.
type getTransport struct {
	check func(query string) *gqlerror.Error // checkDocument
}

var _ graphql.Transport = getTransport{}

func (getTransport) Supports(r *http.Request) bool {
	return r.Method == http.MethodGet && r.Header.Get("Upgrade") == ""
}

func (t getTransport) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		writeGQLError(w, r, exec, http.StatusBadRequest, engine.CodeInvalidRequest, "the query string is malformed")
		return
	}
	raw := &graphql.RawParams{Query: q.Get("query"), OperationName: q.Get("operationName"), Headers: r.Header}
	raw.ReadTime.Start = graphql.Now()
	for name, dst := range map[string]*map[string]any{"variables": &raw.Variables, "extensions": &raw.Extensions} {
		if s := q.Get(name); s != "" {
			dec := json.NewDecoder(strings.NewReader(s))
			dec.UseNumber()
			if err := dec.Decode(dst); err != nil || *dst == nil {
				writeGQLError(w, r, exec, http.StatusBadRequest, engine.CodeInvalidRequest, name+" must be a JSON object")
				return
			}
		}
	}
	raw.ReadTime.End = graphql.Now()
	operate(w, r, exec, raw, true, t.check)
}

// postTransport serves POST /graphql with a JSON body {query, variables,
// operationName, extensions}; the gate has bounded the body and checked it
// is a JSON object.
type postTransport struct {
	check func(query string) *gqlerror.Error // checkDocument
}

var _ graphql.Transport = postTransport{}

func (postTransport) Supports(r *http.Request) bool {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return r.Method == http.MethodPost && r.Header.Get("Upgrade") == "" && err == nil && mt == mediaJSON
}

func (t postTransport) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	raw := &graphql.RawParams{Headers: r.Header}
	raw.ReadTime.Start = graphql.Now()
	body, err := io.ReadAll(r.Body)
	if err != nil {
		writeGQLError(w, r, exec, http.StatusBadRequest, engine.CodeInvalidRequest, "the request body could not be read")
		return
	}
	var params struct {
		Query         json.RawMessage `json:"query"`
		OperationName json.RawMessage `json:"operationName"`
		Variables     json.RawMessage `json:"variables"`
		Extensions    json.RawMessage `json:"extensions"`
	}
	if err := json.Unmarshal(body, &params); err != nil {
		writeGQLError(w, r, exec, http.StatusBadRequest, engine.CodeInvalidRequest,
			"the request body must be a JSON object with query, variables and operationName")
		return
	}
	for _, p := range []struct {
		name, kind string
		src        json.RawMessage
		dst        any
	}{
		{"query", "a string", params.Query, &raw.Query},
		{"operationName", "a string", params.OperationName, &raw.OperationName},
		{"variables", "a JSON object", params.Variables, &raw.Variables},
		{"extensions", "a JSON object", params.Extensions, &raw.Extensions},
	} {
		if len(p.src) == 0 || string(p.src) == "null" {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(p.src))
		dec.UseNumber()
		if err := dec.Decode(p.dst); err != nil {
			writeGQLError(w, r, exec, http.StatusBadRequest, engine.CodeInvalidRequest, p.name+" must be "+p.kind+" or null")
			return
		}
	}
	raw.ReadTime.End = graphql.Now()
	operate(w, r, exec, raw, false, t.check)
}

// operate runs one well-formed request (a query, or a persisted query's
// hash) and answers it in the negotiated media type. check measures the
// document before gqlgen parses (or finds in its cache) and validates it.
func operate(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor, raw *graphql.RawParams, queriesOnly bool,
	check func(string) *gqlerror.Error) {
	ctx := r.Context()
	media := responseMedia(r)
	w.Header().Set("Content-Type", contentType(media))
	if raw.Query == "" && raw.Extensions["persistedQuery"] == nil {
		writeGQLError(w, r, exec, http.StatusBadRequest, engine.CodeInvalidRequest,
			"the request has no query: send query (a GraphQL document), or a persisted query's hash in extensions")
		return
	}
	if raw.Query != "" && check != nil {
		if gerr := check(raw.Query); gerr != nil {
			writeDocumentError(w, r, exec, gerr)
			return
		}
	}
	opCtx, gerrs := exec.CreateOperationContext(ctx, raw)
	if gerrs != nil {
		resp := exec.DispatchError(graphql.WithOperationContext(ctx, opCtx), gerrs)
		w.WriteHeader(requestErrorStatus(media, gerrs))
		writeRequestError(w, resp)
		return
	}
	if op := opCtx.Doc.Operations.ForName(opCtx.OperationName); queriesOnly && (op == nil || op.Operation != ast.Query) {
		w.Header().Set("Allow", "POST")
		writeGQLError(w, r, exec, http.StatusMethodNotAllowed, engine.CodeMethodNotAllowed,
			"GET runs queries only; send mutations with POST")
		return
	}
	responses, rctx := exec.DispatchOperation(ctx, opCtx)
	_ = json.NewEncoder(w).Encode(responses(rctx))
}

// responseMedia is the media type the gate negotiated (application/json
// when Accept names none, which the gate has already answered with 406).
func responseMedia(r *http.Request) string {
	if m, ok := negotiate(r); ok {
		return m
	}
	return mediaJSON
}

// writeGQLError answers one coded error through the executor, so the
// presenter adds the request id.
func writeGQLError(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor, status int, code, msg string) {
	gerr := gqlerror.Errorf("%s", msg)
	gerr.Extensions = map[string]any{"code": code}
	resp := exec.DispatchError(r.Context(), gqlerror.List{gerr})
	w.Header().Set("Content-Type", contentType(responseMedia(r)))
	w.WriteHeader(status)
	writeRequestError(w, resp)
}

// writeRequestError writes the answer to a request that did not execute:
// errors (and extensions) but no data entry, as the GraphQL specification
// has request errors (gqlgen's Response always has "data": null).
func writeRequestError(w io.Writer, resp *graphql.Response) {
	_ = json.NewEncoder(w).Encode(struct {
		Errors     gqlerror.List  `json:"errors"`
		Extensions map[string]any `json:"extensions,omitempty"`
	}{resp.Errors, resp.Extensions})
}
