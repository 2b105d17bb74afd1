package inventory

// Canonical types of the network family (VPCs, security groups, Elastic IPs,
// subnets, route tables, network ACLs, NAT and transit gateways, VPC
// endpoints, VPN connections). The newer types' property names come from AWS's published shapes in
// awslabs/aws-config-resource-schema (config/properties/resource-types/
// AWS::EC2::<Type>.properties.json); each mapper in awsconfig_network.go
// cites the file it follows.
const (
	TypeSubnet         = "aws_subnet"
	TypeRouteTable     = "aws_route_table"
	TypeNetworkACL     = "aws_network_acl"
	TypeNATGateway     = "aws_nat_gateway"
	TypeVPCEndpoint    = "aws_vpc_endpoint"
	TypeTransitGateway = "aws_transit_gateway"
	TypeVPNConnection  = "aws_vpn_connection"
	TypeSecurityGroup  = "aws_security_group"
	TypeEIP            = "aws_eip"
	TypeVPC            = "aws_vpc"
)

// Subnet is the canonical attributes of aws_subnet.
type Subnet struct {
	SubnetID  string `json:"subnet_id"`
	VPCID     string `json:"vpc_id"`
	CIDRBlock string `json:"cidr_block"`
	// MapPublicIPOnLaunch is true when instances launched into the subnet
	// get a public IPv4 address by default.
	MapPublicIPOnLaunch bool `json:"map_public_ip_on_launch"`
	// AvailableIPAddressCount is the number of free IPv4 addresses; null
	// when the source does not say.
	AvailableIPAddressCount *int `json:"available_ip_address_count"`
}

// Route is one route of a route table: its destination and its target
// (exactly one of the target ids is set).
type Route struct {
	DestinationCIDRBlock     string `json:"destination_cidr_block,omitempty"`
	DestinationIPv6CIDRBlock string `json:"destination_ipv6_cidr_block,omitempty"`
	GatewayID                string `json:"gateway_id,omitempty"` // igw-…, vgw-…, local
	NATGatewayID             string `json:"nat_gateway_id,omitempty"`
	VPCPeeringConnectionID   string `json:"vpc_peering_connection_id,omitempty"`
	TransitGatewayID         string `json:"transit_gateway_id,omitempty"`
}

// RouteTable is the canonical attributes of aws_route_table.
type RouteTable struct {
	RouteTableID string  `json:"route_table_id"`
	VPCID        string  `json:"vpc_id"`
	Routes       []Route `json:"routes"`
}

// NACLEntry is one rule of a network ACL. Protocol is AWS's protocol
// number as a string ("-1" all, "6" TCP, "17" UDP); an entry without a
// port range (all traffic) covers ports 0 to 65535.
type NACLEntry struct {
	RuleNumber    int    `json:"rule_number"`
	Egress        bool   `json:"egress"`
	Protocol      string `json:"protocol"`
	RuleAction    string `json:"rule_action"` // allow or deny
	CIDRBlock     string `json:"cidr_block,omitempty"`
	IPv6CIDRBlock string `json:"ipv6_cidr_block,omitempty"`
	FromPort      int    `json:"from_port"`
	ToPort        int    `json:"to_port"`
}

// NetworkACL is the canonical attributes of aws_network_acl.
type NetworkACL struct {
	NetworkACLID string      `json:"network_acl_id"`
	VPCID        string      `json:"vpc_id"`
	IsDefault    bool        `json:"is_default"`
	SubnetIDs    []string    `json:"subnet_ids"` // the associated subnets
	Entries      []NACLEntry `json:"entries"`
}

// NATGateway is the canonical attributes of aws_nat_gateway.
type NATGateway struct {
	NATGatewayID string `json:"nat_gateway_id"`
	VPCID        string `json:"vpc_id"`
	SubnetID     string `json:"subnet_id"`
	State        string `json:"state"` // pending, available, deleting, deleted, failed
	// RouteTableCount is the number of route tables of the same input with
	// a route to the gateway; null when the input holds no route table of
	// the gateway's account and region (unknown, not zero).
	RouteTableCount *int `json:"route_table_count"`

	routes int // counted by the route tables' joins
}

// VPCEndpoint is the canonical attributes of aws_vpc_endpoint.
type VPCEndpoint struct {
	VPCEndpointID string   `json:"vpc_endpoint_id"`
	VPCID         string   `json:"vpc_id"`
	ServiceName   string   `json:"service_name"`
	Type          string   `json:"vpc_endpoint_type"` // Interface, Gateway, GatewayLoadBalancer
	State         string   `json:"state"`
	SubnetIDs     []string `json:"subnet_ids"`
}

// TransitGateway is the canonical attributes of aws_transit_gateway.
type TransitGateway struct {
	TransitGatewayID string `json:"transit_gateway_id"`
	// AutoAcceptSharedAttachments is "enable" or "disable".
	AutoAcceptSharedAttachments string `json:"auto_accept_shared_attachments"`
}

// VPNConnection is the canonical attributes of aws_vpn_connection.
type VPNConnection struct {
	VPNConnectionID string `json:"vpn_connection_id"`
	State           string `json:"state"` // pending, available, deleting, deleted
	// TunnelStatuses holds the status (UP or DOWN) of each tunnel from the
	// connection's telemetry; empty when the source records none.
	TunnelStatuses []string `json:"tunnel_statuses,omitempty"`
}

// SecurityGroup is the canonical attributes of aws_security_group.
type SecurityGroup struct {
	GroupID     string   `json:"group_id"`
	GroupName   string   `json:"group_name"`
	Description string   `json:"description,omitempty"`
	VPCID       string   `json:"vpc_id"`
	Ingress     []SGRule `json:"ingress"`
	Egress      []SGRule `json:"egress"`
}

// SGRule is one security group rule. Protocol "-1" means all protocols and
// ports; FromPort and ToPort are inclusive.
type SGRule struct {
	Protocol       string   `json:"protocol"`
	FromPort       int      `json:"from_port"`
	ToPort         int      `json:"to_port"`
	CIDRBlocks     []string `json:"cidr_blocks,omitempty"`
	IPv6CIDRBlocks []string `json:"ipv6_cidr_blocks,omitempty"`
	SecurityGroups []string `json:"security_groups,omitempty"`
}

// EIP is the canonical attributes of aws_eip.
type EIP struct {
	AllocationID       string `json:"allocation_id"`
	PublicIP           string `json:"public_ip"`
	AssociationID      string `json:"association_id"`
	InstanceID         string `json:"instance_id,omitempty"`
	NetworkInterfaceID string `json:"network_interface_id,omitempty"`
}

// VPC is the canonical attributes of aws_vpc.
type VPC struct {
	VPCID     string `json:"vpc_id"`
	CIDRBlock string `json:"cidr_block"`
	IsDefault bool   `json:"is_default"`
	// FlowLogsEnabled is true when an active flow log watches the VPC,
	// false when the input records flow logs for the VPC's account (AWS
	// Config) or state (Terraform) but none for this VPC, and null when it
	// records no flow log at all: then nothing says whether they are off.
	FlowLogsEnabled *bool `json:"flow_logs_enabled"`
}
