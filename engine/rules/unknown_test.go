package rules

import (
	"testing"

	"github.com/fourd-dev/fourd/engine"
	inv "github.com/fourd-dev/fourd/engine/inventory"
	"github.com/google/go-cmp/cmp"
)

// unknownCases holds, for every rule whose input may be missing from the
// source, a resource without it: the rule must report "not evaluated"
// (naming the attribute), never a finding. Before the canonical types had
// three states, each of these fired (aws-cloudtrail-001 on every trail
// imported from AWS Config, which does not record a trail's status).
var unknownCases = map[string]struct {
	res     engine.Resource
	missing []string
}{
	"aws-cloudtrail-001": {mk(inv.TypeCloudTrail, `{"name":"t","is_multi_region_trail":true}`), []string{"is_logging"}},
	"aws-cloudtrail-005": {mk(inv.TypeCloudTrail, `{"name":"t","is_logging":true}`), []string{"s3_data_events"}},
	"aws-kms-001":        {mk(inv.TypeKMSKey, `{"key_id":"k","key_manager":"CUSTOMER","key_spec":"SYMMETRIC_DEFAULT","key_state":"Enabled"}`), []string{"key_rotation_enabled"}},
	"aws-elb-002":        {mk(inv.TypeLB, `{"name":"lb"}`), []string{"deletion_protection"}},
	"aws-elb-004":        {mk(inv.TypeLB, `{"name":"lb","access_logs_enabled":null}`), []string{"access_logs_enabled"}},
	"aws-dynamodb-001":   {mk(inv.TypeDynamoDBTable, `{"name":"t","billing_mode":"PROVISIONED","read_capacity":100}`), []string{"autoscaling_enabled"}},
	"aws-dynamodb-002":   {mk(inv.TypeDynamoDBTable, `{"name":"t"}`), []string{"point_in_time_recovery"}},
	"aws-iam-001":        {mk(inv.TypeIAMUser, `{"user_name":"u"}`), []string{"password_enabled"}},
	"aws-ec2-007":        {mk(inv.TypeInstance, `{"instance_id":"i-1","state":"running"}`), []string{"metadata_http_tokens"}},
	"aws-vpc-001":        {mk(inv.TypeVPC, `{"vpc_id":"vpc-1","is_default":true}`), []string{"flow_logs_enabled"}},
	"aws-ebs-002":        {mk(inv.TypeEBSSnapshot, `{"snapshot_id":"snap-1","encrypted":true}`), []string{"public"}},
	"aws-dynamodb-003":   {mk(inv.TypeDynamoDBTable, `{"name":"t","point_in_time_recovery":true}`), []string{"deletion_protection_enabled"}},
	"aws-sqs-002":        {mk(inv.TypeSQSQueue, `{"name":"q"}`), []string{"sqs_managed_sse_enabled"}},
	"aws-rds-009":        {mk(inv.TypeDBSnapshot, `{"db_snapshot_identifier":"s","encrypted":true}`), []string{"public"}},
}

// assertNotEvaluated checks that rule id neither fires on res nor passes
// it, but reports it not evaluated for want of missing.
func assertNotEvaluated(t *testing.T, res engine.Resource, id string, missing []string) {
	t.Helper()
	o := Assess(res, testNow)
	if v, fired := firedIDs(o.Violations)[id]; fired {
		t.Fatalf("fired on unknown input: %v", v.Evidence)
	}
	for _, ne := range o.NotEvaluated {
		if ne.Rule.ID == id {
			if diff := cmp.Diff(missing, ne.Missing); diff != "" {
				t.Errorf("missing (-want +got)\n%s", diff)
			}
			return
		}
	}
	t.Errorf("not reported as not evaluated: %+v", o.NotEvaluated)
}

func TestRules_UnknownIsNotEvaluated(t *testing.T) {
	for id, c := range unknownCases {
		t.Run(id, func(t *testing.T) { assertNotEvaluated(t, c.res, id, c.missing) })
	}
	// A user without console access needs no MFA, whatever the source
	// says of MFA (on a whole record: on a partial one the omitted
	// policies are unknown, TestPolicyRules_UnknownIsNotEvaluated).
	u := wholeRecord(t, mk(inv.TypeIAMUser, `{"user_name":"u","password_enabled":false}`))
	o := Assess(u, testNow)
	if _, fired := firedIDs(o.Violations)["aws-iam-001"]; fired || len(o.NotEvaluated) > 0 {
		t.Errorf("user without a password: %+v", o)
	}
}

// TestAccountPublicAccessBlockJoin checks that an account-level S3 block
// protects the buckets of its account whichever comes first in the stream,
// and that without it a bucket is judged on its own block.
func TestAccountPublicAccessBlockJoin(t *testing.T) {
	open := mk(inv.TypeS3Bucket, `{"bucket":"b","public_access_block":null,"acl_grants":[{"grantee":"AllUsers","permission":"READ"}],`+
		`"policy":{"Statement":[{"Effect":"Allow","Principal":"*","Action":"s3:GetObject","Resource":"*"}]}}`)
	block := mk(inv.TypeS3AccountPublicAccessBlock, `{"account_id":"111122223333","block_public_acls":true,"ignore_public_acls":true,"block_public_policy":true,"restrict_public_buckets":true}`)
	other := block
	other.Account = "999988887777"
	s3 := []string{"aws-s3-001", "aws-s3-002", "aws-s3-003"}
	run := func(stream ...engine.Resource) []string {
		a := NewAuditor(testNow)
		var ids []string
		for _, r := range stream {
			for _, v := range a.Evaluate(r) {
				ids = append(ids, v.Rule.ID)
			}
		}
		for _, v := range a.Finish() {
			if v.Resource.Type == inv.TypeS3Bucket {
				ids = append(ids, v.Rule.ID)
			}
		}
		var out []string
		for _, id := range ids {
			for _, want := range s3 {
				if id == want {
					out = append(out, id)
				}
			}
		}
		return out
	}
	for name, tt := range map[string]struct {
		stream []engine.Resource
		want   []string
	}{
		"bucket first":                {[]engine.Resource{open, block}, nil},
		"block first":                 {[]engine.Resource{block, open}, nil},
		"another account's block":     {[]engine.Resource{open, other}, s3},
		"no account block":            {[]engine.Resource{open}, s3},
		"a partial account block":     {[]engine.Resource{open, mk(inv.TypeS3AccountPublicAccessBlock, `{"block_public_acls":true,"ignore_public_acls":true}`)}, []string{"aws-s3-001", "aws-s3-003"}},
		"the bucket's own block only": {[]engine.Resource{mk(inv.TypeS3Bucket, `{"bucket":"b",`+pabOn+`}`)}, nil},
	} {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, run(tt.stream...)); diff != "" {
				t.Errorf("S3 findings (-want +got)\n%s", diff)
			}
		})
	}
	// Without an Auditor the account's block is unknown: the bucket is
	// judged on its own settings.
	if got := firedIDs(Evaluate(open, testNow)); len(got) < 3 {
		t.Errorf("standalone Evaluate: %v", got)
	}
}
