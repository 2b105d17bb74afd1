package rules

import (
	"net/url"
	"testing"
)

// AWS Config cases of the account-wide checks (aws-account-001/002/003)
// and of aws-iam-019, built from configuration items in AWS's published
// shape. Property names: awslabs/aws-config-resource-schema,
// config/properties/resource-types/AWS::CloudTrail::Trail (name,
// homeRegion, isMultiRegionTrail…), AWS::Config::ConfigurationRecorder
// (Name, Recording, RecordingGroup.AllSupported…), AWS::GuardDuty::Detector
// (Id, Enable), AWS::IAM::User (userName, attachedManagedPolicies[].policyArn)
// and AWS::IAM::Policy (policyVersionList[].document, URL-encoded JSON, and
// isDefaultVersion; IAM items have awsRegion "global"). Envelopes: the AWS
// Config Developer Guide's example configuration items (configItemJSON).
//
// AWS Config does not record a trail's logging status: aws-account-001 is
// judged from Config items alone only when a region in use surely has no
// trail (the failing case); a region covered only by trails of unknown
// status is not evaluated, and a passing judgement needs the status, which
// fourd reads from a TrailStatus supplement when the item carries one.

const acctAcct = "111122223333"

func acctItem(region, rtype, id, arn string, conf, supp map[string]any) string {
	return configItemJSON(acctAcct, region, map[string]string{"owner": "platform", "environment": "production", "cost-center": "cc-1"},
		rtype, id, arn, conf, supp, false)
}

// acctInstance is an EC2 instance in region: a region in use.
func acctInstance(region, id string) string {
	return acctItem(region, "AWS::EC2::Instance", id, "arn:aws:ec2:"+region+":"+acctAcct+":instance/"+id,
		map[string]any{"instanceId": id, "instanceType": "m7g.large", "state": map[string]any{"code": 16, "name": "running"}}, nil)
}

func acctTrail(region, name string, multi bool, supp map[string]any) string {
	arn := "arn:aws:cloudtrail:" + region + ":" + acctAcct + ":trail/" + name
	return acctItem(region, "AWS::CloudTrail::Trail", arn, arn, map[string]any{"name": name, "trailARN": arn, "homeRegion": region,
		"s3BucketName": "acme-cloudtrail", "isMultiRegionTrail": multi, "includeGlobalServiceEvents": true,
		"isOrganizationTrail": false, "logFileValidationEnabled": true, "hasCustomEventSelectors": false}, supp)
}

func acctRecorder(region string, recording bool) string {
	return acctItem(region, "AWS::Config::ConfigurationRecorder", "default", "arn:aws:config:"+region+":"+acctAcct+":config-recorder/default",
		map[string]any{"Name": "default", "RoleARN": "arn:aws:iam::" + acctAcct + ":role/aws-service-role/config.amazonaws.com/AWSServiceRoleForConfig",
			"RecordingGroup": map[string]any{"AllSupported": true, "IncludeGlobalResourceTypes": true, "ResourceTypes": []any{}},
			"Recording":      recording}, nil)
}

func acctDetector(region, id string, enabled bool) string {
	return acctItem(region, "AWS::GuardDuty::Detector", id, "arn:aws:guardduty:"+region+":"+acctAcct+":detector/"+id,
		map[string]any{"Id": id, "Enable": enabled, "FindingPublishingFrequency": "FIFTEEN_MINUTES"}, nil)
}

// acctUser is an IAM user with policyArn attached.
func acctUser(policyArn string) string {
	return acctItem("global", "AWS::IAM::User", "AIDAJQABLZS4A3QDU576Q", "arn:aws:iam::"+acctAcct+":user/deploy",
		map[string]any{"userName": "deploy", "userId": "AIDAJQABLZS4A3QDU576Q", "path": "/", "arn": "arn:aws:iam::" + acctAcct + ":user/deploy",
			"createDate": "2024-03-01T10:00:00.000Z", "userPolicyList": []any{}, "groupList": []any{},
			"attachedManagedPolicies": []any{map[string]any{"policyName": "deploy-policy", "policyArn": policyArn}}}, nil)
}

// acctPolicy is a customer managed policy whose default version is doc
// (URL-encoded, as AWS Config records it).
func acctPolicy(arn, doc string) string {
	return acctItem("global", "AWS::IAM::Policy", "ANPAJ2UCCR6DPCEXAMPLE", arn,
		map[string]any{"policyName": "deploy-policy", "policyId": "ANPAJ2UCCR6DPCEXAMPLE", "arn": arn, "path": "/",
			"defaultVersionId": "v2", "attachmentCount": 1, "isAttachable": true,
			"policyVersionList": []any{
				map[string]any{"document": url.QueryEscape(`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}`),
					"versionId": "v1", "isDefaultVersion": false},
				map[string]any{"document": url.QueryEscape(doc), "versionId": "v2", "isDefaultVersion": true}}}, nil)
}

