package rest

import (
	"context"
	_ "embed"
	"fmt"
	"net/http"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
)

// openAPIJSON is the hand-written OpenAPI 3.1 document of the API. Tests
// validate every response the suite receives against it.
//
//go:embed openapi.json
var openAPIJSON []byte

// OpenAPI returns the OpenAPI 3.1 document served at /v1/openapi.json.
func OpenAPI() []byte { return append([]byte(nil), openAPIJSON...) }

var openAPIOnce = sync.OnceValues(func() (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(openAPIJSON)
	if err != nil {
		return nil, fmt.Errorf("rest: loading openapi.json: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("rest: openapi.json is not valid: %w", err)
	}
	return doc, nil
})

// openAPIDocument returns the parsed, validated document (parsed once).
func openAPIDocument() (*openapi3.T, error) { return openAPIOnce() }

// serveOpenAPI serves GET /v1/openapi.json; it needs no token.
func serveOpenAPI(w http.ResponseWriter, r *http.Request) error {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "public, max-age=300")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(openAPIJSON)
	return nil
}
