package rules

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	inv "github.com/fourd-dev/fourd/engine/inventory"
)

// cfgItem is a configuration item as an AWS Config snapshot delivers it
// (AWS Config Developer Guide, "Configuration item" and example-s3-snapshot:
// configurationItemVersion, awsAccountId, ARN, configuration as an object).
// supp is the supplementaryConfiguration object ("" for none).
func cfgItem(rtype, id, arn, conf, supp string) string {
	if supp == "" {
		supp = "{}"
	}
	return `{"configurationItemVersion":"1.3","configurationItemCaptureTime":"2025-06-01T07:00:00.000Z","configurationItemStatus":"OK",
 "awsAccountId":"111122223333","resourceType":"` + rtype + `","resourceId":"` + id + `","resourceName":"` + id + `",
 "ARN":"` + arn + `","awsRegion":"eu-west-1","availabilityZone":"Multiple",
 "tags":{"owner":"platform","environment":"production","cost-center":"cc-1"},
 "configuration":` + conf + `,"supplementaryConfiguration":` + supp + `}`
}

// histItem is the same item as get-resource-config-history and
// batch-get-resource-config return it: accountId, arn, version, and the
// configuration and each supplementary value as JSON strings.
func histItem(rtype, id, arn, conf, supp string) string {
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	var sb strings.Builder
	sb.WriteString("{")
	if supp != "" {
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(supp), &m); err != nil {
			panic(err)
		}
		first := true
		for k, v := range m {
			if !first {
				sb.WriteString(",")
			}
			first = false
			sb.WriteString(q(k) + ":" + q(string(v)))
		}
	}
	sb.WriteString("}")
	return `{"version":"1.3","configurationItemCaptureTime":"2025-06-01T07:00:00.000Z","configurationItemStatus":"OK",
 "accountId":"111122223333","resourceType":"` + rtype + `","resourceId":"` + id + `","resourceName":"` + id + `",
 "arn":"` + arn + `","awsRegion":"eu-west-1","availabilityZone":"Multiple",
 "tags":{"owner":"platform","environment":"production","cost-center":"cc-1"},
 "configuration":` + q(conf) + `,"supplementaryConfiguration":` + sb.String() + `}`
}

func ec2ARN(kind, id string) string { return "arn:aws:ec2:eu-west-1:111122223333:" + kind + "/" + id }

