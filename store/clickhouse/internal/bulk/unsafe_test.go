package bulk_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// unsafeAllowed are the repository's only non-test files that may import
// unsafe, each for reading its own bytes as a string (none reaches into
// another module's memory): bulk.String, and the NDJSON decoder's
// zero-copy fields (engine/inventory/ndjson_fast.go, fuzzed there).
var unsafeAllowed = []string{
	"engine/inventory/ndjson_fast.go",
	"store/clickhouse/internal/bulk/view.go",
}

// TestNoUnsafeElsewhere fails when a file outside unsafeAllowed imports
// unsafe: writing into a driver's unexported buffers through copies of
// its private structs broke silently on upgrades (issue 30).
func TestNoUnsafeElsewhere(t *testing.T) {
	root, err := filepath.Abs("../../../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the repository's root: %v", err)
	}
	var found []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "unsafe" {
				rel, _ := filepath.Rel(root, path)
				found = append(found, filepath.ToSlash(rel))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range found {
		if !slices.Contains(unsafeAllowed, f) {
			t.Errorf("%s imports unsafe; only %v may (see internal/bulk)", f, unsafeAllowed)
		}
	}
	for _, f := range unsafeAllowed {
		if !slices.Contains(found, f) {
			t.Errorf("%s no longer imports unsafe: drop it from unsafeAllowed", f)
		}
	}
}
