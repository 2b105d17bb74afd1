package reports

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/internal/testserver"
)

// TestComplianceEvidenceSaysWhenCaptured: a failing resource imported from
// AWS Config carries when AWS Config captured its configuration
// (captured_at) and the PDF and HTML say so; one whose input had no
// capture time shows when fourd imported it, said to be the import's.
func TestComplianceEvidenceSaysWhenCaptured(t *testing.T) {
	a := newAssembled(t, nil)
	ctx := context.Background()
	captured := time.Date(2026, 10, 23, 8, 41, 0, 0, time.UTC)
	seen := goldenNow.Add(-9 * 24 * time.Hour)
	var invoices engine.Resource
	for _, r := range goldenResources(a.tenant.ID) {
		if r.Name == "invoices" {
			invoices = r
		}
	}
	invoices.CapturedAt, invoices.LastSeenAt = &captured, seen
	if _, err := a.ch.WriteResources(ctx, a.tenant.ID, testserver.SeqOf([]engine.Resource{invoices})); err != nil {
		t.Fatal(err)
	}
	r := a.generate(t, engine.ReportComplianceEvidence)
	var d engine.ReportDocument
	if err := json.Unmarshal(a.download(t, r.ID, "json"), &d); err != nil {
		t.Fatal(err)
	}
	var sawInvoices, sawScratch bool
	for _, c := range d.ComplianceEvidence.Checks {
		for _, res := range c.FailingResources {
			switch res.Name {
			case "invoices":
				sawInvoices = true
				if res.CapturedAt == nil || !res.CapturedAt.Equal(captured) || res.ObservedAt == nil || !res.ObservedAt.Equal(seen) {
					t.Errorf("%s on invoices: captured_at %v, observed_at %v; want %s, %s", c.RuleID, res.CapturedAt, res.ObservedAt, captured, seen)
				}
			case "scratch":
				sawScratch = true
				if res.CapturedAt != nil || res.ObservedAt == nil {
					t.Errorf("%s on scratch (no capture time): captured_at %v, observed_at %v", c.RuleID, res.CapturedAt, res.ObservedAt)
				}
			}
		}
	}
	if !sawInvoices || !sawScratch {
		t.Fatalf("the checks list invoices %v, scratch %v: the data set changed", sawInvoices, sawScratch)
	}
	text := squash(pdfToText(t, a.download(t, r.ID, "pdf"), t.TempDir()))
	for _, s := range []string{"2026-10-23 eu-west-1 08:41 captured at source", "2026-10-24 us-east-1 15:00 observed at import",
		"when its source captured it"} {
		if !strings.Contains(text, s) {
			t.Errorf("the PDF does not show %q; its text:\n%s", s, text)
		}
	}
	html := string(a.download(t, r.ID, "html"))
	for _, s := range []string{"2026-10-23 08:41 UTC, captured at source", "2026-10-24 15:00 UTC, observed at import"} {
		if !strings.Contains(html, s) {
			t.Errorf("the HTML does not show %q", s)
		}
	}
}