// The network family's cases. Shapes: awslabs/aws-config-resource-schema,
// config/properties/resource-types/AWS::EC2::{NetworkAcl,Subnet,RouteTable,
// NatGateway,VPCEndpoint,TransitGateway,VPNConnection}.properties.json.
func init() {
	nacl := func(entries string, subnets string) string {
		return cfgItem("AWS::EC2::NetworkAcl", "acl-0a1b2c3d", ec2ARN("network-acl", "acl-0a1b2c3d"),
			`{"networkAclId":"acl-0a1b2c3d","vpcId":"vpc-0a1b2c3d","isDefault":false,"ownerId":"111122223333",
  "associations":[`+subnets+`],"entries":[`+entries+`]}`, "")
	}
	assoc := `{"networkAclAssociationId":"aclassoc-1","networkAclId":"acl-0a1b2c3d","subnetId":"subnet-0a1b2c3d"}`
	allowAll := `{"ruleNumber":100,"protocol":"-1","ruleAction":"allow","egress":false,"cidrBlock":"0.0.0.0/0"},
  {"ruleNumber":32767,"protocol":"-1","ruleAction":"deny","egress":false,"cidrBlock":"0.0.0.0/0"}`
	denyAdmin := `{"ruleNumber":10,"protocol":"6","ruleAction":"deny","egress":false,"cidrBlock":"0.0.0.0/0","portRange":{"from":22,"to":22}},
  {"ruleNumber":11,"protocol":"6","ruleAction":"deny","egress":false,"cidrBlock":"0.0.0.0/0","portRange":{"from":3389,"to":3389}},`
	https := `{"ruleNumber":100,"protocol":"6","ruleAction":"allow","egress":false,"cidrBlock":"0.0.0.0/0","portRange":{"from":443,"to":443}}`

	subnet := func(mapPublic bool, free int, hist bool) string {
		conf := `{"subnetId":"subnet-0a1b2c3d","vpcId":"vpc-0a1b2c3d","cidrBlock":"10.20.1.0/24","availabilityZone":"eu-west-1a",
  "availableIpAddressCount":` + itoa(free) + `,"defaultForAz":false,"mapPublicIpOnLaunch":` + boolJSON(mapPublic) + `,"state":{"value":"available"}}`
		if hist {
			return histItem("AWS::EC2::Subnet", "subnet-0a1b2c3d", ec2ARN("subnet", "subnet-0a1b2c3d"), conf, "")
		}
		return cfgItem("AWS::EC2::Subnet", "subnet-0a1b2c3d", ec2ARN("subnet", "subnet-0a1b2c3d"), conf, "")
	}
	rt := func(id, routes string) string {
		return cfgItem("AWS::EC2::RouteTable", id, ec2ARN("route-table", id),
			`{"routeTableId":"`+id+`","vpcId":"vpc-0a1b2c3d","ownerId":"111122223333","associations":[{"main":false,
  "routeTableAssociationId":"rtbassoc-1","routeTableId":"`+id+`","subnetId":"subnet-0a1b2c3d"}],"propagatingVgws":[],
  "routes":[{"destinationCidrBlock":"10.20.0.0/16","gatewayId":"local","origin":"CreateRouteTable","state":"active"}`+routes+`]}`, "")
	}
	nat := func(state string) string {
		return histItem("AWS::EC2::NatGateway", "nat-0a1b2c3d", ec2ARN("natgateway", "nat-0a1b2c3d"),
			`{"natGatewayId":"nat-0a1b2c3d","vpcId":"vpc-0a1b2c3d","subnetId":"subnet-0pub","state":{"value":"`+state+`"},
  "connectivityType":"public","createTime":"2025-01-10T10:00:00.000Z","natGatewayAddresses":[{"allocationId":"eipalloc-1",
  "networkInterfaceId":"eni-1","privateIp":"10.20.0.10","publicIp":"198.51.100.7"}]}`, "")
	}
	endpoint := func(subnets string) string {
		return cfgItem("AWS::EC2::VPCEndpoint", "vpce-0a1b2c3d", ec2ARN("vpc-endpoint", "vpce-0a1b2c3d"),
			`{"vpcEndpointId":"vpce-0a1b2c3d","vpcEndpointType":"Interface","vpcId":"vpc-0a1b2c3d","serviceName":"com.amazonaws.eu-west-1.ssm",
  "state":"available","routeTableIds":[],"subnetIds":[`+subnets+`],"groups":[{"groupId":"sg-1","groupName":"endpoints"}],
  "privateDnsEnabled":true,"requesterManaged":false,"networkInterfaceIds":["eni-1"],"creationTimestamp":"2025-01-10T10:00:00.000Z"}`, "")
	}
	tgw := func(auto string) string {
		return histItem("AWS::EC2::TransitGateway", "tgw-0a1b2c3d", ec2ARN("transit-gateway", "tgw-0a1b2c3d"),
			`{"Id":"tgw-0a1b2c3d","AmazonSideAsn":64512,"AutoAcceptSharedAttachments":"`+auto+`","DefaultRouteTableAssociation":"enable",
  "DefaultRouteTablePropagation":"enable","DnsSupport":"enable","VpnEcmpSupport":"enable","MulticastSupport":"disable"}`, "")
	}
	vpn := func(s1, s2 string) string {
		return cfgItem("AWS::EC2::VPNConnection", "vpn-0a1b2c3d", ec2ARN("vpn-connection", "vpn-0a1b2c3d"),
			`{"vpnConnectionId":"vpn-0a1b2c3d","customerGatewayId":"cgw-1","vpnGatewayId":"vgw-1","category":"VPN","state":"available","type":"ipsec.1",
  "vgwTelemetry":[{"acceptedRouteCount":2,"outsideIpAddress":"203.0.113.1","status":"`+s1+`","lastStatusChange":"2025-05-30T10:00:00.000Z"},
  {"acceptedRouteCount":2,"outsideIpAddress":"203.0.113.2","status":"`+s2+`","lastStatusChange":"2025-05-30T10:00:00.000Z"}]}`, "")
	}
	addConfigCases(map[string]configCase{
		"aws-vpc-002": {pass: nacl(denyAdmin+allowAll, assoc), fail: nacl(allowAll, assoc)},
		"aws-vpc-003": {pass: subnet(false, 200, false), fail: subnet(true, 200, true)},
		"aws-vpc-004": {pass: subnet(false, 200, true), fail: subnet(false, 12, false)},
		"aws-vpc-005": {pass: rt("rtb-1", `,{"destinationCidrBlock":"10.30.4.0/24","vpcPeeringConnectionId":"pcx-1","state":"active"}`),
			fail: rt("rtb-1", `,{"destinationCidrBlock":"0.0.0.0/0","vpcPeeringConnectionId":"pcx-1","state":"active"}`)},
		// The NAT gateway and the route tables of its account and region:
		// one routes to it, or none does.
		"aws-vpc-006": {pass: "[" + nat("available") + "," + rt("rtb-2", `,{"destinationCidrBlock":"0.0.0.0/0","natGatewayId":"nat-0a1b2c3d","state":"active"}`) + "]",
			fail: "[" + rt("rtb-2", `,{"destinationCidrBlock":"0.0.0.0/0","natGatewayId":"nat-0ffff","state":"active"}`) + "," + nat("available") + "]"},
		"aws-vpc-007": {pass: endpoint(`"subnet-0a","subnet-0b"`), fail: endpoint(`"subnet-0a"`)},
		"aws-vpc-008": {pass: tgw("disable"), fail: tgw("enable")},
		"aws-vpc-009": {pass: vpn("UP", "UP"), fail: vpn("UP", "DOWN")},
		"aws-vpc-010": {pass: nacl(https, assoc), fail: nacl(https, "")},
	})
}

