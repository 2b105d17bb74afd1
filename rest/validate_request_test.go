package rest

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
)

// A request the server accepted (2xx) must be one the document allows:
// its parameters and body as openapi.json describes them. A server that
// takes what the document calls invalid (a limit out of range, a field
// the schema does not have) is a contract the document does not tell.
// The suite's every accepted request is checked, and every documented
// operation (but /oauth/*'s) must have been answered with a validated 2xx
// at least once in a whole run of the package's tests.

// covered records, per documented operation ("GET /v1/findings"), whether
// a 2xx answer to it was validated.
var covered = struct {
	sync.Mutex
	ops map[string]bool
}{ops: map[string]bool{}}

// checkAcceptedRequest validates a request that got status against the
// operation route documents, and records the operation as covered.
func checkAcceptedRequest(t testing.TB, req *http.Request, route *routers.Route, pathParams map[string]string, status int) {
	t.Helper()
	if status < 200 || status > 299 {
		return
	}
	covered.Lock()
	covered.ops[route.Method+" "+route.Path] = true
	covered.Unlock()
	in := &openapi3filter.RequestValidationInput{
		Request: req, PathParams: pathParams, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, MultiError: true},
	}
	if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
		msg := err.Error()
		if len(msg) > 1000 {
			msg = msg[:1000] + "…"
		}
		t.Errorf("%s %s was answered %d but openapi.json does not allow the request: %s", req.Method, req.URL, status, msg)
	}
}

// rewindBody gives a sent request its body again, for checkAcceptedRequest.
func rewindBody(req *http.Request, body []byte) {
	if body != nil {
		req.Body = io.NopCloser(strings.NewReader(string(body)))
	}
}

// uncoveredOperations lists the documented operations no validated 2xx
// answered in this run, when the run was the package's whole suite (no
// -run, -skip or -short); nil otherwise.
func uncoveredOperations() []string {
	for _, name := range []string{"test.run", "test.skip"} {
		if f := flag.Lookup(name); f == nil || f.Value.String() != "" {
			return nil
		}
	}
	if testing.Short() {
		return nil
	}
	spec, err := loadSpec()
	if err != nil {
		return []string{fmt.Sprintf("openapi.json: %v", err)}
	}
	covered.Lock()
	defer covered.Unlock()
	var out []string
	for p, item := range spec.doc.Paths.Map() {
		if strings.HasPrefix(p, "/oauth/") {
			// The OAuth flows' successes (the consent page, its redirect,
			// a token) are driven by golang.org/x/oauth2 and a cookie-jar
			// browser client, not by do: their refusals are validated,
			// their successes checked by the OAuth tests themselves.
			continue
		}
		for method := range item.Operations() {
			if !covered.ops[method+" "+p] {
				out = append(out, method+" "+p)
			}
		}
	}
	slices.Sort(out)
	return out
}
