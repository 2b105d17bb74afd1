package graph_test

import (
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestGraphiQLAssets checks that the page and its bundled assets are served
// without a token, and that the page only references bundled files.
func TestGraphiQLAssets(t *testing.T) {
	e := newEnv(t, envOptions{findingsA: 1})
	req, _ := http.NewRequest(http.MethodGet, e.url+"/graphql", nil)
	req.Header.Set("Accept", "text/html")
	resp, err := e.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(page), "GraphiQL") || strings.Contains(string(page), "https://") {
		t.Fatalf("page: status %d:\n%.300s", resp.StatusCode, page)
	}
	for _, a := range []string{"graphiql.min.js", "graphiql.min.css", "react.production.min.js", "react-dom.production.min.js"} {
		if !strings.Contains(string(page), "/graphql/assets/"+a) {
			t.Errorf("page does not load %s", a)
		}
		resp, err := http.Get(e.url + "/graphql/assets/" + a) // Go's client asks for gzip and inflates
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || len(b) < 1000 {
			t.Errorf("%s: status %d, %d bytes", a, resp.StatusCode, len(b))
		}
	}
	if resp, _ := http.Get(e.url + "/graphql/assets/../graph.go"); resp != nil && resp.StatusCode == 200 {
		t.Errorf("asset path escapes the bundle")
	}
}

// TestGraphiQLInChromium loads GraphiQL in headless Chromium with a token
// and runs the default dashboard query; the screenshot is written to
// $FOURD_GRAPHIQL_SCREENSHOT (or the test's temp dir) for a person to look
// at. Skipped without chromium.
func TestGraphiQLInChromium(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium not installed (apt-get install chromium)")
	}
	e := newEnv(t, envOptions{findingsA: 60})
	out := os.Getenv("FOURD_GRAPHIQL_SCREENSHOT")
	if out == "" {
		out = filepath.Join(t.TempDir(), "graphiql.png")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--user-data-dir="+t.TempDir(),
		"--virtual-time-budget=15000", "--window-size=1280,900", "--screenshot="+out,
		e.url+"/graphql#run=1&token="+e.tokA)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, b)
	}
	st, err := os.Stat(out)
	if err != nil || st.Size() < 10_000 {
		t.Fatalf("screenshot %s: %v (%d bytes)", out, err, st.Size())
	}
	t.Logf("screenshot: %s", out)
}
