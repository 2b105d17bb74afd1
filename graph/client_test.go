package graph_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// need skips the test when a tool is missing, or fails it under CI=true.
func need(t *testing.T, tool string) string {
	t.Helper()
	p, err := exec.LookPath(tool)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is required under CI: %v", tool, err)
		}
		t.Skipf("%s not installed: %v", tool, err)
	}
	return p
}

// TestExternalClient checks the schema and the dashboard queries in
// testdata/graphql/queries with a client no one here wrote: graphql-js
// (npm graphql) builds the client schema from the server's introspection
// answer, using graphql-js's own introspection query, and validates them.
func TestExternalClient(t *testing.T) {
	node, npm := need(t, "node"), need(t, "npm")
	dir, err := filepath.Abs("../testdata/graphql")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "graphql")); err != nil {
		cmd := exec.Command(npm, "ci", "--no-audit", "--no-fund")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci: %v\n%s", err, out)
		}
	}
	cmd := exec.Command(node, "--input-type=module", "-e", `import { getIntrospectionQuery } from "graphql"; process.stdout.write(getIntrospectionQuery({descriptions: true}));`)
	cmd.Dir = dir
	q, err := cmd.Output()
	if err != nil {
		t.Fatalf("node getIntrospectionQuery: %v", err)
	}
	e := newEnv(t, envOptions{findingsA: 5})
	r := e.gql(t, e.tokA, string(q), nil)
	if len(r.Errors) > 0 {
		t.Fatalf("introspection: %+v", r.Errors)
	}
	file := filepath.Join(t.TempDir(), "introspection.json")
	b, _ := json.Marshal(map[string]json.RawMessage{"data": r.Data})
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd = exec.Command(node, "check.mjs", file, "queries")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("graphql-js check failed: %v\n%s", err, out)
	}
	if n := strings.Count(string(out), `"ok":true`); n < 5 {
		t.Errorf("only %d queries validated:\n%s", n, out)
	}
	t.Logf("%s", out)

	// Unauthenticated callers get no introspection.
	if r := e.gql(t, "", string(q), nil); r.code() != "unauthorized" || r.status != 401 {
		t.Errorf("introspection without a token: status %d code %q", r.status, r.code())
	}
}
