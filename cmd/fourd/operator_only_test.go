package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestAdaptersHoldNoOperator keeps the operator surfaces (identity.Operator:
// issue tokens, create users, act as the operator principal;
// benchdata.Operator: write past the use cases) out of the API adapters:
// no non-test file of rest or graph imports engine/benchdata or names
// identity's Operator. Only this command wires them.
func TestAdaptersHoldNoOperator(t *testing.T) {
	for _, dir := range []string{"../../rest", "../../graph"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", dir, err)
		}
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			f, err := parser.ParseFile(token.NewFileSet(), name, src, 0)
			if err != nil {
				t.Fatal(err)
			}
			identityName := ""
			for _, im := range f.Imports {
				path, _ := strconv.Unquote(im.Path.Value)
				switch path {
				case "github.com/fourd-dev/fourd/engine/benchdata":
					t.Errorf("%s imports engine/benchdata", name)
				case "github.com/fourd-dev/fourd/engine/identity":
					identityName = "identity"
					if im.Name != nil {
						identityName = im.Name.Name
					}
				}
			}
			if identityName == "" {
				continue
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "Operator" {
					if x, ok := sel.X.(*ast.Ident); ok && x.Name == identityName {
						t.Errorf("%s names identity.Operator", name)
					}
				}
				return true
			})
		}
	}
}
