package inventory

import (
	"encoding/json"
	"slices"
	"strings"
)

// AWS Config mappers of the network family: AWS::EC2::SecurityGroup,
// AWS::EC2::VPC, AWS::EC2::FlowLog (joined onto its VPC), AWS::EC2::EIP,
// and the newer types whose shapes come from awslabs/
// aws-config-resource-schema, config/properties/resource-types/
// AWS::EC2::{Subnet,RouteTable,NetworkAcl,NatGateway,VPCEndpoint,
// TransitGateway,VPNConnection}.properties.json. Enumerations such as a
// NAT gateway's state are listed there as "state.value": AWS Config writes
// them either as a plain string or as {"value": …}; cfgEnum reads both.

// cfgEnum is an AWS enumeration written as "x" or {"value": "x"}.
type cfgEnum string

func (e *cfgEnum) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*e = cfgEnum(s)
		return nil
	}
	var o struct {
		Value string `json:"value"`
		Name  string `json:"name"`
	}
	if err := json.Unmarshal(b, &o); err != nil {
		return nil // an unreadable enumeration is unknown, not an error
	}
	*e = cfgEnum(o.Value)
	if *e == "" {
		*e = cfgEnum(o.Name)
	}
	return nil
}

// scope is the account and region of a configuration item, the reach of
// the facts a join gathers from its input.
func scope(ci *configItem) string {
	account := ci.AWSAccountID
	if account == "" {
		account = ci.AccountID
	}
	return account + "/" + ci.AWSRegion
}

func cfgSubnet(_ *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		SubnetID  string   `json:"subnetId"`
		VPCID     string   `json:"vpcId"`
		CIDRBlock string   `json:"cidrBlock"`
		MapPublic flexBool `json:"mapPublicIpOnLaunch"`
		Available *flexInt `json:"availableIpAddressCount"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	s := Subnet{SubnetID: c.SubnetID, VPCID: c.VPCID, CIDRBlock: c.CIDRBlock, MapPublicIPOnLaunch: bool(c.MapPublic)}
	if c.Available != nil {
		n := int(*c.Available)
		s.AvailableIPAddressCount = &n
	}
	return TypeSubnet, s, nil
}

// cfgRouteTable keeps the route table and counts, for each NAT gateway it
// routes to, one route table towards that gateway (joined at the end of
// the input). A route that names no target at all is not a route to
// nothing: AWS writes each route with its target (routeTarget), so such a
// route lost its target key (a query that kept the route, not its
// target), and the table's routes are unknown, to the checks that read
// them and to the NAT gateways a known table does not route to.
func cfgRouteTable(ci *configItem, conf []byte, j *joiner) (string, any, error) {
	var c struct {
		RouteTableID string `json:"routeTableId"`
		VPCID        string `json:"vpcId"`
		Routes       []struct {
			Dest    string  `json:"destinationCidrBlock"`
			Dest6   string  `json:"destinationIpv6CidrBlock"`
			Gateway string  `json:"gatewayId"`
			NAT     string  `json:"natGatewayId"`
			Peering string  `json:"vpcPeeringConnectionId"`
			Transit string  `json:"transitGatewayId"`
			State   cfgEnum `json:"state"`
			// The other targets of EC2's Route shape, read only to
			// tell a route to them from a route without a target.
			Interface   string `json:"networkInterfaceId"`
			Instance    string `json:"instanceId"`
			EgressOnly  string `json:"egressOnlyInternetGatewayId"`
			Carrier     string `json:"carrierGatewayId"`
			Local       string `json:"localGatewayId"`
			CoreNetwork string `json:"coreNetworkArn"`
			Endpoint    string `json:"vpcEndpointId"`
			ODBNetwork  string `json:"odbNetworkArn"`
		} `json:"routes"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	t := RouteTable{RouteTableID: c.RouteTableID, VPCID: c.VPCID, Routes: []Route{}}
	nats := map[string]bool{}
	targetless := false
	for _, r := range c.Routes {
		t.Routes = append(t.Routes, Route{DestinationCIDRBlock: r.Dest, DestinationIPv6CIDRBlock: r.Dest6, GatewayID: r.Gateway,
			NATGatewayID: r.NAT, VPCPeeringConnectionID: r.Peering, TransitGatewayID: r.Transit})
		if r.NAT != "" && !strings.EqualFold(string(r.State), "blackhole") {
			nats[r.NAT] = true
		}
		targetless = targetless || !routeTarget(r.Gateway, r.NAT, r.Peering, r.Transit, r.Interface, r.Instance, r.EgressOnly,
			r.Carrier, r.Local, r.CoreNetwork, r.Endpoint, r.ODBNetwork)
	}
	if j != nil {
		if carries(ci, conf, "routes") && !targetless {
			j.seen["route_tables:"+scope(ci)] = true
		} else {
			j.seen["route_tables_unknown:"+scope(ci)] = true // a gateway routed to by no known table may be routed to by this one
		}
		for id := range nats {
			j.patch("nat:"+id, func(a any) { a.(*NATGateway).routes++ })
		}
	}
	attrs := recordedOnly(ci, conf, t, "routes=routes")
	if targetless {
		attrs = withUnrecorded(attrs, "routes")
	}
	return TypeRouteTable, attrs, nil
}

