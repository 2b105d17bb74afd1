package rules

import (
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// tfEdgeState is a Terraform state with the attributes the AWS provider
// records for aws_elb, aws_launch_configuration, aws_api_gateway_stage,
// aws_apigatewayv2_stage, aws_networkfirewall_firewall and
// aws_wafv2_web_acl (registry.terraform.io/providers/hashicorp/aws/latest/
// docs); bad selects the misconfigured or the hardened twin.
func tfEdgeState(bad bool) string {
	pick := func(b, g string) string {
		if bad {
			return b
		}
		return g
	}
	res := func(typ, attrs string) string {
		return `{"mode":"managed","type":"` + typ + `","name":"x","provider":"provider[\"registry.terraform.io/hashicorp/aws\"]","instances":[{"schema_version":0,"attributes":` + attrs + `}]}`
	}
	tags := `"tags":{"owner":"web","environment":"prod","cost-center":"cc"}`
	rs := []string{
		res("aws_elb", `{"id":"legacy","arn":"arn:aws:elasticloadbalancing:eu-west-1:111122223333:loadbalancer/legacy","name":"legacy","internal":false,
  "availability_zones":[`+pick(`"eu-west-1a"`, `"eu-west-1a","eu-west-1b"`)+`],"instances":[`+pick(``, `"i-0a","i-0b"`)+`],
  "listener":[{"instance_port":80,"instance_protocol":"http","lb_port":`+pick(`80,"lb_protocol":"http"`, `443,"lb_protocol":"https"`)+`,"ssl_certificate_id":""}],`+tags+`}`),
		res("aws_launch_configuration", `{"id":"batch","arn":"arn:aws:autoscaling:eu-west-1:111122223333:launchConfiguration:1:launchConfigurationName/batch","name":"batch",
  "image_id":"ami-0abc","instance_type":"`+pick("m4.large", "m7g.large")+`","associate_public_ip_address":`+pick("true", "false")+`,
  "metadata_options":[{"http_endpoint":"enabled","http_tokens":"`+pick("optional", "required")+`","http_put_response_hop_limit":2}]}`),
		res("aws_api_gateway_stage", `{"id":"ags-a1b2c3d4e5-prod","arn":"arn:aws:apigateway:eu-west-1::/restapis/a1b2c3d4e5/stages/prod","stage_name":"prod",
  "rest_api_id":"a1b2c3d4e5","deployment_id":"dep1","xray_tracing_enabled":`+pick("false", "true")+`,"cache_cluster_enabled":false,
  "web_acl_arn":"`+pick("", "arn:aws:wafv2:eu-west-1:111122223333:regional/webacl/api/1")+`",
  "access_log_settings":[`+pick(``, `{"destination_arn":"arn:aws:logs:eu-west-1:111122223333:log-group:api","format":"$context.requestId"}`)+`],`+tags+`}`),
		res("aws_apigatewayv2_stage", `{"id":"$default","arn":"arn:aws:apigateway:eu-west-1::/apis/f1e2d3c4b5/stages/$default","name":"$default","api_id":"f1e2d3c4b5",
  "access_log_settings":[`+pick(``, `{"destination_arn":"arn:aws:logs:eu-west-1:111122223333:log-group:http","format":"$context.requestId"}`)+`],`+tags+`}`),
		res("aws_networkfirewall_firewall", `{"id":"arn:aws:network-firewall:eu-west-1:111122223333:firewall/egress","arn":"arn:aws:network-firewall:eu-west-1:111122223333:firewall/egress",
  "name":"egress","vpc_id":"vpc-1","delete_protection":`+pick("false", "true")+`,"subnet_change_protection":`+pick("false", "true")+`,
  "firewall_policy_change_protection":true,"subnet_mapping":[`+pick(`{"subnet_id":"subnet-0a","ip_address_type":"IPV4"}`,
			`{"subnet_id":"subnet-0a","ip_address_type":"IPV4"},{"subnet_id":"subnet-0b","ip_address_type":"IPV4"}`)+`],`+tags+`}`),
		res("aws_wafv2_web_acl", `{"id":"a1b2","arn":"arn:aws:wafv2:eu-west-1:111122223333:regional/webacl/api/a1b2","name":"api","scope":"REGIONAL",
  "default_action":[{"allow":[{"custom_request_handling":[]}],"block":[]}],
  "rule":[{"name":"common","priority":0,"action":[],"override_action":[{"count":`+pick(`[{}]`, `[]`)+`,"none":`+pick(`[]`, `[{}]`)+`}],
    "visibility_config":[{"cloudwatch_metrics_enabled":true,"metric_name":"common","sampled_requests_enabled":true}]}],
  "visibility_config":[{"cloudwatch_metrics_enabled":`+pick("false", "true")+`,"metric_name":"api","sampled_requests_enabled":true}],`+tags+`}`),
	}
	return `{"version":4,"terraform_version":"1.9.5","serial":3,"lineage":"b2e","outputs":{},"resources":[` + strings.Join(rs, ",") + `]}`
}

// TestTerraform_EdgeFamily imports the compute and edge families' Terraform
// resources and audits them: the misconfigured state fires the family's
// checks, the hardened twin fires none but aws-elb-005 (a classic load
// balancer is one); facts Terraform keeps elsewhere are not evaluated.
func TestTerraform_EdgeFamily(t *testing.T) {
	family := []string{"aws-elb-005", "aws-elb-006", "aws-elb-007", "aws-elb-009", "aws-asg-003", "aws-asg-004", "aws-asg-006",
		"aws-apigateway-001", "aws-apigateway-003", "aws-apigateway-004", "aws-apigateway-006",
		"aws-networkfirewall-001", "aws-networkfirewall-002", "aws-networkfirewall-003", "aws-waf-002", "aws-waf-003"}
	audit := func(state string) ([]string, map[string]int64) {
		seen := map[string]bool{}
		a := NewAuditor(testNow)
		for _, r := range loadReader(t, strings.NewReader(state)) {
			for _, v := range a.Evaluate(r) {
				for _, id := range family {
					if v.Rule.ID == id {
						seen[id] = true
					}
				}
			}
		}
		var out []string
		for id := range seen {
			out = append(out, id)
		}
		sort.Strings(out)
		return out, a.NotEvaluated()
	}
	want := append([]string(nil), family...)
	sort.Strings(want)
	got, _ := audit(tfEdgeState(true))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("misconfigured state (-want +got)\n%s", diff)
	}
	got, ne := audit(tfEdgeState(false))
	if diff := cmp.Diff([]string{"aws-elb-005"}, got); diff != "" {
		t.Errorf("hardened state (-want +got)\n%s", diff)
	}
	for _, id := range []string{"aws-elb-008", "aws-apigateway-002"} {
		if ne[id] != 1 {
			t.Errorf("%s not evaluated %d times, want 1 (its facts are in other Terraform resources)", id, ne[id])
		}
	}
}
