package inventory

import (
	"encoding/json"
	"strings"
)

// Terraform mappers of the network family: security groups and their rule
// resources, VPCs, flow logs, Elastic IPs, and, from the AWS provider's
// attribute references (registry.terraform.io/providers/hashicorp/aws/
// latest/docs), aws_subnet, aws_route_table, aws_network_acl,
// aws_default_network_acl, aws_vpc_endpoint and aws_ec2_transit_gateway.

func tfSubnet(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		VPCID     string `json:"vpc_id"`
		CIDRBlock string `json:"cidr_block"`
		MapPublic bool   `json:"map_public_ip_on_launch"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	// The state does not record free addresses: unknown.
	return &Subnet{SubnetID: c.ID, VPCID: t.VPCID, CIDRBlock: t.CIDRBlock, MapPublicIPOnLaunch: t.MapPublic}, nil
}

// tfRouteTable maps aws_route_table and its route blocks. As in AWS
// Config's items, a route block that names no target (every target
// attribute of the provider's route block empty or missing) lost its
// target: the table's routes are unknown, not routes to nothing.
func tfRouteTable(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		VPCID  string `json:"vpc_id"`
		Routes []struct {
			CIDR    string `json:"cidr_block"`
			CIDR6   string `json:"ipv6_cidr_block"`
			Gateway string `json:"gateway_id"`
			NAT     string `json:"nat_gateway_id"`
			Peering string `json:"vpc_peering_connection_id"`
			Transit string `json:"transit_gateway_id"`
			// The provider's other targets, read only to tell a
			// route to them from one without a target.
			Interface   string `json:"network_interface_id"`
			Instance    string `json:"instance_id"` // providers before v4
			EgressOnly  string `json:"egress_only_gateway_id"`
			Carrier     string `json:"carrier_gateway_id"`
			Local       string `json:"local_gateway_id"`
			CoreNetwork string `json:"core_network_arn"`
			Endpoint    string `json:"vpc_endpoint_id"`
			ODBNetwork  string `json:"odb_network_arn"`
		} `json:"route"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	rt := &RouteTable{RouteTableID: c.ID, VPCID: t.VPCID, Routes: []Route{}}
	targetless := false
	for _, r := range t.Routes {
		rt.Routes = append(rt.Routes, Route{DestinationCIDRBlock: r.CIDR, DestinationIPv6CIDRBlock: r.CIDR6, GatewayID: r.Gateway,
			NATGatewayID: r.NAT, VPCPeeringConnectionID: r.Peering, TransitGatewayID: r.Transit})
		targetless = targetless || !routeTarget(r.Gateway, r.NAT, r.Peering, r.Transit, r.Interface, r.Instance, r.EgressOnly,
			r.Carrier, r.Local, r.CoreNetwork, r.Endpoint, r.ODBNetwork)
	}
	if targetless {
		return withUnrecorded(rt, "routes"), nil
	}
	return rt, nil
}

// tfProtocol is a network ACL protocol as AWS numbers it: the provider
// accepts names (tcp) and numbers (6), and "-1" or "all" for every protocol.
func tfProtocol(p string) string {
	switch strings.ToLower(p) {
	case "tcp":
		return "6"
	case "udp":
		return "17"
	case "icmp":
		return "1"
	case "all":
		return "-1"
	}
	return p
}

type tfNACLRule struct {
	RuleNo   present[int]    `json:"rule_no"`
	Action   present[string] `json:"action"`
	Protocol present[string] `json:"protocol"`
	CIDR     present[string] `json:"cidr_block"`
	CIDR6    present[string] `json:"ipv6_cidr_block"`
	From     present[int]    `json:"from_port"`
	To       present[int]    `json:"to_port"`
}

