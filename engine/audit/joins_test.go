package audit_test

import (
	"fmt"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	"github.com/google/go-cmp/cmp"
)

// TestAuditJoinsAndNotEvaluated runs a real audit (ClickHouse and
// PostgreSQL) over an inventory where a bucket is protected only by its
// account's public access block, which the stream may bring before or
// after it, and a trail imported from AWS Config has no logging status.
// Neither may raise a finding; the trail counts as not evaluated in the
// summary, as stored and as read back. A bucket of another account, with
// no account-level block in the inventory, is still judged on its own.
func TestAuditJoinsAndNotEvaluated(t *testing.T) {
	h := newHarness(t)
	mk := func(account, typ, native, attrs string) engine.Resource {
		return engine.Resource{Provider: "aws", Account: account, Region: "eu-west-1", Type: typ, NativeID: native, Name: native,
			Tags: engine.TagsFromMap(map[string]string{"owner": "a", "environment": "prod", "cost-center": "c"}), Attributes: []byte(attrs)}
	}
	const open = `{"bucket":"%s","sse_algorithm":"aws:kms","versioning":"Enabled","logging_target_bucket":"logs","lifecycle_rule_count":1,` +
		`"acl_grants":[{"grantee":"AllUsers","permission":"READ"}],"public_access_block":null}`
	covered := mk("111122223333", "aws_s3_bucket", "arn:aws:s3:::covered", sprintf(open, "covered"))
	exposed := mk("444455556666", "aws_s3_bucket", "arn:aws:s3:::exposed", sprintf(open, "exposed"))
	block := mk("111122223333", "aws_s3_account_public_access_block", "arn:aws:s3::111122223333:account-public-access-block",
		`{"account_id":"111122223333","block_public_acls":true,"ignore_public_acls":true,"block_public_policy":true,"restrict_public_buckets":true}`)
	trail := mk("111122223333", "aws_cloudtrail", "arn:aws:cloudtrail:eu-west-1:111122223333:trail/main",
		`{"name":"main","home_region":"eu-west-1","is_multi_region_trail":true,"log_file_validation_enabled":true,"kms_key_id":"k","s3_bucket_name":"ct"}`)
	h.ingest(covered, exposed, block, trail)
	a := h.runAudit()

	for _, rule := range []string{"aws-s3-001", "aws-s3-002"} {
		id := engine.FindingID(h.p.TenantID, rule, engine.ResourceID(h.p.TenantID, "aws", covered.NativeID))
		if f, err := h.svc.GetFinding(h.ctx, h.p, id); !engine.IsNotFound(err) {
			t.Errorf("%s on a bucket its account's block protects: %+v, %v", rule, f.Evidence, err)
		}
		if f := h.finding(rule, exposed); f.Status != engine.StatusOpen {
			t.Errorf("%s on the other account's bucket: %s", rule, f.Status)
		}
	}
	id := engine.FindingID(h.p.TenantID, "aws-cloudtrail-001", engine.ResourceID(h.p.TenantID, "aws", trail.NativeID))
	if _, err := h.svc.GetFinding(h.ctx, h.p, id); !engine.IsNotFound(err) {
		t.Errorf("aws-cloudtrail-001 fired on a trail without a logging status: %v", err)
	}
	// The account checks of AWS Config's records cannot judge either
	// account: no recorder says every type is recorded there (aws-iam-020,
	// aws-config-002), and no IAM role is in the inventory (aws-iam-021).
	// Neither account's source records recorders or detectors, and the
	// exposed bucket's account records no trail (aws-account-001..003,
	// issue 29 §2: no record of a kind is no evidence that none exists).
	// The hand-written attributes say nothing of the trail's CloudWatch
	// Logs integration nor of the buckets' policies and MFA delete: those
	// checks are not evaluated either. The public-policy check (aws-s3-003)
	// judges the covered bucket (its account's block makes any policy
	// harmless) but not the exposed one, whose policy is unknown.
	want := map[string]int64{"aws-cloudtrail-001": 1, "aws-cloudtrail-005": 1, "aws-account-001": 2, "aws-account-002": 2, "aws-account-003": 2, "aws-iam-020": 2,
		"aws-config-002": 2, "aws-iam-021": 2, "aws-cloudtrail-004": 1, "aws-s3-003": 1, "aws-s3-005": 2, "aws-s3-009": 2}
	if diff := cmp.Diff(want, a.Summary.NotEvaluated); diff != "" {
		t.Errorf("summary not_evaluated (-want +got)\n%s", diff)
	}
	got, err := h.svc.GetAudit(h.ctx, h.p, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got.Summary.NotEvaluated); diff != "" {
		t.Errorf("stored not_evaluated (-want +got)\n%s", diff)
	}
	// What ran is recorded beside: the bucket checks judged both buckets
	// (the joined ones in Finish), the trail's validation its one trail.
	for rule, n := range map[string]int64{"aws-s3-001": 2, "aws-s3-002": 2, "aws-s3-004": 2, "aws-cloudtrail-002": 1} {
		if got.Summary.Evaluated[rule] != n {
			t.Errorf("stored evaluated[%s] = %d, want %d (%v)", rule, got.Summary.Evaluated[rule], n, got.Summary.Evaluated)
		}
	}
	if n := got.Summary.Evaluated["aws-cloudtrail-001"]; n != 0 {
		t.Errorf("aws-cloudtrail-001 counted evaluated %d times on a trail without a logging status", n)
	}
}

func sprintf(format string, a ...any) string { return fmt.Sprintf(format, a...) }