func boolJSON(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

func init() {
	type unknownCase = struct {
		res     engine.Resource
		missing []string
	}
	unknownCases["aws-vpc-004"] = unknownCase{mk(inv.TypeSubnet, `{"subnet_id":"subnet-1","cidr_block":"10.0.0.0/24"}`), []string{"available_ip_address_count"}}
	unknownCases["aws-vpc-006"] = unknownCase{mk(inv.TypeNATGateway, `{"nat_gateway_id":"nat-1","state":"available"}`), []string{"route_table_count"}}
	unknownCases["aws-vpc-009"] = unknownCase{mk(inv.TypeVPNConnection, `{"vpn_connection_id":"vpn-1","state":"available"}`), []string{"tunnel_statuses"}}
}

// TestNATGatewayRouteJoin checks that a NAT gateway's use is judged only
// against route tables of its own account and region: without any, the
// count is unknown and aws-vpc-006 is not evaluated, never a finding.
func TestNATGatewayRouteJoin(t *testing.T) {
	nat := cfgItem("AWS::EC2::NatGateway", "nat-0a1b2c3d", ec2ARN("natgateway", "nat-0a1b2c3d"),
		`{"natGatewayId":"nat-0a1b2c3d","vpcId":"vpc-0a1b2c3d","subnetId":"subnet-0pub","state":"available","connectivityType":"public"}`, "")
	otherRegion := strings.Replace(cfgItem("AWS::EC2::RouteTable", "rtb-9", ec2ARN("route-table", "rtb-9"),
		`{"routeTableId":"rtb-9","vpcId":"vpc-9","routes":[{"destinationCidrBlock":"0.0.0.0/0","natGatewayId":"nat-0ffff"}]}`, ""),
		`"awsRegion":"eu-west-1"`, `"awsRegion":"us-east-1"`, 1)
	for name, items := range map[string]string{"alone": nat, "route table of another region": "[" + otherRegion + "," + nat + "]"} {
		res := decodeItems(t, items)
		a := NewAuditor(testNow)
		for _, r := range res {
			for _, v := range a.Evaluate(r) {
				if v.Rule.ID == "aws-vpc-006" {
					t.Errorf("%s: fired: %s", name, v.EvidenceJSON())
				}
			}
		}
		if n := a.NotEvaluated()["aws-vpc-006"]; n != 1 {
			t.Errorf("%s: aws-vpc-006 not evaluated %d times, want 1", name, n)
		}
	}
}
