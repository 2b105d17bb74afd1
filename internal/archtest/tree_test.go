package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// sqlStatement matches a string that is (or starts) a SQL statement.
var sqlStatement = regexp.MustCompile(`(?is)^\s*(SELECT\s.+\sFROM\s|INSERT\s+INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s|` +
	`(CREATE|ALTER|DROP|TRUNCATE)\s+(TABLE|INDEX|VIEW|MATERIALIZED|DATABASE)\s|WITH\s+\w+\s+AS\s*\()`)

// drivers are the database clients only the stores may import.
var drivers = []string{"database/sql", "github.com/jackc/pgx", "github.com/ClickHouse/clickhouse-go", "github.com/ClickHouse/ch-go"}

// goFiles parses every non-test Go file of the repository (but those under
// the skipped directories, relative to the root) and calls check with its
// path relative to the root.
func goFiles(t *testing.T, skip []string, check func(rel string, f *ast.File)) {
	t.Helper()
	root := filepath.Join("..", "..")
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if slices.Contains(skip, filepath.ToSlash(rel)) || (rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		checked++
		check(filepath.ToSlash(rel), f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("checked only %d files from %s: not the repository", checked, root)
	}
}

// importName is the name f imports path under, "" when it does not.
func importName(f *ast.File, path string) string {
	for _, im := range f.Imports {
		if p, _ := strconv.Unquote(im.Path.Value); p == path {
			if im.Name != nil {
				return im.Name.Name
			}
			return filepath.Base(path)
		}
	}
	return ""
}

// TestNoSQLOutsideStore: no Go file outside store/ (tests aside) holds a SQL
// statement in a string or imports a database driver.
func TestNoSQLOutsideStore(t *testing.T) {
	goFiles(t, []string{"store"}, func(rel string, f *ast.File) {
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			for _, d := range drivers {
				if p == d || strings.HasPrefix(p, d+"/") {
					t.Errorf("%s imports %s", rel, p)
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil && sqlStatement.MatchString(s) {
					t.Errorf("%s: SQL outside store/: %.60q", rel, s)
				}
			}
			return true
		})
	})
}

// TestOneJSONValidator: JSON is validated by internal/jsonvalid alone; no
// other non-test file calls encoding/json's Valid.
func TestOneJSONValidator(t *testing.T) {
	goFiles(t, []string{"internal/jsonvalid"}, func(rel string, f *ast.File) {
		name := importName(f, "encoding/json")
		if name == "" {
			return
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "Valid" {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == name {
					t.Errorf("%s calls encoding/json.Valid: use internal/jsonvalid", rel)
				}
			}
			return true
		})
	})
}

// TestSQLStatementPattern: the pattern knows SQL from prose.
func TestSQLStatementPattern(t *testing.T) {
	for s, want := range map[string]bool{
		"SELECT id FROM findings WHERE tenant_id = ?":   true,
		"\n\t\tinsert into tenants (id) values ($1)":    true,
		"UPDATE audits SET status = $1":                 true,
		"DELETE FROM mute_sets WHERE snapshot = ?":      true,
		"ALTER TABLE findings ADD COLUMN x String":      true,
		"WITH m AS (SELECT 1) SELECT * FROM m":          true,
		"Select a framework":                            false,
		"update the policy":                             false,
		"one INSERT … SELECT in the store":              false,
		"the tenant's findings, deleted from the cache": false,
	} {
		if got := sqlStatement.MatchString(s); got != want {
			t.Errorf("%q: matched %v, want %v", s, got, want)
		}
	}
}
