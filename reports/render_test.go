package reports

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fourd-dev/fourd/engine"
)

var benchGroups = 2000

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

var fixtures = []struct {
	name string
	doc  func() engine.ReportDocument
}{
	{"executive_summary", fxExecutive},
	{"remediation_plan", fxRemediation},
	{"compliance_evidence", fxCompliance},
}

func TestRenderJSONGolden(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := RenderJSON(&b, fx.doc()); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", fx.name+".golden.json")
			if *update {
				if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./reports -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), b.String()); diff != "" {
				t.Errorf("JSON document differs from %s (-want +got):\n%s", path, diff)
			}
		})
	}
}

// TestRemediationWriterMatchesDocument checks that writing a plan group by
// group gives the same JSON bytes as rendering the whole document.
func TestRemediationWriterMatchesDocument(t *testing.T) {
	for _, n := range []int{0, 1, 3} {
		t.Run(fmt.Sprintf("%d groups", n), func(t *testing.T) {
			doc := fxRemediation()
			doc.RemediationPlan.Groups = doc.RemediationPlan.Groups[:n]
			var want, got, pdf bytes.Buffer
			if err := RenderJSON(&want, doc); err != nil {
				t.Fatal(err)
			}
			rw, err := NewRemediationWriter(&got, &pdf, doc)
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range doc.RemediationPlan.Groups {
				if err := rw.WriteGroup(g); err != nil {
					t.Fatal(err)
				}
			}
			if err := rw.Close(); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want.String(), got.String()); diff != "" {
				t.Errorf("streamed JSON (-want +got):\n%s", diff)
			}
			if !bytes.HasPrefix(pdf.Bytes(), []byte("%PDF-")) {
				t.Errorf("streamed PDF starts with %q", pdf.Bytes()[:min(8, pdf.Len())])
			}
		})
	}
}

func TestRenderBadInput(t *testing.T) {
	exec := fxExecutive()
	tests := []struct {
		name string
		doc  engine.ReportDocument
	}{
		{"unknown kind", engine.ReportDocument{Header: engine.ReportHeader{Kind: "weekly_digest"}}},
		{"missing body", engine.ReportDocument{Header: fxHeader(engine.ReportRemediationPlan, "rpt_x")}},
		{"body of another kind", engine.ReportDocument{Header: fxHeader(engine.ReportComplianceEvidence, "rpt_x"), ExecutiveSummary: exec.ExecutiveSummary}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for name, render := range map[string]func() error{
				"json": func() error { return RenderJSON(&bytes.Buffer{}, tc.doc) },
				"pdf":  func() error { return RenderPDF(&bytes.Buffer{}, tc.doc) },
				"html": func() error { return RenderHTML(&bytes.Buffer{}, tc.doc) },
			} {
				if got := engine.ErrorCode(render()); got != engine.CodeValidationFailed {
					t.Errorf("%s: error code %q, want validation_failed", name, got)
				}
			}
			if _, err := NewRemediationWriter(&bytes.Buffer{}, nil, tc.doc); engine.ErrorCode(err) != engine.CodeValidationFailed {
				t.Errorf("NewRemediationWriter: %v, want validation_failed", err)
			}
		})
	}
}

// tool returns the path of a poppler tool: missing fails the test under
// CI=true and skips it otherwise.
func tool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is required (Debian package poppler-utils): %v", name, err)
		}
		t.Skipf("%s not installed (Debian package poppler-utils)", name)
	}
	return p
}

// pdfText renders doc to PDF, writes it to dir and returns its text as
// pdftotext -layout sees it and its page count.
func pdfText(t *testing.T, doc engine.ReportDocument, dir string) (string, int) {
	t.Helper()
	var b bytes.Buffer
	if err := RenderPDF(&b, doc); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, string(doc.Header.Kind)+".pdf")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(tool(t, "pdftotext"), "-layout", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	m := regexp.MustCompile(`Page 1 of (\d+)`).FindStringSubmatch(string(out))
	if m == nil {
		t.Fatalf("no \"Page 1 of N\" footer in:\n%s", out)
	}
	n, _ := strconv.Atoi(m[1])
	if got := strings.Count(string(out), "\f"); got != n {
		t.Errorf("footer says %d pages, the PDF has %d", n, got)
	}
	return string(out), n
}

// squash removes the spaces pdftotext -layout puts between words, so
// phrases can be looked up whatever the column layout.
func squash(s string) string { return strings.Join(strings.Fields(s), " ") }
