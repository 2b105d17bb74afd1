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

// TestIAMUserRole_PoliciesNotRecordedIsNotWhole is the group test's twin
// for users and roles (issue 29): a Terraform aws_iam_user (AWS provider:
// name, unique_id, path; aws_iam_user_policy and
// aws_iam_user_policy_attachment are resources of their own) and an
// aws_iam_role from a state without managed_policy_arns and inline_policy
// (an older provider's, or one written by hand) looked whole on the old
// code, and every check reading their policies passed them. The clean
// twins: AWS Config's AWS::IAM::User with empty userPolicyList and
// attachedManagedPolicies (awslabs/aws-config-resource-schema
// AWS::IAM::User) and a Terraform role whose state records both lists
// empty pass them.
func TestIAMUserRole_PoliciesNotRecordedIsNotWhole(t *testing.T) {
	userRules := []string{"aws-iam-006", "aws-iam-010", "aws-iam-017", "aws-iam-019", "aws-iam-023", "aws-iam-024"}
	roleRules := []string{"aws-iam-013", "aws-iam-017", "aws-iam-019", "aws-iam-023", "aws-iam-024"}
	state := func(typ, attrs string) []engine.Resource {
		return loadReader(t, strings.NewReader(`{"version":4,"terraform_version":"1.9.5","resources":[
 {"mode":"managed","type":"`+typ+`","name":"x","provider":"provider[\"registry.terraform.io/hashicorp/aws\"]",
  "instances":[{"attributes":`+attrs+`}]}]}`))
	}
	trust := `"{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":{\"Service\":\"lambda.amazonaws.com\"},\"Action\":\"sts:AssumeRole\"}]}"`
	role := `{"arn":"arn:aws:iam::111122223333:role/app","id":"app","name":"app","path":"/","unique_id":"AROAEXAMPLE000000001",
 "create_date":"2024-02-01T09:00:00Z","assume_role_policy":` + trust
	cfgUser := decodeItems(t, `{"configurationItemVersion":"1.3","configurationItemCaptureTime":"2025-06-01T07:00:00.000Z",
 "configurationItemStatus":"OK","ARN":"arn:aws:iam::111122223333:user/ana","resourceType":"AWS::IAM::User",
 "resourceId":"AIDAEXAMPLE000000001","resourceName":"ana","awsAccountId":"111122223333","awsRegion":"global",
 "configuration":{"path":"/","userName":"ana","userId":"AIDAEXAMPLE000000001","arn":"arn:aws:iam::111122223333:user/ana",
 "createDate":"2024-02-01T09:00:00.000Z","userPolicyList":[],"groupList":["developers"],"attachedManagedPolicies":[]},"supplementaryConfiguration":{}}`)
	cases := []struct {
		name  string
		res   []engine.Resource
		rules []string
		want  string
	}{
		{"terraform aws_iam_user", state("aws_iam_user", `{"arn":"arn:aws:iam::111122223333:user/ana","id":"ana","name":"ana","path":"/","unique_id":"AIDAEXAMPLE000000001"}`), userRules, OutcomeNotEvaluated},
		{"ndjson user without policies", []engine.Resource{mk(inv.TypeIAMUser, `{"user_name":"ana","user_id":"AIDAEXAMPLE000000001","password_enabled":false,"mfa_active":false}`)}, userRules, OutcomeNotEvaluated},
		{"AWS Config user with empty lists", cfgUser, userRules, OutcomePassed},
		{"terraform role without its policy lists", state("aws_iam_role", role+`}`), roleRules, OutcomeNotEvaluated},
		{"terraform role with empty policy lists", state("aws_iam_role", role+`,"managed_policy_arns":[],"inline_policy":[]}`), roleRules, OutcomePassed},
	}
	for _, c := range cases {
		if len(c.res) != 1 {
			t.Fatalf("%s: decoded %d resources, want 1", c.name, len(c.res))
		}
		got := outcomes(t, c.res[0], c.rules)
		for _, id := range c.rules {
			if got[id] != c.want {
				t.Errorf("%s (%s): %s is %q, want %s", c.name, c.res[0].Attributes, id, got[id], c.want)
			}
		}
	}
}
