package inventory

import (
	"strings"
	"testing"
)

// TestTerraform_SGRuleWithoutPortsStaysUnknown checks Terraform's inline
// security group rules (issue 29): the AWS provider writes from_port,
// to_port and protocol in every ingress/egress element, so an element
// without from_port is a partial state, and the group's ingress is
// unknown rather than a rule on port 0 — also when an
// aws_security_group_rule resource patches the group (the joiner used to
// re-marshal the group with its rules, turning the unknown list into a
// known one). The clean twin: the same group with its ports keeps ingress.
func TestTerraform_SGRuleWithoutPortsStaysUnknown(t *testing.T) {
	state := func(inline string) string {
		return `{"version":4,"terraform_version":"1.9.5","resources":[
 {"mode":"managed","type":"aws_security_group","name":"web","provider":"provider[\"registry.terraform.io/hashicorp/aws\"]",
  "instances":[{"attributes":{"arn":"arn:aws:ec2:eu-west-1:111122223333:security-group/sg-0a1b2c3d","id":"sg-0a1b2c3d","name":"web",
  "vpc_id":"vpc-0a1b2c3d","owner_id":"111122223333","description":"web",
  "ingress":[` + inline + `],"egress":[]}}]},
 {"mode":"managed","type":"aws_security_group_rule","name":"https","provider":"provider[\"registry.terraform.io/hashicorp/aws\"]",
  "instances":[{"attributes":{"id":"sgrule-1","type":"ingress","security_group_id":"sg-0a1b2c3d","protocol":"tcp","from_port":443,"to_port":443,
  "cidr_blocks":["10.0.0.0/8"]}}]}]}`
	}
	ingress := func(inline string) (string, bool) {
		d, _, err := Open(strings.NewReader(state(inline)))
		if err != nil {
			t.Fatal(err)
		}
		for {
			r, err := d.Next()
			if err != nil {
				t.Fatalf("no security group decoded: %v", err)
			}
			if r.Type == TypeSecurityGroup {
				v, ok := keyValue(r.Attributes, "ingress")
				return string(v), ok
			}
		}
	}
	rule := `{"cidr_blocks":["0.0.0.0/0"],"description":"","ipv6_cidr_blocks":[],"prefix_list_ids":[],"protocol":"tcp","security_groups":[],"self":false,"to_port":22`
	if v, ok := ingress(rule + `}`); ok {
		t.Errorf("a rule without from_port: ingress is %s, want it unknown (absent)", v)
	}
	v, ok := ingress(rule + `,"from_port":22}`)
	if !ok || !strings.Contains(v, `"from_port":22`) || !strings.Contains(v, `"from_port":443`) {
		t.Errorf("a whole rule and a patched one: ingress %s (present %v), want both rules", v, ok)
	}
}
