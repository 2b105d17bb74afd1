package rest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	// The generated client imports oapi-codegen's runtime; importing it
	// here keeps it pinned in go.mod beside the tool (go.mod's tool line).
	_ "github.com/oapi-codegen/runtime"
)

// TestOapiCodegenClient generates the Go client from the served
// /v1/openapi.json with oapi-codegen (pinned in go.mod as a tool), builds
// rest/testdata/oapiclient with it, and runs that program against the
// server: it pages /v1/findings with the severity filter through the
// generated types and must see exactly what the API lists. Skipped only
// when the tool cannot be built.
func TestOapiCodegenClient(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a generated client; not in -short")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build oapi-codegen")
	}
	if out, err := exec.Command(gobin, "tool", "oapi-codegen", "-version").CombinedOutput(); err != nil {
		t.Skipf("oapi-codegen cannot be built here: %v: %s", err, out)
	}
	e := newEnv(t, envOptions{findingsA: 40, findingsB: 5})
	dir := t.TempDir()
	doc := e.get(t, "/v1/openapi.json", "")
	if doc.status != http.StatusOK {
		t.Fatalf("GET /v1/openapi.json: %d", doc.status)
	}
	spec := filepath.Join(dir, "openapi.json")
	if err := os.WriteFile(spec, doc.body, 0o600); err != nil {
		t.Fatal(err)
	}
	client := filepath.Join(dir, "client.go")
	gen := exec.Command(gobin, "tool", "oapi-codegen", "-generate", "types,client", "-package", "main", "-o", client, spec)
	if out, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("oapi-codegen: %v\n%s", err, out)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	overlay, _ := json.Marshal(map[string]map[string]string{"Replace": {
		filepath.Join(wd, "testdata", "oapiclient", "client.go"): client}})
	overlayFile := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(overlayFile, overlay, 0o600); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "oapiclient")
	if out, err := exec.Command(gobin, "build", "-overlay", overlayFile, "-o", bin, "./testdata/oapiclient").CombinedOutput(); err != nil {
		t.Fatalf("the generated client does not compile: %v\n%s", err, out)
	}

	for _, sev := range []engine.Severity{engine.SeverityHigh, engine.SeverityLow} {
		t.Run(string(sev), func(t *testing.T) {
			var want []string
			page := getJSON[struct {
				Data []engine.Finding `json:"data"`
			}](t, e, "/v1/findings?limit=200&severity="+string(sev), e.tokA)
			for _, f := range page.Data {
				want = append(want, f.ID)
			}
			if len(want) < 3 {
				t.Fatalf("seed has %d %s findings; the test needs several pages", len(want), sev)
			}
			out, err := exec.Command(bin, "-url", e.url, "-token", e.tokA, "-severity", string(sev), "-limit", "2").Output()
			if err != nil {
				t.Fatalf("oapiclient: %v: %s", err, errOutput(err))
			}
			var got struct {
				Pages      int      `json:"pages"`
				IDs        []string `json:"ids"`
				Severities []string `json:"severities"`
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("oapiclient printed %q: %v", out, err)
			}
			if !slices.Equal(got.IDs, want) || got.Pages != (len(want)+1)/2 {
				t.Errorf("generated client paged %d pages, %v; want %d pages, %v", got.Pages, got.IDs, (len(want)+1)/2, want)
			}
			for _, s := range got.Severities {
				if s != string(sev) {
					t.Errorf("severity %s in a list filtered by %s", s, sev)
				}
			}
		})
	}
}

func errOutput(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return string(ee.Stderr)
	}
	return fmt.Sprint(err)
}
