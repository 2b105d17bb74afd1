package inventory

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// tfIAMState is a Terraform state with the attributes the AWS provider
// records for aws_iam_role (assume_role_policy and inline_policy[].policy
// as JSON strings, managed_policy_arns), aws_iam_policy (policy,
// attachment_count), aws_iam_group, aws_sqs_queue and aws_secretsmanager_secret
// (registry.terraform.io/providers/hashicorp/aws/latest/docs, "Attribute
// Reference" of each resource).
const tfIAMState = `{"version":4,"terraform_version":"1.9.5","resources":[
 {"mode":"managed","type":"aws_iam_role","name":"ci","provider":"provider[\"registry.terraform.io/hashicorp/aws\"]","instances":[{"attributes":{
   "arn":"arn:aws:iam::111122223333:role/ci","id":"ci","name":"ci","unique_id":"AROAEXAMPLE","path":"/","create_date":"2024-05-01T10:00:00Z",
   "assume_role_policy":"{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"*\"},\"Action\":\"sts:AssumeRole\"}]}",
   "inline_policy":[{"name":"deploy","policy":"{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Action\":\"*\",\"Resource\":\"*\"}]}"},{"name":"","policy":""}],
   "managed_policy_arns":["arn:aws:iam::aws:policy/ReadOnlyAccess"],"permissions_boundary":""}}]},
 {"mode":"managed","type":"aws_iam_policy","name":"p","provider":"provider[\"registry.terraform.io/hashicorp/aws\"]","instances":[{"attributes":{
   "arn":"arn:aws:iam::111122223333:policy/launch","id":"arn:aws:iam::111122223333:policy/launch","name":"launch","policy_id":"ANPAEXAMPLE","path":"/","attachment_count":2,
   "policy":"{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Action\":[\"iam:PassRole\",\"ec2:RunInstances\"],\"Resource\":\"*\"}]}"}}]},
 {"mode":"managed","type":"aws_iam_group","name":"g","provider":"provider[\"registry.terraform.io/hashicorp/aws\"]","instances":[{"attributes":{
   "arn":"arn:aws:iam::111122223333:group/devs","id":"devs","name":"devs","unique_id":"AGPAEXAMPLE","path":"/"}}]},
 {"mode":"managed","type":"aws_sqs_queue","name":"q","provider":"provider[\"registry.terraform.io/hashicorp/aws\"]","instances":[{"attributes":{
   "arn":"arn:aws:sqs:eu-west-1:111122223333:jobs","id":"https://sqs.eu-west-1.amazonaws.com/111122223333/jobs","name":"jobs","policy":"","sqs_managed_sse_enabled":true}}]},
 {"mode":"managed","type":"aws_secretsmanager_secret","name":"s","provider":"provider[\"registry.terraform.io/hashicorp/aws\"]","instances":[{"attributes":{
   "arn":"arn:aws:secretsmanager:eu-west-1:111122223333:secret:api-AbCdEf","id":"arn:aws:secretsmanager:eu-west-1:111122223333:secret:api-AbCdEf","name":"api",
   "kms_key_id":"","rotation_enabled":false,"policy":"{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":\"*\",\"Action\":\"secretsmanager:GetSecretValue\",\"Resource\":\"*\"}]}"}}]}
]}`

func TestTerraform_IAMAndResourcePolicies(t *testing.T) {
	d := NewTerraformDecoder(strings.NewReader(tfIAMState))
	got := map[string]engine.Resource{}
	for {
		r, err := d.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got[r.Type] = r
	}
	role := got[TypeIAMRole]
	var ra IAMRole
	if err := json.Unmarshal(role.Attributes, &ra); err != nil {
		t.Fatal(err)
	}
	if role.Region != RegionGlobal || ra.RoleName != "ci" || ra.AssumeRolePolicy == nil || string(ra.AssumeRolePolicy.Statement[0].Principal) != `{"AWS":"*"}` ||
		len(ra.InlinePolicies) != 1 || ra.InlinePolicies[0].Name != "deploy" || len(ra.AttachedPolicyARNs) != 1 {
		t.Errorf("role: %s %s", role.Region, role.Attributes)
	}
	var pa IAMPolicy
	if err := json.Unmarshal(got[TypeIAMPolicy].Attributes, &pa); err != nil {
		t.Fatal(err)
	}
	if pa.PolicyName != "launch" || pa.AttachmentCount == nil || *pa.AttachmentCount != 2 || pa.Document == nil || len(pa.Document.Statement[0].Action) != 2 {
		t.Errorf("policy: %s", got[TypeIAMPolicy].Attributes)
	}
	if _, ok := got[TypeIAMGroup]; !ok {
		t.Error("no group")
	}
	var q SQSQueue
	if err := json.Unmarshal(got[TypeSQSQueue].Attributes, &q); err != nil || q.Policy != nil {
		t.Errorf("queue with policy \"\": %s", got[TypeSQSQueue].Attributes)
	}
	var s SecretsManagerSecret
	if err := json.Unmarshal(got[TypeSecretsManagerSecret].Attributes, &s); err != nil || s.Policy == nil || s.Name != "api" {
		t.Errorf("secret: %s", got[TypeSecretsManagerSecret].Attributes)
	}
}
