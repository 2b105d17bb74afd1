package inventory

import (
	"encoding/json"
	"strings"
)

// Terraform mappers of the load balancers: aws_lb (and aws_alb), and, from
// the AWS provider's attribute references (registry.terraform.io/providers/
// hashicorp/aws/latest/docs), aws_elb and aws_lb_listener. Facts kept in
// other resources the importer does not join (an ELB's listener policies)
// stay unknown.

func tfLB(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		Type       string `json:"load_balancer_type"`
		Internal   bool   `json:"internal"`
		DNSName    string `json:"dns_name"`
		AccessLogs tfBlock[struct {
			Enabled bool `json:"enabled"`
		}] `json:"access_logs"`
		DeletionProtection *bool `json:"enable_deletion_protection"`
		SubnetMapping      []struct {
			AZ string `json:"availability_zone"`
		} `json:"subnet_mapping"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	lb := &LoadBalancer{Name: c.Name, Type: firstNonEmpty(t.Type, "application"), Scheme: "internet-facing",
		DNSName: t.DNSName, DeletionProtection: t.DeletionProtection, AvailabilityZones: []string{}}
	if t.Internal {
		lb.Scheme = "internal"
	}
	if t.AccessLogs != nil { // an empty block list: none configured
		l, _ := t.AccessLogs.first()
		lb.AccessLogsEnabled = boolPtr(l.Enabled)
	}
	for _, m := range t.SubnetMapping {
		if m.AZ != "" {
			lb.AvailabilityZones = append(lb.AvailabilityZones, m.AZ)
		}
	}
	return lb, nil
}

func tfClassicLB(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		Internal  bool     `json:"internal"`
		AZs       []string `json:"availability_zones"`
		Instances []string `json:"instances"`
		Listeners []struct {
			Protocol string `json:"lb_protocol"`
			Port     int    `json:"lb_port"`
		} `json:"listener"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	lb := &ClassicLoadBalancer{Name: firstNonEmpty(c.Name, c.ID), Scheme: "internet-facing", AvailabilityZones: t.AZs,
		InstanceIDs: t.Instances, Listeners: []ClassicListener{}}
	if t.Internal {
		lb.Scheme = "internal"
	}
	if lb.AvailabilityZones == nil {
		lb.AvailabilityZones = []string{}
	}
	if lb.InstanceIDs == nil {
		lb.InstanceIDs = []string{}
	}
	for _, l := range t.Listeners {
		lb.Listeners = append(lb.Listeners, ClassicListener{Protocol: strings.ToUpper(l.Protocol), LoadBalancerPort: l.Port})
	}
	return lb, nil
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
