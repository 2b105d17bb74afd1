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
// identity's Operator. Only this command wires them, and the read path's
// side of audits (findings.Service.AuditReads, unchecked internal calls).
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
			ast.Inspect(f, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if sel.Sel.Name == "AuditReads" {
					t.Errorf("%s calls AuditReads", name)
				}
				if x, ok := sel.X.(*ast.Ident); ok && identityName != "" && x.Name == identityName && sel.Sel.Name == "Operator" {
					t.Errorf("%s names identity.Operator", name)
				}
				return true
			})
		}
	}
}
