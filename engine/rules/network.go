package rules

import (
	"net/netip"
	"slices"

	"github.com/fourd-dev/fourd/engine"
	inv "github.com/fourd-dev/fourd/engine/inventory"
)

// cis3 is a reference to a CIS AWS Foundations Benchmark v3.0.0 control.
func cis3(control string) string { return "CIS-AWS-3.0.0:" + control }

// cis4 is a reference to a CIS AWS Foundations Benchmark v4.0.1 control.
func cis4(control string) string { return "CIS-AWS-4.0.1:" + control }

// networkRules are the checks of the network family: subnets, route
// tables, network ACLs, NAT and transit gateways, VPC endpoints and VPN
// connections.
func networkRules() []Rule {
	return []Rule{
		{ID: "aws-vpc-002", Dimension: security, Severity: high, ResourceTypes: []string{inv.TypeNetworkACL},
			Compliance:  []string{cis3("5.1"), cis4("5.2")},
			Title:       "Network ACL allows remote administration from the internet",
			Description: "An ingress entry of a network ACL in use allows SSH (22) or RDP (3389) from 0.0.0.0/0 or ::/0, and no lower-numbered entry for that source denies it (entries are evaluated in rule-number order).",
			Remediation: "Add a deny entry for TCP 22 and 3389 from 0.0.0.0/0 and ::/0 numbered below the allow entry (aws ec2 create-network-acl-entry --ingress --rule-action deny --protocol 6 --port-range From=22,To=22 --cidr-block 0.0.0.0/0 --rule-number 50), or narrow the allow entries to known ranges.",
			Check: func(s *Subject) Result {
				n := get[inv.NetworkACL](s)
				if len(n.SubnetIDs) == 0 { // associated with no subnet: it filters nothing
					return passed(s, func() map[string]any {
						return map[string]any{"network_acl_id": n.NetworkACLID, "subnet_ids": n.SubnetIDs}
					})
				}
				entries := slices.Clone(n.Entries)
				slices.SortFunc(entries, func(a, b inv.NACLEntry) int { return a.RuleNumber - b.RuleNumber })
				var open []map[string]any
				for _, p := range adminPorts {
					for _, src := range [...]string{"0.0.0.0/0", "::/0"} {
						if e, ok := naclAllows(entries, p, src); ok {
							open = append(open, map[string]any{"port": p, "source": src, "rule_number": e.RuleNumber})
						}
					}
				}
				return failIf(s, len(open) > 0, func() map[string]any {
					return map[string]any{"network_acl_id": n.NetworkACLID, "subnet_ids": n.SubnetIDs, "open": open}
				})
			}},
		{ID: "aws-vpc-003", Dimension: security, Severity: low, ResourceTypes: []string{inv.TypeSubnet},
			Title:       "Subnet assigns public IP addresses by default",
			Description: "Instances launched into the subnet get a public IPv4 address unless the launch says otherwise, so a workload meant to be private can be reachable from the internet (and every address is billed).",
			Remediation: "Turn off auto-assignment: aws ec2 modify-subnet-attribute --subnet-id ID --no-map-public-ip-on-launch (Terraform: map_public_ip_on_launch = false); give public addresses only to the instances that need them, or put them behind a load balancer.",
			Check: func(s *Subject) Result {
				n := get[inv.Subnet](s)
				return failIf(s, n.MapPublicIPOnLaunch, func() map[string]any { return map[string]any{"subnet_id": n.SubnetID, "vpc_id": n.VPCID} })
			}},
		{ID: "aws-vpc-004", Dimension: architecture, Severity: medium, ResourceTypes: []string{inv.TypeSubnet},
			Title:       "Subnet is running out of IP addresses",
			Description: "Fewer than 10% of the subnet's usable IPv4 addresses are free: scaling out, rolling deployments and new interface endpoints will fail to get an address.",
			Remediation: "Add a larger subnet (or a secondary CIDR block to the VPC) and spread the workload over it; release idle network interfaces.",
			Check: func(s *Subject) Result {
				n := get[inv.Subnet](s)
				if n.AvailableIPAddressCount == nil {
					return notEvaluated("available_ip_address_count")
				}
				p, err := netip.ParsePrefix(n.CIDRBlock)
				if err != nil || !p.Addr().Is4() || p.Bits() > 28 {
					return notEvaluated("cidr_block")
				}
				usable := 1<<(32-p.Bits()) - 5 // AWS reserves five addresses per subnet
				free := *n.AvailableIPAddressCount
				return failIf(s, free*10 < usable, func() map[string]any {
					return map[string]any{"subnet_id": n.SubnetID, "cidr_block": n.CIDRBlock,
						"available_ip_address_count": free, "usable_addresses": usable}
				})
			}},
		{ID: "aws-vpc-005", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeRouteTable},
			Compliance:  []string{cis3("5.5"), cis4("5.6")},
			Title:       "Route table routes too broad a range to a VPC peering connection",
			Description: "A route sends 0.0.0.0/0, ::/0 or a range wider than any VPC (shorter than /16 in IPv4, /56 in IPv6) to a VPC peering connection, instead of only the peer's subnets that need to be reached.",
			Remediation: "Replace the route with routes to the specific peer CIDR blocks: aws ec2 delete-route then aws ec2 create-route --destination-cidr-block PEER_SUBNET --vpc-peering-connection-id pcx-….",
			Check: func(s *Subject) Result {
				t := get[inv.RouteTable](s)
				var broad []inv.Route
				for _, r := range t.Routes {
					if r.VPCPeeringConnectionID != "" && (tooBroad(r.DestinationCIDRBlock, 16) || tooBroad(r.DestinationIPv6CIDRBlock, 56)) {
						broad = append(broad, r)
					}
				}
				return failIf(s, len(broad) > 0, func() map[string]any {
					return map[string]any{"route_table_id": t.RouteTableID, "vpc_id": t.VPCID, "routes": broad}
				})
			}},
		{ID: "aws-vpc-006", Dimension: cost, Severity: medium, ResourceTypes: []string{inv.TypeNATGateway},
			Title:       "NAT gateway is not used by any route table",
			Description: "No route table of the inventory routes to the available NAT gateway: it bills every hour and carries no traffic.",
			Remediation: "Delete the gateway (aws ec2 delete-nat-gateway --nat-gateway-id ID) and release its Elastic IP, or add the route the private subnets were meant to use.",
			Check: func(s *Subject) Result {
				g := get[inv.NATGateway](s)
				if g.State != "available" {
					return passed(s, func() map[string]any { return map[string]any{"nat_gateway_id": g.NATGatewayID, "state": g.State} })
				}
				if g.RouteTableCount == nil {
					return notEvaluated("route_table_count")
				}
				if *g.RouteTableCount > 0 {
					return passed(s, func() map[string]any {
						return map[string]any{"nat_gateway_id": g.NATGatewayID, "route_table_count": *g.RouteTableCount}
					})
				}
				p, ok := prices.NATGateway(s.Resource.Region)
				return fail(hourlyWaste(map[string]any{"nat_gateway_id": g.NATGatewayID, "vpc_id": g.VPCID, "subnet_id": g.SubnetID, "route_table_count": 0},
					p, ok, noPrice("NAT gateways", s.Resource.Region)))
			}},
		{ID: "aws-vpc-007", Dimension: architecture, Severity: medium, ResourceTypes: []string{inv.TypeVPCEndpoint},
			Title:       "Interface VPC endpoint uses a single Availability Zone",
			Description: "The interface endpoint has a network interface in only one subnet: if that Availability Zone fails, every client in the VPC loses its private path to the service.",
			Remediation: "Add a subnet in a second Availability Zone: aws ec2 modify-vpc-endpoint --vpc-endpoint-id ID --add-subnet-ids SUBNET (Terraform: subnet_ids).",
			Check: func(s *Subject) Result {
				e := get[inv.VPCEndpoint](s)
				if e.Type != "Interface" || e.State != "available" {
					return passed(s, func() map[string]any {
						return map[string]any{"vpc_endpoint_id": e.VPCEndpointID, "vpc_endpoint_type": e.Type, "state": e.State}
					})
				}
				return failIfZero(s, len(e.SubnetIDs) < 2, len(e.SubnetIDs) == 0, "subnet_ids", func() map[string]any {
					return map[string]any{"vpc_endpoint_id": e.VPCEndpointID, "vpc_id": e.VPCID, "service_name": e.ServiceName, "subnet_ids": e.SubnetIDs}
				})
			}},
		{ID: "aws-vpc-008", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeTransitGateway},
			Title:       "Transit gateway accepts shared attachments automatically",
			Description: "AutoAcceptSharedAttachments is enabled, so any account the gateway is shared with can attach a VPC and exchange traffic without the owner's review.",
			Remediation: "aws ec2 modify-transit-gateway --transit-gateway-id ID --options AutoAcceptSharedAttachments=disable (Terraform: auto_accept_shared_attachments = \"disable\").",
			Check: func(s *Subject) Result {
				g := get[inv.TransitGateway](s)
				return failIf(s, g.AutoAcceptSharedAttachments == "enable", func() map[string]any {
					return map[string]any{"transit_gateway_id": g.TransitGatewayID,
						"auto_accept_shared_attachments": g.AutoAcceptSharedAttachments}
				})
			}},
		{ID: "aws-vpc-009", Dimension: architecture, Severity: medium, ResourceTypes: []string{inv.TypeVPNConnection},
			Title:       "Site-to-Site VPN connection does not have both tunnels up",
			Description: "AWS provides two tunnels per VPN connection so that maintenance on one does not cut the link; with fewer than two up, the connection has no redundancy (or is down).",
			Remediation: "Configure the second tunnel on the customer gateway device (both outside IP addresses from the VPN configuration file) and check its IKE/IPsec settings.",
			Check: func(s *Subject) Result {
				v := get[inv.VPNConnection](s)
				if v.State != "available" {
					return passed(s, func() map[string]any { return map[string]any{"vpn_connection_id": v.VPNConnectionID, "state": v.State} })
				}
				if len(v.TunnelStatuses) == 0 {
					return notEvaluated("tunnel_statuses")
				}
				up := 0
				for _, st := range v.TunnelStatuses {
					if st == "UP" {
						up++
					}
				}
				r := failIf(s, up < 2, func() map[string]any {
					return map[string]any{"vpn_connection_id": v.VPNConnectionID, "tunnel_statuses": v.TunnelStatuses, "tunnels_up": up}
				})
				if r.Failed && up == 0 {
					r.Severity, r.Reason = engine.SeverityHigh, "no tunnel is up: the connection is down"
				}
				return r
			}},
		{ID: "aws-vpc-010", Dimension: architecture, Severity: low, ResourceTypes: []string{inv.TypeNetworkACL},
			Title:       "Network ACL is not associated with any subnet",
			Description: "A custom network ACL that filters no subnet is left-over configuration: it suggests a subnet meant to be protected by it is not.",
			Remediation: "Associate it with the subnets it was written for (aws ec2 replace-network-acl-association), or delete it (aws ec2 delete-network-acl).",
			Check: func(s *Subject) Result {
				n := get[inv.NetworkACL](s)
				return failIfRecorded(s, !n.IsDefault && len(n.SubnetIDs) == 0, "subnet_ids", func() map[string]any {
					return map[string]any{"network_acl_id": n.NetworkACLID, "vpc_id": n.VPCID, "is_default": n.IsDefault, "subnet_ids": n.SubnetIDs}
				})
			}},
	}
}

// naclAllows reports whether ingress entries (sorted by rule number) let
// TCP traffic from src to port through: the lowest-numbered entry for
// exactly that source that covers the port decides, as AWS evaluates them.
func naclAllows(entries []inv.NACLEntry, port int, src string) (inv.NACLEntry, bool) {
	for _, e := range entries {
		if e.Egress || (e.CIDRBlock != src && e.IPv6CIDRBlock != src) {
			continue
		}
		if e.Protocol != "-1" && e.Protocol != "6" && e.Protocol != "tcp" || port < e.FromPort || port > e.ToPort {
			continue
		}
		return e, e.RuleAction == "allow"
	}
	return inv.NACLEntry{}, false
}

// tooBroad reports whether cidr is a prefix shorter than bits.
func tooBroad(cidr string, bits int) bool {
	p, err := netip.ParsePrefix(cidr)
	return err == nil && p.Bits() < bits
}
