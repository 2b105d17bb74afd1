package rules

import (
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// tfNetworkState is a Terraform state (format version 4) with the
// attributes the AWS provider records for aws_subnet, aws_network_acl,
// aws_route_table, aws_vpc_endpoint, aws_ec2_transit_gateway,
// aws_launch_template and aws_lb_listener (registry.terraform.io/providers/
// hashicorp/aws/latest/docs, each resource's argument and attribute
// reference); bad selects the misconfigured or the hardened twin.
func tfNetworkState(bad bool) string {
	pick := func(b, g string) string {
		if bad {
			return b
		}
		return g
	}
	res := func(typ, attrs string) string {
		return `{"mode":"managed","type":"` + typ + `","name":"x","provider":"provider[\"registry.terraform.io/hashicorp/aws\"]","instances":[{"schema_version":0,"attributes":` + attrs + `}]}`
	}
	const arn = "arn:aws:ec2:eu-west-1:111122223333:"
	rs := []string{
		res("aws_subnet", `{"id":"subnet-0a","arn":"`+arn+`subnet/subnet-0a","vpc_id":"vpc-1","cidr_block":"10.0.1.0/24","availability_zone":"eu-west-1a",
  "map_public_ip_on_launch":`+pick("true", "false")+`,"tags":{"owner":"net","environment":"prod","cost-center":"cc"}}`),
		res("aws_network_acl", `{"id":"acl-0a","arn":"`+arn+`network-acl/acl-0a","owner_id":"111122223333","vpc_id":"vpc-1","subnet_ids":["subnet-0a"],
  "ingress":[`+pick(``, `{"rule_no":10,"action":"deny","protocol":"tcp","cidr_block":"0.0.0.0/0","ipv6_cidr_block":"","from_port":22,"to_port":22,"icmp_code":0,"icmp_type":0},
  {"rule_no":11,"action":"deny","protocol":"6","cidr_block":"0.0.0.0/0","ipv6_cidr_block":"","from_port":3389,"to_port":3389,"icmp_code":0,"icmp_type":0},`)+`
  {"rule_no":100,"action":"allow","protocol":"-1","cidr_block":"0.0.0.0/0","ipv6_cidr_block":"","from_port":0,"to_port":0,"icmp_code":0,"icmp_type":0}],
  "egress":[{"rule_no":100,"action":"allow","protocol":"-1","cidr_block":"0.0.0.0/0","ipv6_cidr_block":"","from_port":0,"to_port":0,"icmp_code":0,"icmp_type":0}],
  "tags":{"owner":"net","environment":"prod","cost-center":"cc"}}`),
		res("aws_route_table", `{"id":"rtb-0a","arn":"`+arn+`route-table/rtb-0a","owner_id":"111122223333","vpc_id":"vpc-1","propagating_vgws":[],
  "route":[{"cidr_block":"`+pick("0.0.0.0/0", "10.30.4.0/24")+`","ipv6_cidr_block":"","gateway_id":"","nat_gateway_id":"","transit_gateway_id":"","vpc_peering_connection_id":"pcx-1"}],
  "tags":{"owner":"net","environment":"prod","cost-center":"cc"}}`),
		res("aws_vpc_endpoint", `{"id":"vpce-0a","arn":"`+arn+`vpc-endpoint/vpce-0a","owner_id":"111122223333","vpc_id":"vpc-1","service_name":"com.amazonaws.eu-west-1.ssm",
  "vpc_endpoint_type":"Interface","state":"available","subnet_ids":[`+pick(`"subnet-0a"`, `"subnet-0a","subnet-0b"`)+`],"tags":{"owner":"net","environment":"prod","cost-center":"cc"}}`),
		res("aws_ec2_transit_gateway", `{"id":"tgw-0a","arn":"`+arn+`transit-gateway/tgw-0a","owner_id":"111122223333","amazon_side_asn":64512,
  "auto_accept_shared_attachments":"`+pick("enable", "disable")+`","default_route_table_association":"enable","tags":{"owner":"net","environment":"prod","cost-center":"cc"}}`),
		res("aws_launch_template", `{"id":"lt-0a","arn":"`+arn+`launch-template/lt-0a","name":"web","instance_type":"`+pick("m4.large", "m7g.large")+`",
  "metadata_options":[{"http_endpoint":"enabled","http_tokens":"`+pick("optional", "required")+`","http_put_response_hop_limit":2,"instance_metadata_tags":"disabled"}],
  "network_interfaces":[{"associate_public_ip_address":"`+pick("true", "false")+`","device_index":0,"security_groups":["sg-1"]}],
  "tags":{"owner":"web","environment":"prod","cost-center":"cc"}}`),
		res("aws_lb_listener", `{"id":"arn:aws:elasticloadbalancing:eu-west-1:111122223333:listener/app/web/1/2","arn":"arn:aws:elasticloadbalancing:eu-west-1:111122223333:listener/app/web/1/2",
  "load_balancer_arn":"arn:aws:elasticloadbalancing:eu-west-1:111122223333:loadbalancer/app/web/1","port":80,"protocol":"HTTP","ssl_policy":"",
  "default_action":[`+pick(`{"type":"forward","target_group_arn":"arn:aws:elasticloadbalancing:eu-west-1:111122223333:targetgroup/web/3","redirect":[]}`,
			`{"type":"redirect","target_group_arn":"","redirect":[{"protocol":"HTTPS","port":"443","status_code":"HTTP_301","host":"#{host}","path":"/#{path}","query":"#{query}"}]}`)+`]}`),
	}
	return `{"version":4,"terraform_version":"1.9.5","serial":3,"lineage":"b2","outputs":{},"resources":[` + strings.Join(rs, ",") + `]}`
}

// TestTerraform_NetworkFamily imports the network and compute family's
// Terraform resources and audits them: the misconfigured state fires the
// family's checks (an all-protocol NACL entry covers SSH although the
// provider records its ports as 0), the hardened twin fires none.
func TestTerraform_NetworkFamily(t *testing.T) {
	family := []string{"aws-vpc-002", "aws-vpc-003", "aws-vpc-005", "aws-vpc-007", "aws-vpc-008", "aws-ec2-013", "aws-ec2-014", "aws-ec2-015", "aws-elb-010"}
	fired := func(state string) []string {
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
		return out
	}
	want := append([]string(nil), family...)
	sort.Strings(want)
	if diff := cmp.Diff(want, fired(tfNetworkState(true))); diff != "" {
		t.Errorf("misconfigured state (-want +got)\n%s", diff)
	}
	if got := fired(tfNetworkState(false)); len(got) > 0 {
		t.Errorf("hardened state fired %v", got)
	}
}