// routeTarget reports whether a route names a target: one of the target
// ids of EC2's Route shape (docs.aws.amazon.com/AWSEC2/latest/APIReference/
// API_Route.html: gatewayId, natGatewayId, vpcPeeringConnectionId,
// transitGatewayId, networkInterfaceId, instanceId,
// egressOnlyInternetGatewayId, carrierGatewayId, localGatewayId,
// coreNetworkArn, odbNetworkArn; AWS Config's AWS::EC2::RouteTable
// properties in awslabs/aws-config-resource-schema list the first seven)
// or the vpcEndpointId of CreateRoute and Terraform's route block.
func routeTarget(ids ...string) bool {
	for _, id := range ids {
		if id != "" {
			return true
		}
	}
	return false
}

func cfgNetworkACL(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		ID           string   `json:"networkAclId"`
		VPCID        string   `json:"vpcId"`
		IsDefault    flexBool `json:"isDefault"`
		Associations []struct {
			SubnetID present[string] `json:"subnetId"`
		} `json:"associations"`
		Entries []struct {
			RuleNumber present[flexInt]  `json:"ruleNumber"`
			Egress     present[flexBool] `json:"egress"`
			Protocol   present[string]   `json:"protocol"`
			RuleAction present[cfgEnum]  `json:"ruleAction"`
			CIDR       present[string]   `json:"cidrBlock"`
			CIDR6      present[string]   `json:"ipv6CidrBlock"`
			PortRange  *struct {
				From present[flexInt] `json:"from"`
				To   present[flexInt] `json:"to"`
			} `json:"portRange"`
		} `json:"entries"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	n := NetworkACL{NetworkACLID: c.ID, VPCID: c.VPCID, IsDefault: bool(c.IsDefault), SubnetIDs: []string{}, Entries: []NACLEntry{}}
	var unknown []string
	for _, a := range c.Associations {
		if !a.SubnetID.Set {
			unknown = append(unknown, "subnet_ids") // an association of an unknown subnet
		}
		if a.SubnetID.V != "" {
			n.SubnetIDs = append(n.SubnetIDs, a.SubnetID.V)
		}
	}
	entriesKnown := true
	for _, e := range c.Entries {
		entry := NACLEntry{RuleNumber: int(e.RuleNumber.V), Egress: bool(e.Egress.V), Protocol: e.Protocol.V,
			RuleAction: strings.ToLower(string(e.RuleAction.V)), CIDRBlock: e.CIDR.V, IPv6CIDRBlock: e.CIDR6.V, FromPort: 0, ToPort: 65535}
		// AWS writes every key of an entry but the CIDR of the other IP
		// version, and portRange for TCP (6) and UDP (17) only.
		known := e.RuleNumber.Set && e.Egress.Set && e.Protocol.Set && e.RuleAction.Set && (e.CIDR.Set || e.CIDR6.Set)
		if e.PortRange != nil {
			entry.FromPort, entry.ToPort = int(e.PortRange.From.V), int(e.PortRange.To.V)
			known = known && e.PortRange.From.Set && e.PortRange.To.Set
		} else if e.Protocol.V == "6" || e.Protocol.V == "17" {
			known = false
		}
		entriesKnown = entriesKnown && known
		n.Entries = append(n.Entries, entry)
	}
	if !entriesKnown {
		unknown = append(unknown, "entries")
	}
	return TypeNetworkACL, withUnrecorded(recordedOnly(ci, conf, n, "subnet_ids=associations", "entries=entries"), unknown...), nil
}

// cfgNATGateway maps the gateway; the route tables of the input that route
// to it are counted at the end of the input, and the count stays unknown
// when the input holds no route table of the gateway's account and region.
func cfgNATGateway(ci *configItem, conf []byte, j *joiner) (string, any, error) {
	var c struct {
		ID       string  `json:"natGatewayId"`
		VPCID    string  `json:"vpcId"`
		SubnetID string  `json:"subnetId"`
		State    cfgEnum `json:"state"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	n := NATGateway{NATGatewayID: c.ID, VPCID: c.VPCID, SubnetID: c.SubnetID, State: string(c.State)}
	if j != nil && c.ID != "" {
		key := scope(ci)
		j.patch("nat:"+c.ID, func(a any) {
			g := a.(*NATGateway)
			if g.routes > 0 || j.seen["route_tables:"+key] && !j.seen["route_tables_unknown:"+key] {
				g.RouteTableCount = &g.routes
			}
		})
	}
	return TypeNATGateway, n, nil
}

