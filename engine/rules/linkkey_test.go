package rules

import (
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

// The link keys between two records (issue 29 §2, the last two nested
// gaps): a route's target and an attachment's policy ARN. A record that
// keeps the route or the attachment but not its target is not a route to
// nothing nor a policy of no name: what it links to is unknown.

// linkRouteTable is an AWS::EC2::RouteTable item (awslabs/
// aws-config-resource-schema AWS::EC2::RouteTable.properties.json:
// configuration.routes.{destinationCidrBlock,gatewayId,natGatewayId,…})
// with the local route and a default route given by target, a JSON
// fragment naming the route's target ("" for none).
func linkRouteTable(target string, history bool) string {
	conf := `{"routeTableId":"rtb-0link","vpcId":"vpc-0a1b2c3d","ownerId":"111122223333","associations":[{"main":false,
  "routeTableAssociationId":"rtbassoc-1","routeTableId":"rtb-0link","subnetId":"subnet-0a1b2c3d"}],"propagatingVgws":[],
  "routes":[{"destinationCidrBlock":"10.20.0.0/16","gatewayId":"local","origin":"CreateRouteTable","state":"active"},
  {"destinationCidrBlock":"0.0.0.0/0"` + target + `,"origin":"CreateRoute","state":"active"}]}`
	if history {
		return histItem("AWS::EC2::RouteTable", "rtb-0link", ec2ARN("route-table", "rtb-0link"), conf, "")
	}
	return cfgItem("AWS::EC2::RouteTable", "rtb-0link", ec2ARN("route-table", "rtb-0link"), conf, "")
}

// linkNAT is an available AWS::EC2::NatGateway item of the same account
// and region.
func linkNAT() string {
	return cfgItem("AWS::EC2::NatGateway", "nat-0a1b2c3d", ec2ARN("natgateway", "nat-0a1b2c3d"),
		`{"natGatewayId":"nat-0a1b2c3d","vpcId":"vpc-0a1b2c3d","subnetId":"subnet-0pub","state":"available","connectivityType":"public"}`, "")
}

// ruleOutcome audits resources and tells what rule id made of them:
// "failed" when it fired, "not evaluated" when the auditor counted it so,
// else "passed" (when judged).
func ruleOutcome(t *testing.T, resources []engine.Resource, id string) string {
	t.Helper()
	a := NewAuditor(testNow)
	fired := false
	for _, r := range resources {
		for _, v := range a.Evaluate(r) {
			fired = fired || v.Rule.ID == id
		}
	}
	for _, v := range a.Finish() {
		fired = fired || v.Rule.ID == id
	}
	switch {
	case fired:
		return OutcomeFailed
	case a.NotEvaluated()[id] > 0:
		return OutcomeNotEvaluated
	case a.Evaluated()[id] > 0:
		return OutcomePassed
	}
	return "not applied"
}

// TestRouteWithoutTarget_RoutesUnknown: a route of an AWS Config route
// table that names none of EC2's route targets leaves the table's routes
// unknown, so aws-vpc-006 does not call the NAT gateway unused (on the old
// code it did: the route counted as a route to nothing, the gateway's
// route count as 0) and aws-vpc-005 does not pass the table. The clean
// twins: the same route naming the gateway passes aws-vpc-006; a route to
// any other target of the Route shape (carrierGatewayId, coreNetworkArn,
// localGatewayId, …) keeps the routes known, so the gateway no table
// routes to is still judged unused. Both encodings: snapshot objects and
// history's JSON strings.
func TestRouteWithoutTarget_RoutesUnknown(t *testing.T) {
	for _, history := range []bool{false, true} {
		res := decodeItems(t, items(linkRouteTable("", history), linkNAT()))
		if got := ruleOutcome(t, res, "aws-vpc-006"); got != OutcomeNotEvaluated {
			t.Errorf("history=%v: a route without a target: aws-vpc-006 %s, want %s", history, got, OutcomeNotEvaluated)
		}
		for _, r := range res {
			if r.Type == "aws_route_table" && strings.Contains(string(r.Attributes), `"routes"`) {
				t.Errorf("history=%v: routes recorded though one names no target: %s", history, r.Attributes)
			}
		}
		if got := ruleOutcome(t, res, "aws-vpc-005"); got != OutcomeNotEvaluated {
			t.Errorf("history=%v: a route without a target: aws-vpc-005 %s, want %s", history, got, OutcomeNotEvaluated)
		}
		twin := decodeItems(t, items(linkRouteTable(`,"natGatewayId":"nat-0a1b2c3d"`, history), linkNAT()))
		if got := ruleOutcome(t, twin, "aws-vpc-006"); got != OutcomePassed {
			t.Errorf("history=%v: a route to the gateway: aws-vpc-006 %s, want %s", history, got, OutcomePassed)
		}
		if got := ruleOutcome(t, twin, "aws-vpc-005"); got != OutcomePassed {
			t.Errorf("history=%v: aws-vpc-005 on the twin %s, want %s", history, got, OutcomePassed)
		}
		for _, target := range []string{`,"carrierGatewayId":"cagw-1"`, `,"coreNetworkArn":"arn:aws:networkmanager::111122223333:core-network/core-network-1"`,
			`,"localGatewayId":"lgw-1"`, `,"networkInterfaceId":"eni-1"`, `,"instanceId":"i-1"`, `,"transitGatewayId":"tgw-1"`,
			`,"egressOnlyInternetGatewayId":"eigw-1"`, `,"vpcEndpointId":"vpce-1"`, `,"gatewayId":"igw-1"`, `,"vpcPeeringConnectionId":"pcx-1"`} {
			res := decodeItems(t, items(linkRouteTable(target, history), linkNAT()))
			if got := ruleOutcome(t, res, "aws-vpc-006"); got != OutcomeFailed {
				t.Errorf("history=%v: route to %s: aws-vpc-006 %s, want %s (the table's routes are known)", history, target, got, OutcomeFailed)
			}
		}
	}
}

// TestTerraform_RouteWithoutTargetStaysUnknown is the same for a Terraform
// aws_route_table (AWS provider route block: gateway_id, nat_gateway_id,
// transit_gateway_id, vpc_peering_connection_id, network_interface_id,
// egress_only_gateway_id, carrier_gateway_id, local_gateway_id,
// core_network_arn, vpc_endpoint_id, written "" when unset): a block with
// every target empty leaves the routes unknown (aws-vpc-005 not
// evaluated; on the old code it passed on a table whose routes nobody
// knew); the twin routing the block to a peering connection passes.
func TestTerraform_RouteWithoutTargetStaysUnknown(t *testing.T) {
	state := func(peering string) string {
		return `{"version":4,"terraform_version":"1.9.5","resources":[{"mode":"managed","type":"aws_route_table","name":"x",
 "provider":"provider[\"registry.terraform.io/hashicorp/aws\"]","instances":[{"schema_version":0,"attributes":{"id":"rtb-0a",
 "arn":"arn:aws:ec2:eu-west-1:111122223333:route-table/rtb-0a","owner_id":"111122223333","vpc_id":"vpc-1","propagating_vgws":[],
 "route":[{"cidr_block":"10.30.4.0/24","ipv6_cidr_block":"","destination_prefix_list_id":"","carrier_gateway_id":"","core_network_arn":"",
 "egress_only_gateway_id":"","gateway_id":"","local_gateway_id":"","nat_gateway_id":"","network_interface_id":"","transit_gateway_id":"",
 "vpc_endpoint_id":"","vpc_peering_connection_id":"` + peering + `"}]}}]}]}`
	}
	if got := ruleOutcome(t, loadReader(t, strings.NewReader(state(""))), "aws-vpc-005"); got != OutcomeNotEvaluated {
		t.Errorf("a route block without a target: aws-vpc-005 %s, want %s", got, OutcomeNotEvaluated)
	}
	if got := ruleOutcome(t, loadReader(t, strings.NewReader(state("pcx-1"))), "aws-vpc-005"); got != OutcomePassed {
		t.Errorf("a narrow peering route: aws-vpc-005 %s, want %s", got, OutcomePassed)
	}
}

// TestAttachmentWithoutPolicyARN_PoliciesUnknown: an entry of a role's
// attachedManagedPolicies without its policyArn (AWS::IAM::Role in
// awslabs/aws-config-resource-schema: attachedManagedPolicies.policyArn,
// .policyName) leaves the role's attached policies unknown, so
// aws-iam-021 "no role may manage AWS Support cases" is not evaluated (on
// the old code it failed: the attachment counted as a policy of no name).
// The clean twin, the same attachment with its ARN, passes; a user's and
// a group's lists follow the same rule.
func TestAttachmentWithoutPolicyARN_PoliciesUnknown(t *testing.T) {
	const support = "arn:aws:iam::aws:policy/AWSSupportAccess"
	for _, history := range []bool{false, true} {
		noARN := strings.Replace(iamRole(history, "", support), `"policyArn":"`+support+`",`, "", 1)
		if history {
			noARN = strings.Replace(iamRole(history, "", support), `\"policyArn\":\"`+support+`\",`, "", 1)
		}
		if noARN == iamRole(history, "", support) {
			t.Fatalf("history=%v: the fixture's policyArn was not removed: %s", history, noARN)
		}
		res := decodeItems(t, items(noARN))
		if got := ruleOutcome(t, res, "aws-iam-021"); got != OutcomeNotEvaluated {
			t.Errorf("history=%v: attachment without policyArn: aws-iam-021 %s, want %s (%s)", history, got, OutcomeNotEvaluated, res[0].Attributes)
		}
		if got := ruleOutcome(t, decodeItems(t, items(iamRole(history, "", support))), "aws-iam-021"); got != OutcomePassed {
			t.Errorf("history=%v: the twin with its ARN: aws-iam-021 %s, want %s", history, got, OutcomePassed)
		}
	}
	for _, c := range []struct{ typ, conf string }{
		{"AWS::IAM::User", `{"userName":"ops","userId":"AIDAEXAMPLE000000001","arn":"arn:aws:iam::111122223333:user/ops","path":"/",
  "createDate":"2024-02-01T09:00:00.000Z","userPolicyList":[],"groupList":[],"attachedManagedPolicies":[%s]}`},
		{"AWS::IAM::Group", `{"groupName":"ops","groupId":"AGPAEXAMPLE000000001","arn":"arn:aws:iam::111122223333:group/ops","path":"/",
  "createDate":"2024-02-01T09:00:00.000Z","groupPolicyList":[],"attachedManagedPolicies":[%s]}`},
	} {
		for att, known := range map[string]bool{`{"policyName":"ReadOnlyAccess"}`: false,
			`{"policyName":"ReadOnlyAccess","policyArn":"arn:aws:iam::aws:policy/ReadOnlyAccess"}`: true} {
			item := cfgItem(c.typ, "AIDAEXAMPLE000000001", "arn:aws:iam::111122223333:x/ops", strings.Replace(c.conf, "%s", att, 1), "")
			res := decodeItems(t, item)
			if len(res) != 1 {
				t.Fatalf("%s: decoded %d resources", c.typ, len(res))
			}
			if got := strings.Contains(string(res[0].Attributes), `"attached_policy_arns"`); got != known {
				t.Errorf("%s with attachment %s: attached_policy_arns recorded %v, want %v: %s", c.typ, att, got, known, res[0].Attributes)
			}
		}
	}
}
