package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/audit"
)

// TestPrintExplanation prints the rule pack's real explanation of a bucket
// with public ACL grants and no block: the failures come first with their
// severity and what they read, then the passes with what they read.
func TestPrintExplanation(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	res := engine.Resource{ID: "res_01jd8z3k5m7q9s1t3v5x7z9b1d", Provider: "aws", Account: "123456789012", Region: "eu-west-1",
		Type: "aws_s3_bucket", NativeID: "arn:aws:s3:::open", Name: "open",
		Attributes: json.RawMessage(`{"bucket":"open","acl":"public-read","public_access_block":null,"policy":null,"sse_algorithm":"AES256","versioning":"Enabled","logging_target_bucket":"logs","lifecycle_rule_count":1}`)}
	checks := audit.New(nil).Explain(res, nil, now)
	x := engine.ResourceExplanation{Resource: res, EvaluatedAt: now, Checks: checks}
	for _, c := range checks {
		switch c.Outcome {
		case engine.CheckPassed:
			x.Passed++
		case engine.CheckFailed:
			x.Failed++
		default:
			x.NotEvaluated++
		}
	}
	var b bytes.Buffer
	printExplanation(&b, x)
	out := b.String()
	for _, want := range []string{
		"aws_s3_bucket arn:aws:s3:::open (res_01jd8z3k5m7q9s1t3v5x7z9b1d)",
		"FAILED        aws-s3-002 (security, high) [join] S3 bucket ACL grants access to everyone",
		`"public_grants":["canned ACL public-read"]`,
		"PASSED        ",
		`"versioning":"Enabled"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if f, p := strings.Index(out, "FAILED"), strings.Index(out, "PASSED"); f < 0 || p < f {
		t.Errorf("failures should come before passes:\n%s", out)
	}
	if x.Failed == 0 || x.Passed == 0 {
		t.Errorf("counts: %+v", x)
	}
}