// known reports whether the rule's state carries every attribute the
// provider writes for it (ports matter but for all protocols).
func (r tfNACLRule) known() bool {
	ports := tfProtocol(r.Protocol.V) == "-1" || (r.From.Set && r.To.Set)
	return r.RuleNo.Set && r.Action.Set && r.Protocol.Set && r.CIDR.Set && r.CIDR6.Set && ports
}

func tfNetworkACL(def bool) tfMapper {
	return func(attrs []byte, c *tfCommon) (any, error) {
		var t struct {
			VPCID     string       `json:"vpc_id"`
			SubnetIDs []string     `json:"subnet_ids"`
			Ingress   []tfNACLRule `json:"ingress"`
			Egress    []tfNACLRule `json:"egress"`
		}
		if err := json.Unmarshal(attrs, &t); err != nil {
			return nil, err
		}
		n := &NetworkACL{NetworkACLID: c.ID, VPCID: t.VPCID, IsDefault: def, SubnetIDs: t.SubnetIDs, Entries: []NACLEntry{}}
		if n.SubnetIDs == nil {
			n.SubnetIDs = []string{}
		}
		known := true
		add := func(rs []tfNACLRule, egress bool) {
			for _, r := range rs {
				e := NACLEntry{RuleNumber: r.RuleNo.V, Egress: egress, Protocol: tfProtocol(r.Protocol.V), RuleAction: strings.ToLower(r.Action.V),
					CIDRBlock: r.CIDR.V, IPv6CIDRBlock: r.CIDR6.V, FromPort: r.From.V, ToPort: r.To.V}
				if e.Protocol == "-1" { // ports are meaningless (0) for all protocols
					e.FromPort, e.ToPort = 0, 65535
				}
				known = known && r.known()
				n.Entries = append(n.Entries, e)
			}
		}
		add(t.Ingress, false)
		add(t.Egress, true)
		if !known {
			return withUnrecorded(n, "entries"), nil // a rule the state holds in part: the entries are unknown
		}
		return n, nil
	}
}

func tfVPCEndpoint(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		VPCID     string   `json:"vpc_id"`
		Service   string   `json:"service_name"`
		Type      string   `json:"vpc_endpoint_type"`
		State     string   `json:"state"`
		SubnetIDs []string `json:"subnet_ids"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	return &VPCEndpoint{VPCEndpointID: c.ID, VPCID: t.VPCID, ServiceName: t.Service, Type: t.Type, State: strings.ToLower(t.State), SubnetIDs: t.SubnetIDs}, nil
}

func tfTransitGateway(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		AutoAccept string `json:"auto_accept_shared_attachments"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	return &TransitGateway{TransitGatewayID: c.ID, AutoAcceptSharedAttachments: strings.ToLower(t.AutoAccept)}, nil
}

