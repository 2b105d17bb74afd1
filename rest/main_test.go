package rest

import (
	"fmt"
	"os"
	"testing"
)

// TestMain fails a run in which the REST tests talked to a server but no
// response was checked against the OpenAPI document: the validation must
// stay active for the whole suite.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 && envsStarted.Load() > 0 && validatedResponses.Load() == 0 {
		fmt.Fprintln(os.Stderr, "rest: servers were started but no response was validated against openapi.json")
		code = 1
	}
	if testing.Verbose() {
		fmt.Fprintf(os.Stderr, "rest: %d responses validated against openapi.json\n", validatedResponses.Load())
	}
	os.Exit(code)
}
