package rules

import (
	"strings"
	"testing"
)

// TestTerraform_RecorderStatus audits a Terraform recorder that records
// every type, with its aws_config_configuration_recorder_status (AWS
// provider documentation: name, is_enabled): enabled is the clean twin (no
// aws-config-001), disabled fires it, and without a status the recorder's
// state is unknown, so the check is not evaluated rather than failed.
func TestTerraform_RecorderStatus(t *testing.T) {
	state := func(status string) string {
		s := `{"version":4,"terraform_version":"1.9.5","resources":[
 {"mode":"managed","type":"aws_config_configuration_recorder","name":"main","provider":"provider[\"registry.terraform.io/hashicorp/aws\"]",
  "instances":[{"attributes":{"id":"default","name":"default","region":"eu-west-1","role_arn":"arn:aws:iam::111122223333:role/config",
  "recording_group":[{"all_supported":true,"include_global_resource_types":true}]}}]},
 {"mode":"managed","type":"aws_sns_topic","name":"t","provider":"provider[\"registry.terraform.io/hashicorp/aws\"]",
  "instances":[{"attributes":{"id":"arn:aws:sns:eu-west-1:111122223333:t","arn":"arn:aws:sns:eu-west-1:111122223333:t","name":"t"}}]}`
		if status != "" {
			s += `,
 {"mode":"managed","type":"aws_config_configuration_recorder_status","name":"main","provider":"provider[\"registry.terraform.io/hashicorp/aws\"]",
  "instances":[{"attributes":{"id":"default","name":"default","region":"eu-west-1","is_enabled":` + status + `}}]}`
		}
		return s + `]}`
	}
	audit := func(status string) (int, int64) {
		res := loadReader(t, strings.NewReader(state(status)))
		a := NewAuditor(testNow)
		n := 0
		for _, r := range res {
			for _, v := range a.Evaluate(r) {
				if v.Rule.ID == "aws-config-001" {
					n++
				}
			}
		}
		return n, a.NotEvaluated()["aws-config-001"]
	}
	if n, ne := audit("true"); n != 0 || ne != 0 {
		t.Errorf("recording recorder: %d findings, %d not evaluated; want none", n, ne)
	}
	if n, _ := audit("false"); n != 1 {
		t.Errorf("stopped recorder: %d findings of aws-config-001, want 1", n)
	}
	if n, ne := audit(""); n != 0 || ne != 1 {
		t.Errorf("no status: %d findings, %d not evaluated; want 0 and 1", n, ne)
	}
}
