package reports

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// fxCompliancePassing is fxCompliance whose passed control 1.8 has a
// sample of two resources (one captured by its source, one only
// imported) and whose failed control 2.1.2 has one; the other controls
// have none.
func fxCompliancePassing() engine.ReportDocument {
	doc := fxCompliance()
	captured, imported := fxCompleted.Add(-26*time.Hour), fxCompleted.Add(-2*time.Hour)
	ctls := doc.ComplianceEvidence.Frameworks[0].Controls
	for i := range ctls {
		c := &ctls[i]
		switch c.ID {
		case "1.8":
			c.ResourcesPassing, c.PassingOmitted = 7, 5
			c.PassingResources = []engine.PassingResource{
				{RuleID: "aws-iam-008", ResourceID: "res_05pw", NativeID: "arn:aws:iam::111111111111:account-password-policy", Name: "password-policy",
					Type: "aws_iam_account_password_policy", Account: fxAccounts[0], Region: "global",
					Evidence: json.RawMessage(`{"minimum_password_length":16}`), EvaluatedAt: fxGenerated, CapturedAt: &captured, ObservedAt: &imported},
				{RuleID: "aws-iam-008", ResourceID: "res_06pw", NativeID: "arn:aws:iam::222222222222:account-password-policy", Name: "password-policy",
					Type: "aws_iam_account_password_policy", Account: fxAccounts[1], Region: "global",
					Evidence: json.RawMessage(`{"minimum_password_length":14}`), EvaluatedAt: fxGenerated, ObservedAt: &imported},
			}
		case "2.1.2":
			c.PassingResources[0].CapturedAt = &captured
		default:
			c.ResourcesPassing, c.PassingOmitted, c.PassingResources = 0, 0, []engine.PassingResource{}
		}
	}
	return doc
}

// TestReportsShowPassingSamples: the PDF and the HTML show, per passed or
// failed control, how many resources passed and its sample: each
// resource's id, the check, what it read and when that configuration was
// recorded (captured at source, else observed at import). Both left the
// JSON's passing_resources out (issue 34). The PDF lists a resource and
// check once with every control whose sample has it (NIST maps one check
// to dozens of controls, and frameworks share checks).
func TestReportsShowPassingSamples(t *testing.T) {
	doc := fxCompliancePassing()
	fw := &doc.ComplianceEvidence.Frameworks[0]
	twin := fw.Controls[0]
	twin.ID, twin.Title = "1.9", "IAM password policy prevents password reuse"
	fw.Controls = append(fw.Controls[:1], append([]engine.ComplianceControl{twin}, fw.Controls[1:]...)...)
	text := squash(mustPDFText(t, doc))
	for _, want := range []string{
		"Evidence of passing",
		"1.8 IAM password policy requires a passed 3 0 7 aws-iam-008", "2.1.2 S3 bucket enforces MFA delete failed 42 2 40",
		"not 0 0 — aws-rds-007",
		"CIS-AWS-4.0.1 1.8, 1.9 aws-iam-008 password-policy minimum_password_length: 16 2026-11-02",
		"captured at source arn:aws:iam::111111111111:account-password-policy",
		"CIS-AWS-4.0.1 1.8, 1.9 aws-iam-008 password-policy minimum_password_length: 14 2026-11-03",
		"observed at import arn:aws:iam::222222222222:account-password-policy",
		"CIS-AWS-4.0.1 2.1.2 aws-s3-010 audit-logs observed: true 2026-11-02",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the PDF does not show %q; its text:\n%s", want, text)
		}
	}
	if strings.Contains(text, "3.1 aws-cloudtrail-001 audit-logs") {
		t.Error("the PDF shows a sample for a control that has none")
	}

	page := renderHTML(t, doc)
	samples := regexp.MustCompile(`(?s)<tr class="sample">.*?</details></td></tr>`).FindAllString(page, -1)
	if len(samples) != 3 {
		t.Fatalf("%d controls with evidence of passing, want 3 (1.8, 1.9 and 2.1.2)", len(samples))
	}
	for _, want := range []string{"Evidence of passing: 2 of 7 passing resources (5 more not listed)",
		`{&#34;minimum_password_length&#34;:16}`, "aws-iam-008", "2026-11-02 12:30 UTC, captured at source",
		"2026-11-03 12:30 UTC, observed at import", "111111111111:</span><wbr>", "account-password-policy"} {
		if !strings.Contains(samples[0], want) {
			t.Errorf("control 1.8's evidence of passing lacks %q: %s", want, samples[0])
		}
	}
	if !strings.Contains(samples[2], "aws-s3-010") || !strings.Contains(samples[2], "audit-logs") {
		t.Errorf("control 2.1.2's evidence of passing: %s", samples[2])
	}
	// The passing count column: a number for passed and failed controls,
	// a dash for the others.
	cells := regexp.MustCompile(`<tr data-filter="([a-z_]+)"[^>]*>.*?<td class="n">[^<]*</td><td class="n">[^<]*</td><td class="n">([^<]*)</td></tr>`).FindAllStringSubmatch(page, -1)
	got := map[string]string{}
	for _, c := range cells {
		got[c[1]] += c[2] + " "
	}
	if want := map[string]string{"passed": "7 7 0 ", "failed": "40 ", "not_applicable": "— ", "manual": "— ", "not_assessed": "— "}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("passing column by status %v, want %v", got, want)
	}
}

// mustPDFText renders doc as a PDF and returns its text.
func mustPDFText(t *testing.T, doc engine.ReportDocument) string {
	t.Helper()
	text, _ := pdfText(t, doc, t.TempDir())
	return text
}