func tfSecurityGroup(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		Description string   `json:"description"`
		VPCID       string   `json:"vpc_id"`
		Ingress     []SGRule `json:"ingress"`
		Egress      []SGRule `json:"egress"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	g := &SecurityGroup{GroupID: c.ID, GroupName: c.Name, Description: t.Description, VPCID: t.VPCID,
		Ingress: nonNilRules(t.Ingress), Egress: nonNilRules(t.Egress)}
	if g.GroupName == "" {
		g.GroupName = "default" // aws_default_security_group has no name attribute
	}
	return g, nil
}

func nonNilRules(r []SGRule) []SGRule {
	if r == nil {
		return []SGRule{}
	}
	return r
}

func tfSGRule(attrs []byte, j *joiner) error {
	var r struct {
		Type            string   `json:"type"`
		SecurityGroupID string   `json:"security_group_id"`
		Protocol        string   `json:"protocol"`
		FromPort        int      `json:"from_port"`
		ToPort          int      `json:"to_port"`
		CIDRBlocks      []string `json:"cidr_blocks"`
		IPv6CIDRBlocks  []string `json:"ipv6_cidr_blocks"`
		SourceSG        string   `json:"source_security_group_id"`
	}
	if err := json.Unmarshal(attrs, &r); err != nil {
		return err
	}
	rule := SGRule{Protocol: r.Protocol, FromPort: r.FromPort, ToPort: r.ToPort, CIDRBlocks: r.CIDRBlocks, IPv6CIDRBlocks: r.IPv6CIDRBlocks}
	if r.SourceSG != "" {
		rule.SecurityGroups = []string{r.SourceSG}
	}
	egress := r.Type == "egress"
	j.patch("sg:"+r.SecurityGroupID, func(a any) { addSGRule(a.(*SecurityGroup), rule, egress) })
	return nil
}

func tfSGIngressRule(attrs []byte, j *joiner) error { return tfVPCSGRule(attrs, j, false) }

func tfSGEgressRule(attrs []byte, j *joiner) error { return tfVPCSGRule(attrs, j, true) }

// tfVPCSGRule merges an aws_vpc_security_group_{ingress,egress}_rule.
func tfVPCSGRule(attrs []byte, j *joiner, egress bool) error {
	var r struct {
		SecurityGroupID string `json:"security_group_id"`
		IPProtocol      string `json:"ip_protocol"`
		FromPort        *int   `json:"from_port"`
		ToPort          *int   `json:"to_port"`
		CIDRIPv4        string `json:"cidr_ipv4"`
		CIDRIPv6        string `json:"cidr_ipv6"`
		Referenced      string `json:"referenced_security_group_id"`
	}
	if err := json.Unmarshal(attrs, &r); err != nil {
		return err
	}
	rule := SGRule{Protocol: r.IPProtocol, ToPort: 65535}
	if r.FromPort != nil && *r.FromPort >= 0 {
		rule.FromPort = *r.FromPort
	}
	if r.ToPort != nil && *r.ToPort >= 0 {
		rule.ToPort = *r.ToPort
	}
	if r.CIDRIPv4 != "" {
		rule.CIDRBlocks = []string{r.CIDRIPv4}
	}
	if r.CIDRIPv6 != "" {
		rule.IPv6CIDRBlocks = []string{r.CIDRIPv6}
	}
	if r.Referenced != "" {
		rule.SecurityGroups = []string{r.Referenced}
	}
	j.patch("sg:"+r.SecurityGroupID, func(a any) { addSGRule(a.(*SecurityGroup), rule, egress) })
	return nil
}

func addSGRule(g *SecurityGroup, r SGRule, egress bool) {
	if egress {
		g.Egress = append(g.Egress, r)
		return
	}
	g.Ingress = append(g.Ingress, r)
}

func tfEIP(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		AllocationID  string `json:"allocation_id"`
		PublicIP      string `json:"public_ip"`
		AssociationID string `json:"association_id"`
		Instance      string `json:"instance"`
		ENI           string `json:"network_interface"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	return &EIP{AllocationID: firstNonEmpty(t.AllocationID, c.ID), PublicIP: t.PublicIP, AssociationID: t.AssociationID,
		InstanceID: t.Instance, NetworkInterfaceID: t.ENI}, nil
}

func tfVPC(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		CIDRBlock string `json:"cidr_block"`
		Default   bool   `json:"default"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	return &VPC{VPCID: c.ID, CIDRBlock: t.CIDRBlock, IsDefault: t.Default}, nil
}

// tfFlowLogScope is the joiner key recording that a state holds
// aws_flow_log resources: then a VPC of the state without one has flow
// logs off; a state without any says nothing of them.
const tfFlowLogScope = "flow_logs:terraform"

// tfFlowLog marks the VPC an aws_flow_log watches.
func tfFlowLog(attrs []byte, j *joiner) {
	j.seen[tfFlowLogScope] = true
	var t struct {
		VPCID string `json:"vpc_id"`
	}
	if json.Unmarshal(attrs, &t) == nil && t.VPCID != "" {
		j.patch("vpc:"+t.VPCID, vpcFlowLogsOn)
	}
}
