package rules

import (
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	inv "github.com/fourd-dev/fourd/engine/inventory"
)

// groupPolicyRules are the checks that judge an IAM group by its policies.
var groupPolicyRules = []string{"aws-iam-014", "aws-iam-017", "aws-iam-019"}

// outcomes returns, by rule id, what Explain says of res for rules.
func outcomes(t *testing.T, res engine.Resource, rules []string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, c := range Explain(res, nil, testNow) {
		for _, id := range rules {
			if c.Rule.ID == id {
				out[id] = c.Outcome
			}
		}
	}
	return out
}

// TestIAMGroup_PoliciesNotRecordedIsNotWhole checks that a group record
// whose policies were not recorded is not judged by the checks that read
// them (issue 29): on the old code a group wrote only group_name and
// group_id, so a Terraform aws_iam_group (AWS provider: name, unique_id,
// path; its policies are the separate aws_iam_group_policy and
// aws_iam_group_policy_attachment resources) or an NDJSON line without its
// policy lists looked whole, and aws-iam-014/017/019 passed it. The clean
// twin: AWS Config's AWS::IAM::Group item (awslabs/aws-config-resource-schema
// AWS::IAM::Group: groupPolicyList, attachedManagedPolicies; the empty
// lists as AWS Config writes them) with no policy passes all three.
func TestIAMGroup_PoliciesNotRecordedIsNotWhole(t *testing.T) {
	tf := loadReader(t, strings.NewReader(`{"version":4,"terraform_version":"1.9.5","resources":[
 {"mode":"managed","type":"aws_iam_group","name":"ops","provider":"provider[\"registry.terraform.io/hashicorp/aws\"]",
  "instances":[{"attributes":{"arn":"arn:aws:iam::111122223333:group/ops","id":"ops","name":"ops","path":"/","unique_id":"AGPAEXAMPLE0000000001"}}]}]}`))
	cfg := decodeItems(t, `{"configurationItemVersion":"1.3","configurationItemCaptureTime":"2025-06-01T07:00:00.000Z",
 "configurationItemStatus":"OK","ARN":"arn:aws:iam::111122223333:group/ops","resourceType":"AWS::IAM::Group",
 "resourceId":"AGPAEXAMPLE0000000001","resourceName":"ops","awsAccountId":"111122223333","awsRegion":"global",
 "configuration":{"path":"/","groupName":"ops","groupId":"AGPAEXAMPLE0000000001","arn":"arn:aws:iam::111122223333:group/ops",
 "createDate":"2024-02-01T09:00:00.000Z","groupPolicyList":[],"attachedManagedPolicies":[]},"supplementaryConfiguration":{}}`)
	if len(tf) != 1 || len(cfg) != 1 {
		t.Fatalf("decoded %d Terraform and %d AWS Config groups, want 1 each", len(tf), len(cfg))
	}
	for name, res := range map[string]engine.Resource{
		"terraform aws_iam_group": tf[0],
		"ndjson without policies": mk(inv.TypeIAMGroup, `{"group_name":"ops","group_id":"AGPAEXAMPLE0000000001"}`),
	} {
		got := outcomes(t, res, groupPolicyRules)
		for _, id := range groupPolicyRules {
			if got[id] != OutcomeNotEvaluated {
				t.Errorf("%s (%s): %s is %q, want %s", name, res.Attributes, id, got[id], OutcomeNotEvaluated)
			}
		}
	}
	got := outcomes(t, cfg[0], groupPolicyRules)
	for _, id := range groupPolicyRules {
		if got[id] != OutcomePassed {
			t.Errorf("AWS Config group without policies (%s): %s is %q, want %s", cfg[0].Attributes, id, got[id], OutcomePassed)
		}
	}
	// An AWS Config item that does not carry the lists (a partial item)
	// records them as unknown too.
	partial := decodeItems(t, `{"configurationItemVersion":"1.3","configurationItemCaptureTime":"2025-06-01T07:00:00.000Z",
 "configurationItemStatus":"OK","ARN":"arn:aws:iam::111122223333:group/ops","resourceType":"AWS::IAM::Group",
 "resourceId":"AGPAEXAMPLE0000000001","resourceName":"ops","awsAccountId":"111122223333","awsRegion":"global",
 "configuration":{"path":"/","groupName":"ops","groupId":"AGPAEXAMPLE0000000001"}}`)
	got = outcomes(t, partial[0], groupPolicyRules)
	for _, id := range groupPolicyRules {
		if got[id] != OutcomeNotEvaluated {
			t.Errorf("AWS Config group without its policy lists: %s is %q, want %s", id, got[id], OutcomeNotEvaluated)
		}
	}
}
