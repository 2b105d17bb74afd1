package reports

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// TestComplianceEvidenceOncePerCheck: the compliance evidence lists each
// failing check once with the controls it fails, and each failing
// resource with what the check read (its finding's evidence) and when the
// resource was last imported; the PDF shows a resource once per failing
// check, not once per failing control (the invoices bucket fails two checks
// mapped to 56 controls; the old PDF listed it under every failing control,
// and carried no evidence).
func TestComplianceEvidenceOncePerCheck(t *testing.T) {
	a := newAssembled(t, nil)
	r := a.generate(t, engine.ReportComplianceEvidence)
	var d engine.ReportDocument
	if err := json.Unmarshal(a.download(t, r.ID, "json"), &d); err != nil {
		t.Fatal(err)
	}
	ce := d.ComplianceEvidence
	checks := map[string]engine.ComplianceCheck{}
	for _, c := range ce.Checks {
		checks[c.RuleID] = c
	}
	imported := goldenNow.Add(-10 * 24 * time.Hour)
	const invoices = "arn:aws:aws_s3_bucket:eu-west-1:111111111111:invoices"
	wantEvidence := map[string]string{"aws-s3-001": `{"public":true}`, "aws-s3-004": `{}`}
	for rule, ev := range wantEvidence {
		c, ok := checks[rule]
		if !ok {
			t.Fatalf("no check %s among %d checks", rule, len(ce.Checks))
		}
		var found bool
		for _, res := range c.FailingResources {
			if res.NativeID != invoices {
				continue
			}
			found = true
			var got bytes.Buffer
			if err := json.Compact(&got, res.Evidence); err != nil || got.String() != ev {
				t.Errorf("%s on invoices: evidence %s, want %s", rule, res.Evidence, ev)
			}
			if res.ObservedAt == nil || !res.ObservedAt.Equal(imported) {
				t.Errorf("%s on invoices: observed_at %v, want %s", rule, res.ObservedAt, imported)
			}
		}
		if !found {
			t.Errorf("%s does not list invoices: %+v", rule, c.FailingResources)
		}
	}
	// Every failing control's failing checks are checks that name it back.
	controls := 0
	for _, fw := range ce.Frameworks {
		for _, ctl := range fw.Controls {
			if ctl.Status != engine.ControlFail {
				continue
			}
			for _, rule := range ctl.Rules {
				c, ok := checks[rule]
				if !ok {
					continue // passing check of a failing control
				}
				var named bool
				for _, ref := range c.Controls {
					named = named || ref == engine.ControlRef{Framework: fw.ID, Control: ctl.ID}
				}
				if !named {
					t.Errorf("check %s does not name the control %s %s it fails", rule, fw.ID, ctl.ID)
				}
				if rule == "aws-s3-001" || rule == "aws-s3-004" {
					controls++
				}
			}
		}
	}
	if controls < 10 {
		t.Fatalf("the two checks fail %d controls: the data set no longer shows the repetition", controls)
	}

	text := squash(pdfToText(t, a.download(t, r.ID, "pdf"), t.TempDir()))
	if n := strings.Count(text, invoices); n != 2 {
		t.Errorf("the PDF shows the invoices bucket %d times; want 2 (once per failing check, not once per failing control of %d)", n, controls)
	}
	for _, s := range []string{"Evidence of the failing checks", "public: true", "2026-10-24", "aws-s3-001 — "} {
		if !strings.Contains(text, s) {
			t.Errorf("the PDF does not show %q; its text:\n%s", s, text)
		}
	}
	html := string(a.download(t, r.ID, "html"))
	for _, s := range []string{`id="check-aws-s3-001"`, "{&#34;public&#34;:true}", "2026-10-24 15:00 UTC"} {
		if !strings.Contains(html, s) {
			t.Errorf("the HTML does not show %q", s)
		}
	}
}
