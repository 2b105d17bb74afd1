// Package cdptest drives a headless Chromium over the Chrome DevTools
// Protocol for tests that need a real browser (the OAuth consent page,
// GraphiQL): start it, evaluate JavaScript, type text, take screenshots.
// It is used by tests only.
package cdptest

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"
)

// Page is a minimal Chrome DevTools Protocol client: enough to drive one
// page of a headless Chromium (evaluate JavaScript, type, take a screenshot).
type Page struct {
	conn    *websocket.Conn
	nextID  int
	session string
}

type cdpMessage struct {
	ID        int             `json:"id,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    any             `json:"params,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *struct {
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

// ChromiumOrSkip returns the chromium binary, skipping the test without one
// (failing it under CI=true).
func ChromiumOrSkip(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is not installed (apt-get install chromium; make test installs it)")
	}
	t.Skip("chromium is not installed (apt-get install chromium)")
	return ""
}

// Start launches headless Chromium with remote debugging, opens url in a
// new page and returns a client attached to it. Chromium is killed when the
// test ends.
func Start(t testing.TB, ctx context.Context, bin, url string) *Page {
	t.Helper()
	profile := t.TempDir()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
		"--remote-debugging-port=0", "--user-data-dir="+profile, "--window-size=900,800", "about:blank")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	// Chromium writes its port and browser target path here once ready.
	var port, path string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		b, err := os.ReadFile(filepath.Join(profile, "DevToolsActivePort"))
		if lines := strings.Split(strings.TrimSpace(string(b)), "\n"); err == nil && len(lines) == 2 {
			port, path = lines[0], lines[1]
			break
		}
	}
	if port == "" {
		t.Fatalf("chromium did not start:\n%.2000s", stderr.String())
	}
	conn, _, err := websocket.Dial(ctx, "ws://127.0.0.1:"+port+path, nil)
	if err != nil {
		t.Fatalf("devtools: %v", err)
	}
	conn.SetReadLimit(64 << 20)
	t.Cleanup(func() { conn.Close(websocket.StatusNormalClosure, "") })
	c := &Page{conn: conn}
	var target struct{ TargetID string }
	c.Call(t, ctx, "Target.createTarget", map[string]any{"url": url}, &target)
	var attached struct{ SessionID string }
	c.Call(t, ctx, "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &attached)
	c.session = attached.SessionID
	return c
}

// Call sends a command and waits for its answer, skipping events; out,
// when not nil, receives the result.
func (c *Page) Call(t testing.TB, ctx context.Context, method string, params any, out any) {
	t.Helper()
	if err := c.call(ctx, method, params, out); err != nil {
		t.Fatal(err)
	}
}

// call is Call returning its failure.
func (c *Page) call(ctx context.Context, method string, params any, out any) error {
	c.nextID++
	id := c.nextID
	if err := wsjson.Write(ctx, c.conn, cdpMessage{ID: id, Method: method, Params: params, SessionID: c.session}); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	for {
		var m cdpMessage
		if err := wsjson.Read(ctx, c.conn, &m); err != nil {
			return fmt.Errorf("%s: %w", method, err)
		}
		if m.ID != id {
			continue
		}
		if m.Error != nil {
			return fmt.Errorf("%s: %s", method, m.Error.Message)
		}
		if out != nil {
			if err := json.Unmarshal(m.Result, out); err != nil {
				return fmt.Errorf("%s: %w", method, err)
			}
		}
		return nil
	}
}

// Eval evaluates a JavaScript expression in the page and returns its
// value as JSON.
func (c *Page) Eval(t testing.TB, ctx context.Context, expr string) json.RawMessage {
	t.Helper()
	v, err := c.eval(ctx, expr)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// eval is Eval returning its failure.
func (c *Page) eval(ctx context.Context, expr string) (json.RawMessage, error) {
	var res struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct{ Text string } `json:"exceptionDetails"`
	}
	if err := c.call(ctx, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}, &res); err != nil {
		return nil, err
	}
	if res.ExceptionDetails != nil {
		return nil, fmt.Errorf("evaluating %q: %s", expr, res.ExceptionDetails.Text)
	}
	return res.Result.Value, nil
}

// WaitFor polls a boolean JavaScript expression until it is true (for at
// most 20 seconds). A poll that fails because the page is navigating
// ("Inspected target navigated or closed") is tried again: the expression
// is usually waiting for that very navigation to finish.
func (c *Page) WaitFor(t testing.TB, ctx context.Context, expr string) {
	t.Helper()
	var last error
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		v, err := c.eval(ctx, expr)
		if err == nil && string(v) == "true" {
			return
		}
		last = err
	}
	t.Fatalf("timed out waiting for %s (last error: %v); page: %s", expr, last, c.Eval(t, ctx, "location.href"))
}

// Screenshot writes a PNG of the page to path.
func (c *Page) Screenshot(t testing.TB, ctx context.Context, path string) {
	t.Helper()
	var shot struct{ Data string }
	c.Call(t, ctx, "Page.captureScreenshot", map[string]any{"format": "png"}, &shot)
	b, err := base64.StdEncoding.DecodeString(shot.Data)
	if err != nil || len(b) < 5000 {
		t.Fatalf("screenshot: %v (%d bytes)", err, len(b))
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// InsertText types text into the focused element as a paste does: one
// input event with the whole text.
func (c *Page) InsertText(t testing.TB, ctx context.Context, text string) {
	t.Helper()
	c.Call(t, ctx, "Input.insertText", map[string]any{"text": text}, nil)
}

// JSString quotes s for JavaScript.
func JSString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
