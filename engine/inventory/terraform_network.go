package inventory

import (
	"encoding/json"
	"strings"
)

// Terraform mappers of the network and compute families, from the AWS
// provider's attribute references (registry.terraform.io/providers/
// hashicorp/aws/latest/docs: aws_subnet, aws_route_table, aws_network_acl,
// aws_default_network_acl, aws_vpc_endpoint, aws_ec2_transit_gateway,
// aws_launch_template, aws_lb_listener).

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
		} `json:"route"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	rt := &RouteTable{RouteTableID: c.ID, VPCID: t.VPCID, Routes: []Route{}}
	for _, r := range t.Routes {
		rt.Routes = append(rt.Routes, Route{DestinationCIDRBlock: r.CIDR, DestinationIPv6CIDRBlock: r.CIDR6, GatewayID: r.Gateway,
			NATGatewayID: r.NAT, VPCPeeringConnectionID: r.Peering, TransitGatewayID: r.Transit})
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
	RuleNo   int    `json:"rule_no"`
	Action   string `json:"action"`
	Protocol string `json:"protocol"`
	CIDR     string `json:"cidr_block"`
	CIDR6    string `json:"ipv6_cidr_block"`
	From     int    `json:"from_port"`
	To       int    `json:"to_port"`
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
		add := func(rs []tfNACLRule, egress bool) {
			for _, r := range rs {
				e := NACLEntry{RuleNumber: r.RuleNo, Egress: egress, Protocol: tfProtocol(r.Protocol), RuleAction: strings.ToLower(r.Action),
					CIDRBlock: r.CIDR, IPv6CIDRBlock: r.CIDR6, FromPort: r.From, ToPort: r.To}
				if e.Protocol == "-1" { // ports are meaningless (0) for all protocols
					e.FromPort, e.ToPort = 0, 65535
				}
				n.Entries = append(n.Entries, e)
			}
		}
		add(t.Ingress, false)
		add(t.Egress, true)
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

func tfLaunchTemplate(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		InstanceType string `json:"instance_type"`
		Metadata     tfBlock[struct {
			HTTPTokens   string `json:"http_tokens"`
			HTTPEndpoint string `json:"http_endpoint"`
		}] `json:"metadata_options"`
		Interfaces []struct {
			PublicIP flexBool `json:"associate_public_ip_address"` // "true", "false" or "" in the state
		} `json:"network_interfaces"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	lt := &LaunchTemplate{LaunchTemplateID: c.ID, Name: c.Name, InstanceType: t.InstanceType}
	if m, ok := t.Metadata.first(); ok {
		lt.MetadataHTTPTokens, lt.MetadataHTTPEndpoint = strings.ToLower(m.HTTPTokens), strings.ToLower(m.HTTPEndpoint)
	}
	for _, n := range t.Interfaces {
		lt.AssociatePublicIP = lt.AssociatePublicIP || bool(n.PublicIP)
	}
	return lt, nil
}

func tfLBListener(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		LBARN     string `json:"load_balancer_arn"`
		Port      int    `json:"port"`
		Protocol  string `json:"protocol"`
		SSLPolicy string `json:"ssl_policy"`
		Actions   []struct {
			Type     string `json:"type"`
			Redirect tfBlock[struct {
				Protocol string `json:"protocol"`
			}] `json:"redirect"`
		} `json:"default_action"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	l := &LBListener{ListenerARN: firstNonEmpty(c.ARN, c.ID), LoadBalancerARN: t.LBARN, Port: t.Port, Protocol: strings.ToUpper(t.Protocol),
		SSLPolicy: t.SSLPolicy, DefaultActions: []string{}}
	for _, a := range t.Actions {
		l.DefaultActions = append(l.DefaultActions, strings.ToLower(a.Type))
		if r, ok := a.Redirect.first(); ok {
			l.RedirectProtocol = strings.ToUpper(r.Protocol)
		}
	}
	return l, nil
}
