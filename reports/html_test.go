package reports

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// renderHTML renders doc and fails the test on an error.
func renderHTML(t *testing.T, doc engine.ReportDocument) string {
	t.Helper()
	var b bytes.Buffer
	if err := RenderHTML(&b, doc); err != nil {
		t.Fatalf("RenderHTML: %v", err)
	}
	return b.String()
}

// TestRenderHTMLSelfContained: every kind renders to one page that loads
// nothing from anywhere, closes what it opens, and carries the document's
// content.
func TestRenderHTMLSelfContained(t *testing.T) {
	for _, tc := range []struct {
		doc  engine.ReportDocument
		want []string
	}{
		{fxExecutive(), []string{"Executive summary", "Acme Électronique GmbH", "aud_01JC9Y3K8ZQ4", "données-clients",
			"東京-logs", "$1,334.40", "not estimated", "40 findings are not estimated", "Key messages", "Top actions", "78.1%", "CIS AWS Foundations Benchmark 3.0", "92.6% of the 552 resources scanned have no open critical or high finding", "Unattached EBS volume", "<svg", "weighted open findings per resource"}},
		{fxRemediation(), []string{"Remediation plan", "S3 bucket check 2 fails", "Turn on S3 Block Public Access",
			"20 more resources", "rule_id=aws-s3-002"}},
		{fxCompliance(), []string{"Compliance evidence", "CIS Amazon Web Services Foundations Benchmark v4.0.1",
			"S3 bucket enforces MFA delete", "status-fail", "not_applicable"}},
	} {
		t.Run(string(tc.doc.Header.Kind), func(t *testing.T) {
			page := renderHTML(t, tc.doc)
			for _, w := range tc.want {
				if !strings.Contains(page, w) {
					t.Errorf("the page lacks %q", w)
				}
			}
			if m := regexp.MustCompile(`(?i)(src|href)\s*=\s*["']?(https?:|//)|@import|url\(`).FindString(page); m != "" {
				t.Errorf("the page loads something from elsewhere: %q", m)
			}
			for _, el := range []string{"table", "tr", "section", "svg", "ol", "div", "script", "style"} {
				open := strings.Count(page, "<"+el+">") + strings.Count(page, "<"+el+" ")
				if closed := strings.Count(page, "</"+el+">"); open != closed {
					t.Errorf("<%s> opened %d times, closed %d", el, open, closed)
				}
			}
			for _, m := range regexp.MustCompile(`data-target="([^"]+)"`).FindAllStringSubmatch(page, -1) {
				if !strings.Contains(page, `id="`+m[1]+`"`) {
					t.Errorf("filter target %q has no element", m[1])
				}
			}
		})
	}
}

// TestRenderHTMLEscapes: text from a tenant's inventory is text, never
// markup.
func TestRenderHTMLEscapes(t *testing.T) {
	doc := fxRemediation()
	evil := `<img src=x onerror=alert(1)>"><script>alert(2)</script>`
	doc.RemediationPlan.Groups[0].Resources[0].Name = evil
	doc.Header.TenantName = evil
	page := renderHTML(t, doc)
	if strings.Contains(page, "<img src=x") || strings.Contains(page, "<script>alert(2)") {
		t.Fatal("a resource name reached the page as markup")
	}
	if !strings.Contains(page, "&lt;img src=x onerror=alert(1)&gt;") {
		t.Error("the escaped resource name is missing")
	}
}

// TestRenderHTMLTrendAxis: audits of the same day stay apart on the
// trend's axis: each has its sequence number and time.
func TestRenderHTMLTrendAxis(t *testing.T) {
	doc := fxExecutive()
	base := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	for i := range doc.ExecutiveSummary.Trend {
		doc.ExecutiveSummary.Trend[i].CompletedAt = base.Add(time.Duration(i*17) * time.Minute)
	}
	page := renderHTML(t, doc)
	for _, w := range []string{">#1<", ">#2<", ">#3<", ">#4<", ">11-27 09:00<", ">11-27 09:17<", ">11-27 09:34<", ">11-27 09:51<"} {
		if !strings.Contains(page, w) {
			t.Errorf("the trend axis lacks %s", w)
		}
	}
}

// TestRenderHTMLInBrowser opens each page in headless Chromium: the page's
// filter script runs (its count of shown rows is written) and the
// document's rows are in the DOM it built.
func TestRenderHTMLInBrowser(t *testing.T) {
	browser := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			browser = p
			break
		}
	}
	if browser == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("chromium is required (Debian package chromium)")
		}
		t.Skip("chromium not installed")
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		name, hash string
		doc        engine.ReportDocument
		shown      []string
		hidden     int
	}{
		{"remediation_plan", "", fxRemediation(), []string{"54 of 54 shown"}, 0},
		// The rule id of group 3 is in no row's text, only in its
		// data-text: its one row stays, the 53 others and groups 1 and 2
		// are hidden.
		{"remediation_plan filtered", "#q=aws-s3-003", fxRemediation(), []string{"1 of 54 shown"}, 53 + 2},
		// The Tokyo log group is one of group 1's three resources and every
		// fourth of group 2's fifty (12); group 3 has none.
		{"remediation_plan by account", "#q=333333333333+tokyo", fxRemediation(), []string{"13 of 54 shown"}, 41 + 1},
		{"compliance_evidence", "", fxCompliance(), []string{"6 of 6 shown"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, string(tc.doc.Header.Kind)+".html")
			if err := os.WriteFile(path, []byte(renderHTML(t, tc.doc)), 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			out, err := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu",
				"--user-data-dir="+filepath.Join(dir, "profile"), "--dump-dom", "file://"+path+tc.hash).Output()
			if err != nil {
				t.Fatalf("chromium --dump-dom: %v", err)
			}
			for _, w := range tc.shown {
				if !bytes.Contains(out, []byte(w)) {
					t.Errorf("after the page's script ran, %q is missing", w)
				}
			}
			if got := bytes.Count(out, []byte(` hidden=""`)); got != tc.hidden {
				t.Errorf("%d elements hidden, want %d", got, tc.hidden)
			}
		})
	}
}

