package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/findings"
)

// TestAdaptersHoldNoOperator keeps the operator surfaces (identity.Operator:
// issue tokens, create users, act as the operator principal;
// findings.Operator: sweeps and the change feed, no principal checked;
// benchdata.Operator: write past the use cases) out of the API adapters:
// no non-test file of rest or graph imports engine/benchdata, names
// identity's or findings' Operator or calls their New (which alone returns
// one). Only this command wires them, and the read path's side of audits
// (findings.Service.AuditReads, unchecked internal calls).
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
			// operatorPkgs are the local names of the imported packages
			// that hold an Operator.
			operatorPkgs := map[string]bool{}
			for _, im := range f.Imports {
				path, _ := strconv.Unquote(im.Path.Value)
				switch path {
				case "github.com/fourd-dev/fourd/engine/benchdata":
					t.Errorf("%s imports engine/benchdata", name)
				case "github.com/fourd-dev/fourd/engine/identity", "github.com/fourd-dev/fourd/engine/findings":
					local := path[strings.LastIndex(path, "/")+1:]
					if im.Name != nil {
						local = im.Name.Name
					}
					operatorPkgs[local] = true
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
				if x, ok := sel.X.(*ast.Ident); ok && operatorPkgs[x.Name] && (sel.Sel.Name == "Operator" || sel.Sel.Name == "New") {
					t.Errorf("%s names %s.%s", name, x.Name, sel.Sel.Name)
				}
				return true
			})
		}
	}
}

// TestServiceHoldsNoUpkeep: every exported method of findings.Service, the
// read path the API adapters hold, takes the caller's Principal, except the
// narrow views other concerns are wired with and the readiness probe; the
// principal-less upkeep (sweeps, the change feed) is findings.Operator's.
func TestServiceHoldsNoUpkeep(t *testing.T) {
	allowed := map[string]bool{"Ready": true, "AuditReads": true, "CountReads": true, "ExportReads": true,
		"MuteReads": true, "TriageReads": true}
	principal := reflect.TypeOf(engine.Principal{})
	svc := reflect.TypeOf(&findings.Service{})
	for i := range svc.NumMethod() {
		m := svc.Method(i)
		takes := false
		for j := range m.Type.NumIn() {
			takes = takes || m.Type.In(j) == principal
		}
		if !takes && !allowed[m.Name] {
			t.Errorf("findings.Service.%s takes no Principal: an API adapter could call it unchecked (put upkeep on findings.Operator)", m.Name)
		}
	}
	ops := reflect.TypeOf(&findings.Operator{})
	for _, name := range []string{"FollowChanges", "SweepExpired", "SweepMuteSets"} {
		if _, ok := ops.MethodByName(name); !ok {
			t.Errorf("findings.Operator has no %s", name)
		}
	}
}
