package reports

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	inv "github.com/fourd-dev/fourd/engine/inventory"
	"github.com/fourd-dev/fourd/internal/testserver"
)

// TestComplianceEvidenceShowsPassing: the compliance JSON lists, per
// judged control, a bounded sample of resources its checks passed with
// what each check read, and counts them all. A bucket with default
// encryption passes aws-s3-004 and is listed with the algorithm read; the
// buckets whose configuration says nothing about encryption (not
// evaluated: absent is not false) and the failing ones are not.
func TestComplianceEvidenceShowsPassing(t *testing.T) {
	a := newAssembled(t, nil)
	ctx := context.Background()
	const native = "arn:aws:aws_s3_bucket:eu-west-1:111111111111:archive"
	captured := time.Date(2026, 10, 30, 6, 0, 0, 0, time.UTC)
	archive := engine.Resource{ID: engine.ResourceID(a.tenant.ID, "aws", native), Provider: "aws", Account: "111111111111",
		Region: "eu-west-1", Type: inv.TypeS3Bucket, NativeID: native, Name: "archive", Tags: engine.Tags{},
		Attributes: json.RawMessage(`{"bucket":"archive","sse_algorithm":"aws:kms"}`), LastSeenAt: goldenNow.Add(-2 * time.Hour),
		CapturedAt: &captured}
	if _, err := a.ch.WriteResources(ctx, a.tenant.ID, testserver.SeqOf([]engine.Resource{archive})); err != nil {
		t.Fatal(err)
	}
	var d engine.ReportDocument
	if err := json.Unmarshal(a.download(t, a.generate(t, engine.ReportComplianceEvidence).ID, "json"), &d); err != nil {
		t.Fatal(err)
	}
	listed := 0
	for _, fw := range d.ComplianceEvidence.Frameworks {
		for _, c := range fw.Controls {
			judged := c.Status == engine.ControlPass || c.Status == engine.ControlFail
			if !judged && (len(c.PassingResources) > 0 || c.ResourcesPassing > 0) {
				t.Errorf("%s %s is %s but lists %d passing resources of %d", fw.ID, c.ID, c.Status, len(c.PassingResources), c.ResourcesPassing)
			}
			if len(c.PassingResources) > engine.MaxPassingResourcesPerControl ||
				c.PassingOmitted != max(c.ResourcesPassing-int64(len(c.PassingResources)), 0) {
				t.Errorf("%s %s: %d passing listed, %d omitted, %d in all", fw.ID, c.ID, len(c.PassingResources), c.PassingOmitted, c.ResourcesPassing)
			}
			for _, p := range c.PassingResources {
				if p.Name != "archive" && p.RuleID == "aws-s3-004" {
					t.Errorf("%s %s: %s passes aws-s3-004 on a configuration without encryption settings", fw.ID, c.ID, p.Name)
				}
				if p.Name != "archive" || p.RuleID != "aws-s3-004" {
					continue
				}
				listed++
				if !strings.Contains(string(p.Evidence), `"aws:kms"`) || p.NativeID != native || p.CapturedAt == nil ||
					!p.CapturedAt.Equal(captured) || !p.EvaluatedAt.Equal(goldenNow) {
					t.Errorf("%s %s: passing archive %+v (evidence %s)", fw.ID, c.ID, p, p.Evidence)
				}
				if c.ResourcesPassing < 1 {
					t.Errorf("%s %s lists archive passing but counts %d passing", fw.ID, c.ID, c.ResourcesPassing)
				}
			}
		}
	}
	if listed == 0 {
		t.Error("no control lists the archive bucket as passing aws-s3-004")
	}
	// The PDF and the HTML show the sample too: the bucket, its ARN, the
	// check and the algorithm it read, and when AWS Config captured it.
	id := a.generate(t, engine.ReportComplianceEvidence).ID
	text := squash(pdfToText(t, a.download(t, id, "pdf"), t.TempDir()))
	for _, want := range []string{"Evidence of passing", "aws-s3-004 archive bucket: archive; sse_algorithm:", "aws:kms 06:00", native} {
		if !strings.Contains(text, want) {
			t.Errorf("the PDF does not show %q; its text:\n%s", want, text)
		}
	}
	html := string(a.download(t, id, "html"))
	for _, want := range []string{"Evidence of passing: ", "<code>aws-s3-004</code>", "&#34;sse_algorithm&#34;:&#34;aws:kms&#34;",
		"2026-10-30 06:00 UTC, captured at source"} {
		if !strings.Contains(html, want) {
			t.Errorf("the HTML does not show %q", want)
		}
	}
}