// TestRenderHTMLPlurals: one thing is not "1 things" (the remediation
// fixture's playbooks each have one owner; the HTML said "1 owners").
func TestRenderHTMLPlurals(t *testing.T) {
	for _, doc := range []engine.ReportDocument{fxRemediation(), fxCompliance()} {
		out := renderHTML(t, doc)
		for _, bad := range []string{">1 owners", " 1 owners", " 1 findings", " 1 resources", " 1 open findings"} {
			if strings.Contains(out, bad) {
				t.Errorf("%s HTML says %q", doc.Header.Kind, bad)
			}
		}
	}
	if out := renderHTML(t, fxRemediation()); !strings.Contains(out, "of 1 owner<") {
		t.Errorf("the remediation HTML does not say \"of 1 owner\"")
	}
}

// TestRenderHTMLExecutiveTilesAsPDF: the HTML executive summary leads with
// the figures of the PDF's first page (issue 34: a posture a CFO can read),
// the share of resources clear of critical and high findings, not the
// weighted score, and says when there is no earlier audit to compare with
// instead of printing "0 new".
func TestRenderHTMLExecutiveTilesAsPDF(t *testing.T) {
	doc := fxExecutive()
	tiles := func(page string) string {
		i, j := strings.Index(page, `<div class="tiles">`), strings.Index(page, "Key messages")
		if i < 0 || j < i {
			t.Fatal("no tiles before the key messages")
		}
		return page[i:j]
	}
	page := renderHTML(t, doc)
	got := tiles(page)
	if !strings.Contains(got, "<b>92.6%</b><span>of resources have no critical or high finding") {
		t.Errorf("the first tile is not the share of resources clear: %s", got)
	}
	if strings.Contains(got, "posture score") {
		t.Errorf("the tiles lead with the weighted score: %s", got)
	}
	if doc.Header.PreviousAuditID == "" {
		t.Fatal("the fixture has no previous audit")
	}
	if want := "new / resolved since the previous audit"; !strings.Contains(got, want) {
		t.Errorf("tiles lack %q: %s", want, got)
	}
	doc.Header.PreviousAuditID = ""
	if got := tiles(renderHTML(t, doc)); !strings.Contains(got, "<b>—</b><span>no earlier audit to compare") {
		t.Errorf("a first audit's tiles do not say there is nothing to compare: %s", got)
	}
}

// TestRenderHTMLTrendAxisLabelFits: the trend's y-axis label of a
// million findings starts inside the chart (it was cut to "000,000").
func TestRenderHTMLTrendAxisLabelFits(t *testing.T) {
	doc := fxExecutive()
	for i := range doc.ExecutiveSummary.Trend {
		doc.ExecutiveSummary.Trend[i].OpenFindings = 1_000_000
	}
	svg := string(trendSVG(doc.ExecutiveSummary.Trend))
	m := regexp.MustCompile(`<text x="([0-9.]+)"[^>]*text-anchor="end">1,000,000<`).FindStringSubmatch(svg)
	if m == nil {
		t.Fatalf("no y-axis label 1,000,000 in %s", svg)
	}
	var x float64
	if _, err := fmt.Sscan(m[1], &x); err != nil {
		t.Fatal(err)
	}
	if x < 7*float64(len("1,000,000")) {
		t.Errorf("the label ends at x=%.1f: %d characters at ~7 units each start left of the chart", x, len("1,000,000"))
	}
}

// TestRenderHTMLLargeFigures: the remediation plan's hours keep their
// thousands separators in HTML as in the PDF ("1,000,012.0 h", not
// "1000012.0 h").
func TestRenderHTMLLargeFigures(t *testing.T) {
	doc := fxRemediation()
	doc.RemediationPlan.Summary.EffortHours = 1_000_012
	page := renderHTML(t, doc)
	if !strings.Contains(page, "1,000,012.0 h") || strings.Contains(page, "1000012.0 h") {
		t.Error("the estimated effort lacks its thousands separators")
	}
}

// TestRenderHTMLComplianceStatusFilter: the compliance page's status filter
// offers the statuses the rows carry (its options once said "fail"/"pass"
// while rows said "failed"/"passed", so choosing "failed" showed nothing),
// and a failed control's status cell is marked failed.
func TestRenderHTMLComplianceStatusFilter(t *testing.T) {
	page := renderHTML(t, fxCompliance())
	options := map[string]bool{}
	for _, m := range regexp.MustCompile(`<option value="([a-z_]+)">`).FindAllStringSubmatch(page, -1) {
		options[m[1]] = true
		if !slices.Contains(engine.ControlStatuses, engine.ControlStatus(m[1])) {
			t.Errorf("the status filter offers %q, which no control has", m[1])
		}
	}
	rows := regexp.MustCompile(`<tr data-filter="([a-z_]+)"[^>]*><td><code>[^<]*</code></td><td>[^<]*</td><td class="([a-z-]+)">`).FindAllStringSubmatch(page, -1)
	if len(rows) == 0 {
		t.Fatal("no control rows")
	}
	failed := 0
	for _, r := range rows {
		if !options[r[1]] {
			t.Errorf("rows with status %q cannot be chosen in the filter", r[1])
		}
		if r[1] == string(engine.ControlFail) {
			failed++
			if r[2] != "status-fail" {
				t.Errorf("a failed control's cell is %q", r[2])
			}
		}
	}
	if failed == 0 {
		t.Error("the fixture has no failed control")
	}
}
