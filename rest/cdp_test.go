package rest

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/fourd-dev/fourd/rest/cdptest"
)

// cdp is the headless Chromium page of rest/cdptest under the names this
// package's browser tests use.
type cdp struct{ p *cdptest.Page }

func chromiumOrSkip(t *testing.T) string { return cdptest.ChromiumOrSkip(t) }

func startChromium(t *testing.T, ctx context.Context, bin, url string) *cdp {
	t.Helper()
	return &cdp{cdptest.Start(t, ctx, bin, url)}
}

func (c *cdp) eval(t *testing.T, ctx context.Context, expr string) json.RawMessage {
	t.Helper()
	return c.p.Eval(t, ctx, expr)
}

func (c *cdp) waitFor(t *testing.T, ctx context.Context, expr string) {
	t.Helper()
	c.p.WaitFor(t, ctx, expr)
}

func (c *cdp) screenshot(t *testing.T, ctx context.Context, path string) {
	t.Helper()
	c.p.Screenshot(t, ctx, path)
}

func jsString(s string) string { return cdptest.JSString(s) }

// pressEnter sends the Enter key to the focused element, as a person
// typing would (a form's implicit submission).
func (c *cdp) pressEnter(t *testing.T, ctx context.Context) {
	t.Helper()
	for _, typ := range []string{"keyDown", "keyUp"} {
		ev := map[string]any{"type": typ, "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13, "nativeVirtualKeyCode": 13}
		if typ == "keyDown" {
			ev["text"] = "\r"
		}
		c.p.Call(t, ctx, "Input.dispatchKeyEvent", ev, nil)
	}
}