func arrayOf(items ...string) string {
	out := "["
	for i, it := range items {
		if i > 0 {
			out += ","
		}
		out += it
	}
	return out + "]"
}

var acctConfigCases = map[string]configCase{
	// A multi-region trail logging (its TrailStatus supplement) covers both
	// regions; a single-region trail in eu-west-1 leaves us-east-1 surely
	// without one, whatever its own (unrecorded) status.
	"aws-account-001": {
		pass: arrayOf(acctInstance("eu-west-1", "i-0a1b2c3d4e5f60718"), acctInstance("us-east-1", "i-0b1c2d3e4f5a60718"),
			acctTrail("eu-west-1", "org-trail", true, map[string]any{"TrailStatus": map[string]any{"isLogging": true}})),
		fail: arrayOf(acctInstance("eu-west-1", "i-0a1b2c3d4e5f60718"), acctInstance("us-east-1", "i-0b1c2d3e4f5a60718"),
			acctTrail("eu-west-1", "local-trail", false, nil)),
	},
	"aws-account-002": {
		pass: arrayOf(acctInstance("eu-west-1", "i-0a1b2c3d4e5f60718"), acctInstance("us-east-1", "i-0b1c2d3e4f5a60718"),
			acctRecorder("eu-west-1", true), acctRecorder("us-east-1", true)),
		fail: arrayOf(acctInstance("eu-west-1", "i-0a1b2c3d4e5f60718"), acctInstance("us-east-1", "i-0b1c2d3e4f5a60718"),
			acctRecorder("eu-west-1", true), acctRecorder("us-east-1", false)),
	},
	"aws-account-003": {
		pass: arrayOf(acctInstance("eu-west-1", "i-0a1b2c3d4e5f60718"), acctInstance("us-east-1", "i-0b1c2d3e4f5a60718"),
			acctDetector("eu-west-1", "8ab1c2d3e4f5a6b7c8d9e0f1a2b3c4d5", true), acctDetector("us-east-1", "9bc2d3e4f5a6b7c8d9e0f1a2b3c4d5e6", true)),
		fail: arrayOf(acctInstance("eu-west-1", "i-0a1b2c3d4e5f60718"), acctInstance("us-east-1", "i-0b1c2d3e4f5a60718"),
			acctDetector("eu-west-1", "8ab1c2d3e4f5a6b7c8d9e0f1a2b3c4d5", true)),
	},
	// The default version decides: v1 granted "*" on "*", v2 (default)
	// only s3:GetObject on one bucket.
	"aws-iam-019": {
		pass: arrayOf(acctUser("arn:aws:iam::"+acctAcct+":policy/deploy-policy"),
			acctPolicy("arn:aws:iam::"+acctAcct+":policy/deploy-policy",
				`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:GetObject","Resource":"arn:aws:s3:::acme-artifacts/*"}]}`)),
		fail: arrayOf(acctUser("arn:aws:iam::"+acctAcct+":policy/deploy-policy"),
			acctPolicy("arn:aws:iam::"+acctAcct+":policy/deploy-policy",
				`{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["iam:*","*"],"Resource":"*"}]}`)),
	},
}

func init() { addConfigCases(acctConfigCases) }

// TestAccountConfigCases_Judged checks that both sides of each case above
// are judged (a pass must not be a "not evaluated" in disguise), and that
// a region covered only by a trail of unrecorded status is not evaluated
// rather than flagged.
func TestAccountConfigCases_Judged(t *testing.T) {
	for id, c := range acctConfigCases {
		for side, items := range map[string]string{"pass": c.pass, "fail": c.fail} {
			a := NewAuditor(testNow)
			for _, r := range decodeItems(t, items) {
				a.Evaluate(r)
			}
			a.Finish()
			if a.Evaluated()[id] == 0 || a.NotEvaluated()[id] != 0 {
				t.Errorf("%s %s: judged %d, not evaluated %d", id, side, a.Evaluated()[id], a.NotEvaluated()[id])
			}
		}
	}
	// eu-west-1 has a logging trail, us-east-1 one whose status AWS Config
	// did not record: us-east-1 may be covered.
	items := arrayOf(acctInstance("eu-west-1", "i-0a1b2c3d4e5f60718"), acctInstance("us-east-1", "i-0b1c2d3e4f5a60718"),
		acctTrail("eu-west-1", "eu-trail", false, map[string]any{"TrailStatus": map[string]any{"isLogging": true}}),
		acctTrail("us-east-1", "us-trail", false, nil))
	a := NewAuditor(testNow)
	for _, r := range decodeItems(t, items) {
		a.Evaluate(r)
	}
	for _, v := range a.Finish() {
		if v.Rule.ID == "aws-account-001" {
			t.Errorf("a region covered by a trail of unknown status fired aws-account-001: %s", v.EvidenceJSON())
		}
	}
	if a.NotEvaluated()["aws-account-001"] != 1 {
		t.Errorf("aws-account-001 not evaluated %d times, want 1", a.NotEvaluated()["aws-account-001"])
	}
}
