package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
)

// The OpenAPI document is checked against every response the REST test
// suite receives: status, headers and body, with openapi3filter. Responses
// to paths or methods the document does not have (404, 405) are checked
// against the document's NotFound and MethodNotAllowed responses.

var requestIDPattern = regexp.MustCompile(`^req_[0-9a-hjkmnp-tv-z]{26}$`)

// validatedResponses counts responses checked against the document, so the
// suite can tell that validation ran.
var validatedResponses atomic.Int64

type specRouter struct {
	doc    *openapi3.T
	router routers.Router
}

var loadSpec = sync.OnceValues(func() (*specRouter, error) {
	// HTML reports are text: their body is checked as a string.
	openapi3filter.RegisterBodyDecoder("text/html", openapi3filter.PlainBodyDecoder)
	// Exports are streams of text: CSV and newline-delimited JSON.
	openapi3filter.RegisterBodyDecoder("text/csv", openapi3filter.PlainBodyDecoder)
	openapi3filter.RegisterBodyDecoder("application/x-ndjson", openapi3filter.PlainBodyDecoder)
	doc, err := openapi3.NewLoader().LoadFromData(openAPIJSON)
	if err != nil {
		return nil, err
	}
	// The document names a templated server; tests call a loopback
	// address, so routing is by path alone.
	doc.Servers = nil
	r, err := legacy.NewRouter(doc)
	if err != nil {
		return nil, err
	}
	return &specRouter{doc: doc, router: r}, nil
})

// checkResponse validates one response against the OpenAPI document and the
// envelope rules: X-Request-Id on every response, and on every non-2xx one
// an error body whose request_id equals it.
func checkResponse(t testing.TB, req *http.Request, status int, header http.Header, body []byte) {
	t.Helper()
	spec, err := loadSpec()
	if err != nil {
		t.Fatalf("loading openapi.json: %v", err)
	}
	rid := header.Get("X-Request-Id")
	if !requestIDPattern.MatchString(rid) {
		t.Errorf("%s %s: X-Request-Id = %q, want req_…", req.Method, req.URL, rid)
	}
	if status >= 300 && isOAuthPath(req.URL.Path) && req.Method != http.MethodHead &&
		strings.HasPrefix(header.Get("Content-Type"), "application/json") {
		// RFC 6749 §5.2 bodies (the authorization page's HTML errors and
		// redirects are checked by the operation's responses below).
		var e oauthErrorBody
		if err := json.Unmarshal(body, &e); err != nil || e.Error == "" {
			t.Errorf("%s %s: %d body is not an RFC 6749 error: %s", req.Method, req.URL, status, body)
		} else if e.RequestID != rid {
			t.Errorf("%s %s: request_id %q != X-Request-Id %q", req.Method, req.URL, e.RequestID, rid)
		}
	} else if status >= 300 && status != http.StatusNotModified && req.Method != http.MethodHead {
		var e errorBody
		if err := json.Unmarshal(body, &e); err != nil || e.Error.Code == "" {
			t.Errorf("%s %s: %d body is not the error envelope: %s", req.Method, req.URL, status, body)
		} else if e.Error.RequestID != rid {
			t.Errorf("%s %s: error.request_id %q != X-Request-Id %q", req.Method, req.URL, e.Error.RequestID, rid)
		}
	}
	routed := req
	if req.Method == http.MethodHead {
		// GET routes answer HEAD; the document lists GET.
		routed = req.Clone(req.Context())
		routed.Method = http.MethodGet
	}
	route, pathParams, err := spec.router.FindRoute(routed)
	if err != nil {
		checkUnroutedResponse(t, spec.doc, req, status, header, body, err)
		return
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{
			Request: req, PathParams: pathParams, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
		},
		Status:  status,
		Header:  header,
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	in.SetBodyBytes(body)
	checkAcceptedRequest(t, req, route, pathParams, status)
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		msg := err.Error()
		if len(msg) > 1500 {
			msg = msg[:1500] + "…"
		}
		t.Errorf("%s %s: response %d does not match openapi.json: %s\nbody: %.500s", req.Method, req.URL, status, msg, body)
		return
	}
	validatedResponses.Add(1)
}

// checkUnroutedResponse validates the answer to a request the document has
// no operation for.
func checkUnroutedResponse(t testing.TB, doc *openapi3.T, req *http.Request, status int, header http.Header, body []byte, routeErr error) {
	t.Helper()
	// 400: a rejected CORS preflight (OPTIONS), which no operation lists.
	name := map[int]string{http.StatusBadRequest: "BadRequest", http.StatusNotFound: "NotFound",
		http.StatusMethodNotAllowed: "MethodNotAllowed"}[status]
	if req.URL.Path == "/metrics" {
		// Prometheus' own format, not part of the API document; its
		// refusals are in the envelope.
		switch status {
		case http.StatusOK:
			return
		case http.StatusUnauthorized:
			name = "Unauthorized"
		case http.StatusTooManyRequests:
			name = "TooManyRequests"
		}
	}
	if name != "" && isOAuthPath(req.URL.Path) {
		name = "OAuth" + name
	}
	if name == "" {
		t.Errorf("%s %s: no documented operation (%v), and status %d is not 400/404/405", req.Method, req.URL, routeErr, status)
		return
	}
	resp := doc.Components.Responses[name].Value
	for h, ref := range resp.Headers {
		if ref.Value.Required && header.Get(h) == "" {
			t.Errorf("%s %s: %d lacks the required header %s", req.Method, req.URL, status, h)
		}
	}
	if req.Method == http.MethodHead {
		validatedResponses.Add(1)
		return
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Errorf("%s %s: %d body is not JSON: %v", req.Method, req.URL, status, err)
		return
	}
	schema := resp.Content.Get("application/json").Schema.Value
	if err := schema.VisitJSON(v, openapi3.EnableJSONSchema2020(), openapi3.MultiErrors()); err != nil {
		t.Errorf("%s %s: %d body does not match components.responses.%s: %v", req.Method, req.URL, status, name, err)
		return
	}
	validatedResponses.Add(1)
}

// response is what a test request got back.
type response struct {
	status int
	header http.Header
	body   []byte
}

// do sends a request to base+path with the bearer token (none when empty),
// checks the response against the document and returns it.
func do(t testing.TB, c *http.Client, method, url, token string, body []byte, header http.Header) response {
	t.Helper()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s %s: reading body: %v", method, url, err)
	}
	rewindBody(req, body)
	checkResponse(t, req, res.StatusCode, res.Header, b)
	return response{status: res.StatusCode, header: res.Header, body: b}
}

// checkWebhookBody validates a webhook body the receiver got against the
// document's webhooks section: its type must be listed there, with a
// schema the body matches.
func checkWebhookBody(t testing.TB, typ string, body []byte) {
	t.Helper()
	spec, err := loadSpec()
	if err != nil {
		t.Fatalf("loading openapi.json: %v", err)
	}
	item := spec.doc.Webhooks[typ]
	if item == nil || item.Post == nil || item.Post.RequestBody == nil {
		t.Errorf("webhook %s is not in openapi.json's webhooks", typ)
		return
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Errorf("webhook %s body is not JSON: %v", typ, err)
		return
	}
	schema := item.Post.RequestBody.Value.Content.Get("application/json").Schema.Value
	if err := schema.VisitJSON(v, openapi3.EnableJSONSchema2020(), openapi3.MultiErrors()); err != nil {
		t.Errorf("webhook %s body does not match openapi.json: %v\n%.500s", typ, err, body)
	}
}
