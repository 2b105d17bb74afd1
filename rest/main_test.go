package rest

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestMain fails a run in which the REST tests talked to a server but no
// response was checked against the OpenAPI document (the validation must
// stay active for the whole suite), and a whole run in which a documented
// operation never answered a validated 2xx.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 && envsStarted.Load() > 0 && validatedResponses.Load() == 0 {
		fmt.Fprintln(os.Stderr, "rest: servers were started but no response was validated against openapi.json")
		code = 1
	}
	// A whole run must have a validated 2xx answer of every documented
	// operation (validate_request_test.go).
	if ops := uncoveredOperations(); envsStarted.Load() > 0 && len(ops) > 0 {
		fmt.Fprintf(os.Stderr, "rest: no 2xx answer to these documented operations was validated against openapi.json:\n  %s\n",
			strings.Join(ops, "\n  "))
		code = max(code, 1)
	}
	if testing.Verbose() {
		fmt.Fprintf(os.Stderr, "rest: %d responses validated against openapi.json\n", validatedResponses.Load())
	}
	os.Exit(code)
}