func cfgVPCEndpoint(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		ID          string   `json:"vpcEndpointId"`
		VPCID       string   `json:"vpcId"`
		ServiceName string   `json:"serviceName"`
		Type        cfgEnum  `json:"vpcEndpointType"`
		State       cfgEnum  `json:"state"`
		SubnetIDs   []string `json:"subnetIds"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	return TypeVPCEndpoint, recordedOnly(ci, conf, VPCEndpoint{VPCEndpointID: c.ID, VPCID: c.VPCID, ServiceName: c.ServiceName,
		Type: string(c.Type), State: strings.ToLower(string(c.State)), SubnetIDs: c.SubnetIDs},
		"subnet_ids=subnetIds", "vpc_endpoint_type=vpcEndpointType"), nil
}

// cfgTransitGateway follows AWS::EC2::TransitGateway, whose configuration
// AWS Config records with CloudFormation's capitalized names.
func cfgTransitGateway(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		ID         string `json:"Id"`
		AutoAccept string `json:"AutoAcceptSharedAttachments"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	if c.ID == "" {
		c.ID = ci.ResourceID
	}
	return TypeTransitGateway, TransitGateway{TransitGatewayID: c.ID, AutoAcceptSharedAttachments: strings.ToLower(c.AutoAccept)}, nil
}

