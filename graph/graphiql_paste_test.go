package graph_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/rest/cdptest"
)

// TestGraphiQLPastedTokenLoadsSchema opens GraphiQL in headless Chromium
// without a token (the Docs pane says "Error fetching schema": every
// operation needs one), pastes a token into the token bar and checks that
// the schema loads at once, with no reload and no button: the Docs pane
// lists the root types and the query editor offers the schema's fields as
// completions. (Before issue 32 the schema stayed unfetched until a reload.)
func TestGraphiQLPastedTokenLoadsSchema(t *testing.T) {
	bin := cdptest.ChromiumOrSkip(t)
	e := newEnv(t, envOptions{findingsA: 3})
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	page := cdptest.Start(t, ctx, bin, e.url+"/graphql")
	page.WaitFor(t, ctx, `document.readyState === "complete" && !!document.querySelector(".graphiql-container")`)
	page.Eval(t, ctx, `document.querySelector('[aria-label="Show Documentation Explorer"]').click(); true`)
	page.WaitFor(t, ctx, `document.body.innerText.includes("Error fetching schema")`)

	page.Eval(t, ctx, `document.getElementById("token").focus(); true`)
	page.InsertText(t, ctx, e.tokA)
	page.WaitFor(t, ctx, `!document.body.innerText.includes("Error fetching schema") &&
		!!document.querySelector(".graphiql-doc-explorer") &&
		document.querySelector(".graphiql-doc-explorer").innerText.includes("Query")`)
	if got := string(page.Eval(t, ctx, `sessionStorage.getItem("fourd-token")`)); got != cdptest.JSString(e.tokA) {
		t.Errorf("token kept = %s, want the pasted one", got)
	}

	// Autocompletion: type the start of a root field in the query editor.
	page.Eval(t, ctx, `(function () {
		var cm = document.querySelector(".graphiql-query-editor .CodeMirror").CodeMirror;
		cm.setValue("{\n  \n}"); cm.setCursor({line: 1, ch: 2}); cm.focus(); return true; })()`)
	for _, key := range "findingSt" {
		page.Call(t, ctx, "Input.dispatchKeyEvent", map[string]any{"type": "keyDown", "text": string(key), "key": string(key)}, nil)
		page.Call(t, ctx, "Input.dispatchKeyEvent", map[string]any{"type": "keyUp", "key": string(key)}, nil)
	}
	page.WaitFor(t, ctx, `!!document.querySelector(".CodeMirror-hints") &&
		document.querySelector(".CodeMirror-hints").innerText.includes("findingStats")`)

	shot := os.Getenv("FOURD_GRAPHIQL_SCREENSHOT")
	if shot == "" {
		shot = filepath.Join(t.TempDir(), "graphiql-pasted.png")
	}
	page.Screenshot(t, ctx, shot)
	t.Logf("screenshot: %s", shot)
}
