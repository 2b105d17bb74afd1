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
	"github.com/fourd-dev/fourd/engine/audit"
	"github.com/fourd-dev/fourd/engine/findings"
	"github.com/fourd-dev/fourd/engine/identity"
	"github.com/fourd-dev/fourd/engine/posture"
	"github.com/fourd-dev/fourd/engine/reporting"
	"github.com/fourd-dev/fourd/graph"
	"github.com/fourd-dev/fourd/rest"
)

// operatorPackages are the engine packages with an Operator: the
// principal-less side of their Service, which only their constructor
// returns and only this command wires (identity: issue tokens, create
// users, act as the operator principal, hear the change feed; findings:
// the change feed and the sweeps; audit and reporting: the workers;
// posture: recording an audit's posture; benchdata: write past the use
// cases).
var operatorPackages = map[string]string{
	"github.com/fourd-dev/fourd/engine/identity":  "New",
	"github.com/fourd-dev/fourd/engine/findings":  "New",
	"github.com/fourd-dev/fourd/engine/audit":     "NewService",
	"github.com/fourd-dev/fourd/engine/reporting": "New",
	"github.com/fourd-dev/fourd/engine/posture":   "New",
}

// TestAdaptersHoldNoOperator keeps the operator surfaces out of the API
// adapters: no non-test file of rest or graph imports engine/benchdata,
// names the Operator of a package in operatorPackages or calls its
// constructor (which alone returns one), or calls AuditReads (the read
// path's unchecked side of audits, which the audit service takes).
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
			// constructors maps the local name of each imported package
			// with an Operator to its constructor's name.
			constructors := map[string]string{}
			for _, im := range f.Imports {
				path, _ := strconv.Unquote(im.Path.Value)
				if path == "github.com/fourd-dev/fourd/engine/benchdata" {
					t.Errorf("%s imports engine/benchdata", name)
				}
				if ctor, ok := operatorPackages[path]; ok {
					local := path[strings.LastIndex(path, "/")+1:]
					if im.Name != nil {
						local = im.Name.Name
					}
					constructors[local] = ctor
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
				if x, ok := sel.X.(*ast.Ident); ok {
					if ctor, ok := constructors[x.Name]; ok && (sel.Sel.Name == "Operator" || sel.Sel.Name == ctor) {
						t.Errorf("%s names %s.%s", name, x.Name, sel.Sel.Name)
					}
				}
				return true
			})
		}
	}
}

// principalFree are the exported methods of the services rest and graph
// hold that take no Principal, and why each may: findings.Service's narrow
// views (which other concerns are wired with) and its readiness probe;
// identity.Service's ways for a caller to prove who it is (credentials in
// the input); ingest.Service's validation, which reads and writes nothing.
var principalFree = map[string]bool{
	"findings.Service.Ready": true, "findings.Service.AuditReads": true, "findings.Service.CountReads": true,
	"findings.Service.ExportReads": true, "findings.Service.MuteReads": true, "findings.Service.TriageReads": true,

	"identity.Service.Authenticate": true, "identity.Service.SignIn": true, "identity.Service.ConsentSession": true,
	"identity.Service.SessionUser": true, "identity.Service.CheckAuthorizeRequest": true,
	"identity.Service.ApproveAuthorization": true, "identity.Service.ApproveAuthorizationInSession": true,
	"identity.Service.ExchangeAuthorizationCode": true, "identity.Service.RefreshAccessToken": true,
	"identity.Service.RevokeOAuthCredential": true, "identity.Service.IssueClientCredentialsToken": true,
	"identity.Service.IntrospectToken": true,

	"ingest.Service.NormalizeResource": true,
}

// TestAdapterServicesTakePrincipal: every exported method of every engine
// service rest.Config or graph.Config takes, the API's reach, takes the
// caller's Principal, but those principalFree lists; principal-less upkeep
// (sweeps, the change feed, workers, recording postures) is on the
// packages' Operators, which the adapters never hold.
func TestAdapterServicesTakePrincipal(t *testing.T) {
	principal := reflect.TypeOf(engine.Principal{})
	services := 0
	for _, cfg := range []reflect.Type{reflect.TypeOf(rest.Config{}), reflect.TypeOf(graph.Config{})} {
		for i := range cfg.NumField() {
			ft := cfg.Field(i).Type
			if ft.Kind() != reflect.Pointer || !strings.HasPrefix(ft.Elem().PkgPath(), "github.com/fourd-dev/fourd/engine/") {
				continue
			}
			services++
			for j := range ft.NumMethod() {
				m := ft.Method(j)
				takes := false
				for k := range m.Type.NumIn() {
					takes = takes || m.Type.In(k) == principal
				}
				if name := ft.Elem().String() + "." + m.Name; !takes && !principalFree[name] {
					t.Errorf("%s (in %s.%s) takes no Principal: an API adapter could call it unchecked (put it on the package's Operator)",
						name, cfg.Name(), cfg.Field(i).Name)
				}
			}
		}
	}
	if services < 20 {
		t.Fatalf("found %d engine services in rest.Config and graph.Config: the check reads the wrong fields", services)
	}
	// The upkeep is where cmd/fourd finds it.
	for _, c := range []struct {
		op      any
		methods []string
	}{
		{&findings.Operator{}, []string{"FollowChanges", "SweepExpired", "SweepMuteSets"}},
		{&audit.Operator{}, []string{"RunAuditWorker", "RunAudit"}},
		{&reporting.Operator{}, []string{"RunReportWorker", "RunReportOnce"}},
		{&posture.Operator{}, []string{"RecordCompliancePosture"}},
		{&identity.Operator{}, []string{"Changed", "IssueToken"}},
	} {
		for _, name := range c.methods {
			if _, ok := reflect.TypeOf(c.op).MethodByName(name); !ok {
				t.Errorf("%T has no %s", c.op, name)
			}
		}
	}
}
