package graph

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/fourd-dev/fourd/engine"
)

// getTransport serves GET /graphql?query=…&variables=…&operationName=…
// (and automatic persisted queries by hash). GET never runs a mutation,
// also not one found by its persisted hash: that is method_not_allowed with
// Allow: POST. Unlike gqlgen's GET transport, every error carries a code.
type getTransport struct{}

var _ graphql.Transport = getTransport{}

func (getTransport) Supports(r *http.Request) bool {
	return r.Method == http.MethodGet && r.Header.Get("Upgrade") == ""
}

func (getTransport) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	w.Header().Set("Content-Type", "application/json")
	ctx := r.Context()
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
			if err := dec.Decode(dst); err != nil {
				writeGQLError(w, r, exec, http.StatusBadRequest, engine.CodeInvalidRequest, name+" must be a JSON object")
				return
			}
		}
	}
	raw.ReadTime.End = graphql.Now()
	opCtx, gerrs := exec.CreateOperationContext(ctx, raw)
	if gerrs != nil {
		resp := exec.DispatchError(graphql.WithOperationContext(ctx, opCtx), gerrs)
		w.WriteHeader(statusForErrors(gerrs))
		_ = json.NewEncoder(w).Encode(resp)
		return
	}
	if op := opCtx.Doc.Operations.ForName(opCtx.OperationName); op == nil || op.Operation != ast.Query {
		w.Header().Set("Allow", "POST")
		writeGQLError(w, r, exec, http.StatusMethodNotAllowed, engine.CodeMethodNotAllowed,
			"GET runs queries only; send mutations with POST")
		return
	}
	responses, rctx := exec.DispatchOperation(ctx, opCtx)
	_ = json.NewEncoder(w).Encode(responses(rctx))
}

// writeGQLError answers one coded error through the executor, so the
// presenter adds the request id.
func writeGQLError(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor, status int, code, msg string) {
	gerr := gqlerror.Errorf("%s", msg)
	gerr.Extensions = map[string]any{"code": code}
	resp := exec.DispatchError(r.Context(), gqlerror.List{gerr})
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(resp)
}

// statusForErrors is 422 for errors found before execution (parse,
// validation, cost, depth), as gqlgen's transports answer them; 200 for a
// persisted query the server does not know, so Apollo clients resend it.
func statusForErrors(errs gqlerror.List) int {
	for _, e := range errs {
		if c, _ := e.Extensions["code"].(string); c == gqlgenPersistedNotFound {
			return http.StatusOK
		}
	}
	return http.StatusUnprocessableEntity
}