func cfgVPNConnection(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		ID        string  `json:"vpnConnectionId"`
		State     cfgEnum `json:"state"`
		Telemetry []struct {
			Status cfgEnum `json:"status"`
		} `json:"vgwTelemetry"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	v := VPNConnection{VPNConnectionID: c.ID, State: strings.ToLower(string(c.State))}
	for _, t := range c.Telemetry {
		v.TunnelStatuses = append(v.TunnelStatuses, strings.ToUpper(string(t.Status)))
	}
	return TypeVPNConnection, recordedOnly(ci, conf, v, "tunnel_statuses=?vgwTelemetry.status"), nil
}

type cfgIPPermission struct {
	IPProtocol string   `json:"ipProtocol"`
	FromPort   *int     `json:"fromPort"`
	ToPort     *int     `json:"toPort"`
	IPRanges   []string `json:"ipRanges"`
	IPv4Ranges []struct {
		CIDR string `json:"cidrIp"`
	} `json:"ipv4Ranges"`
	IPv6Ranges []struct {
		CIDR string `json:"cidrIpv6"`
	} `json:"ipv6Ranges"`
	Groups []struct {
		GroupID string `json:"groupId"`
	} `json:"userIdGroupPairs"`
}

// known reports whether the permission says which ports it opens: AWS
// leaves fromPort and toPort out only of a rule for every protocol ("-1",
// every port); a TCP, UDP or ICMP rule without them is a partial record.
func (p cfgIPPermission) known() bool {
	return p.IPProtocol == "-1" || (p.FromPort != nil && p.ToPort != nil)
}

func (p cfgIPPermission) rule() SGRule {
	r := SGRule{Protocol: p.IPProtocol, FromPort: 0, ToPort: 65535}
	if p.FromPort != nil && *p.FromPort >= 0 {
		r.FromPort = *p.FromPort
	}
	if p.ToPort != nil && *p.ToPort >= 0 {
		r.ToPort = *p.ToPort
	}
	seen := map[string]bool{}
	for _, c := range p.IPRanges {
		if !seen[c] {
			seen[c] = true
			r.CIDRBlocks = append(r.CIDRBlocks, c)
		}
	}
	for _, c := range p.IPv4Ranges {
		if !seen[c.CIDR] {
			seen[c.CIDR] = true
			r.CIDRBlocks = append(r.CIDRBlocks, c.CIDR)
		}
	}
	for _, c := range p.IPv6Ranges {
		r.IPv6CIDRBlocks = append(r.IPv6CIDRBlocks, c.CIDR)
	}
	for _, g := range p.Groups {
		r.SecurityGroups = append(r.SecurityGroups, g.GroupID)
	}
	return r
}

func cfgSecurityGroup(_ *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		GroupID     string            `json:"groupId"`
		GroupName   string            `json:"groupName"`
		Description string            `json:"description"`
		VPCID       string            `json:"vpcId"`
		Ingress     []cfgIPPermission `json:"ipPermissions"`
		Egress      []cfgIPPermission `json:"ipPermissionsEgress"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	g := SecurityGroup{GroupID: c.GroupID, GroupName: c.GroupName, Description: c.Description, VPCID: c.VPCID,
		Ingress: []SGRule{}, Egress: []SGRule{}}
	for _, p := range c.Ingress {
		g.Ingress = append(g.Ingress, p.rule())
	}
	for _, p := range c.Egress {
		g.Egress = append(g.Egress, p.rule())
	}
	// A rule whose ports are unknown leaves the direction's rules unknown:
	// read as 0–65535 it would open every port.
	var unknown []string
	if slices.ContainsFunc(c.Ingress, func(p cfgIPPermission) bool { return !p.known() }) {
		unknown = append(unknown, "ingress")
	}
	if slices.ContainsFunc(c.Egress, func(p cfgIPPermission) bool { return !p.known() }) {
		unknown = append(unknown, "egress")
	}
	return TypeSecurityGroup, withUnrecorded(g, unknown...), nil
}

func cfgEIP(_ *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		AllocationID       string `json:"allocationId"`
		PublicIP           string `json:"publicIp"`
		AssociationID      string `json:"associationId"`
		InstanceID         string `json:"instanceId"`
		NetworkInterfaceID string `json:"networkInterfaceId"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	return TypeEIP, EIP(c), nil
}

func cfgVPC(ci *configItem, conf []byte, j *joiner) (string, any, error) {
	var c struct {
		VPCID     string   `json:"vpcId"`
		CIDRBlock string   `json:"cidrBlock"`
		IsDefault flexBool `json:"isDefault"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	if j != nil {
		j.patch("vpc:"+c.VPCID, vpcFlowLogsOff(j, cfgFlowLogScope(ci)))
	}
	return TypeVPC, VPC{VPCID: c.VPCID, CIDRBlock: c.CIDRBlock, IsDefault: bool(c.IsDefault)}, nil
}

// cfgFlowLogScope is the joiner key recording that the input holds flow
// log items of ci's account: AWS Config records AWS::EC2::FlowLog for the
// account, so a VPC of the account without one has flow logs off.
func cfgFlowLogScope(ci *configItem) string {
	return "flow_logs:" + firstNonEmpty(ci.AWSAccountID, ci.AccountID)
}

// cfgFlowLog keeps the flow log as inventory and marks its VPC as logged.
func cfgFlowLog(ci *configItem, conf []byte, j *joiner) (string, any, error) {
	var c struct {
		FlowLogID     string `json:"flowLogId"`
		ResourceID    string `json:"resourceId"`
		Status        string `json:"flowLogStatus"`
		TrafficType   string `json:"trafficType"`
		LogDestType   string `json:"logDestinationType"`
		LogDestinaton string `json:"logDestination"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	if j != nil {
		j.seen[cfgFlowLogScope(ci)] = true
		if strings.HasPrefix(c.ResourceID, "vpc-") && (c.Status == "" || c.Status == "ACTIVE") {
			j.patch("vpc:"+c.ResourceID, vpcFlowLogsOn)
		}
	}
	return "aws_flow_log", map[string]string{"flow_log_id": c.FlowLogID, "resource_id": c.ResourceID,
		"traffic_type": c.TrafficType, "log_destination_type": c.LogDestType, "log_destination": c.LogDestinaton}, nil
}
