package engine

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestRootImportsNoConcern keeps the root package below its concern
// packages (issue 30): no file of it imports one of them (engine/audit,
// engine/identity, engine/ingest, engine/webhooks, engine/benchdata, …), a
// store, an adapter or a renderer. From this module it may import only
// internal/ helpers and engine/compliance, the framework catalog its
// vocabulary names.
func TestRootImportsNoConcern(t *testing.T) {
	const mod = "github.com/fourd-dev/fourd/"
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files (%v)", err)
	}
	for _, name := range files {
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range f.Imports {
			path, _ := strconv.Unquote(im.Path.Value)
			rel, ours := strings.CutPrefix(path, mod)
			if !ours || strings.HasPrefix(rel, "internal/") || rel == "engine/compliance" {
				continue
			}
			if strings.HasSuffix(name, "_test.go") && strings.HasSuffix(rel, "test") {
				continue // a store's test harness (chtest, pgtest) in a test file
			}
			t.Errorf("%s imports %s", name, path)
		}
	}
}
