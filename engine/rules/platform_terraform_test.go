package rules

import (
	"slices"
	"strings"
	"testing"
)

// tfContainersState is a Terraform state with the attributes the AWS
// provider records for aws_ecs_task_definition (container_definitions as a
// JSON string in ECS's camelCase, volume blocks) and aws_eks_cluster
// (vpc_config, encryption_config, enabled_cluster_log_types): one hardened
// instance of each and one misconfigured (registry.terraform.io/providers/
// hashicorp/aws/latest/docs, "Argument Reference").
func tfContainersState(bad bool) string {
	containers := `[{"name":"web","image":"web:1","essential":true,"user":"1000","readonlyRootFilesystem":true,` +
		`"logConfiguration":{"logDriver":"awslogs"},"environment":[{"name":"LOG_LEVEL","value":"info"}]}]`
	network, volume := "awsvpc", `{"name":"shared","host_path":"","efs_volume_configuration":[{"file_system_id":"fs-1","transit_encryption":"ENABLED"}]}`
	vpc := `{"endpoint_public_access":false,"endpoint_private_access":true,"public_access_cidrs":["0.0.0.0/0"]}`
	enc := `[{"resources":["secrets"],"provider":[{"key_arn":"arn:aws:kms:eu-west-1:111122223333:key/k"}]}]`
	logs := `["api","audit","authenticator","controllerManager","scheduler"]`
	if bad {
		containers = `[{"name":"web","image":"web:1","essential":true,"privileged":true,"user":"root",` +
			`"environment":[{"name":"AWS_SECRET_ACCESS_KEY","value":"x"}],"linuxParameters":{"capabilities":{"add":["SYS_ADMIN"]}}}]`
		network, volume = "host", `{"name":"docker","host_path":"/var/run/docker.sock","efs_volume_configuration":[]}`
		vpc, enc, logs = `{"endpoint_public_access":true,"endpoint_private_access":false,"public_access_cidrs":["0.0.0.0/0"]}`, `[]`, `[]`
	}
	q := strings.ReplaceAll(containers, `"`, `\"`)
	return `{"version":4,"terraform_version":"1.9.5","resources":[
 {"mode":"managed","type":"aws_ecs_task_definition","name":"web","provider":"provider[\"registry.terraform.io/hashicorp/aws\"]","instances":[{"attributes":{
   "arn":"arn:aws:ecs:eu-west-1:111122223333:task-definition/web:3","id":"web","family":"web","revision":3,"network_mode":"` + network + `",
   "container_definitions":"` + q + `","volume":[` + volume + `],
   "tags":{"owner":"a","environment":"production","cost-center":"c"}}}]},
 {"mode":"managed","type":"aws_eks_cluster","name":"main","provider":"provider[\"registry.terraform.io/hashicorp/aws\"]","instances":[{"attributes":{
   "arn":"arn:aws:eks:eu-west-1:111122223333:cluster/main","id":"main","name":"main","version":"1.31","vpc_config":[` + vpc + `],
   "encryption_config":` + enc + `,"enabled_cluster_log_types":` + logs + `,"tags":{"owner":"a","environment":"production","cost-center":"c"}}}]}
]}`
}

// TestPlatformRules_Terraform decodes the task definition and cluster from
// Terraform state: the hardened pair raises nothing, the misconfigured one
// raises the container and EKS checks.
func TestPlatformRules_Terraform(t *testing.T) {
	fired := func(state string) []string {
		var ids []string
		for _, r := range loadReader(t, strings.NewReader(state)) {
			for _, v := range Evaluate(r, testNow) {
				ids = append(ids, v.Rule.ID)
			}
		}
		slices.Sort(ids)
		return ids
	}
	if got := fired(tfContainersState(false)); len(got) > 0 {
		t.Errorf("hardened Terraform state fired %v", got)
	}
	got := fired(tfContainersState(true))
	for _, want := range []string{"aws-ecs-001", "aws-ecs-002", "aws-ecs-003", "aws-ecs-004", "aws-ecs-005", "aws-ecs-006", "aws-ecs-008",
		"aws-ecs-010", "aws-eks-001", "aws-eks-002", "aws-eks-003", "aws-eks-006"} {
		if !slices.Contains(got, want) {
			t.Errorf("misconfigured Terraform state did not fire %s (fired %v)", want, got)
		}
	}
}
