package inventory

import "strings"

// AWS Config mappers of the load balancers:
// AWS::ElasticLoadBalancingV2::LoadBalancer, and (shapes:
// awslabs/aws-config-resource-schema, config/properties/resource-types/)
// AWS::ElasticLoadBalancing::LoadBalancer (configuration and the
// LoadBalancerPolicies supplement) and AWS::ElasticLoadBalancingV2::Listener.

func cfgLB(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Name   string `json:"loadBalancerName"`
		Type   string `json:"type"`
		Scheme string `json:"scheme"`
		DNS    string `json:"dNSName"`
		AZs    []struct {
			ZoneName string `json:"zoneName"`
		} `json:"availabilityZones"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	lb := LoadBalancer{Name: c.Name, Type: c.Type, Scheme: c.Scheme, DNSName: c.DNS, AvailabilityZones: []string{}}
	for _, z := range c.AZs {
		lb.AvailabilityZones = append(lb.AvailabilityZones, z.ZoneName)
	}
	var attrs []struct {
		Key   present[string] `json:"key"`
		Value present[string] `json:"value"`
	}
	if err := supp(ci, "LoadBalancerAttributes", &attrs); err != nil {
		return "", nil, err
	}
	complete := true // every entry names its attribute and its value
	for _, a := range attrs {
		if !a.Key.Set || !a.Value.Set {
			complete = false // an attribute of unknown name or value stays unknown
			continue
		}
		switch v := a.Value.V; a.Key.V {
		case "access_logs.s3.enabled":
			lb.AccessLogsEnabled = boolPtr(v == "true")
		case "deletion_protection.enabled":
			lb.DeletionProtection = boolPtr(v == "true")
		case "routing.http.drop_invalid_header_fields.enabled":
			lb.DropInvalidHeaderFields = boolPtr(v == "true")
		case "routing.http.desync_mitigation_mode":
			lb.DesyncMitigationMode = v
		case "load_balancing.cross_zone.enabled":
			lb.CrossZoneEnabled = boolPtr(v == "true")
		}
	}
	// The defaults fill the attributes AWS left out; with an entry of
	// unknown name or value, which one it was is unknown too.
	if complete && len(attrs) > 0 && lb.Type != "" { // the defaults depend on the type: unknown type, unknown defaults
		lbAttributeDefaults(&lb)
	}
	return TypeLB, recordedOnly(ci, conf, lb, "load_balancer_type=type", "scheme=scheme", "availability_zones=availabilityZones"), nil
}

// lbAttributeDefaults fills, for a load balancer whose attributes were
// recorded, the ones left out with AWS's documented defaults (Elastic Load
// Balancing API reference, LoadBalancerAttribute): invalid header fields
// are kept, desync mitigation is defensive, cross-zone load balancing is
// always on for application load balancers and off by default for network
// and gateway ones.
func lbAttributeDefaults(lb *LoadBalancer) {
	if lb.Type == "application" {
		if lb.DropInvalidHeaderFields == nil {
			lb.DropInvalidHeaderFields = boolPtr(false)
		}
		if lb.DesyncMitigationMode == "" {
			lb.DesyncMitigationMode = "defensive"
		}
		lb.CrossZoneEnabled = boolPtr(true)
	} else if lb.CrossZoneEnabled == nil {
		lb.CrossZoneEnabled = boolPtr(false)
	}
}

func cfgClassicLB(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Name      string   `json:"loadBalancerName"`
		Scheme    string   `json:"scheme"`
		AZs       []string `json:"availabilityZones"`
		Instances []struct {
			InstanceID string `json:"instanceId"`
		} `json:"instances"`
		Listeners []struct {
			Listener struct {
				Protocol string  `json:"protocol"`
				Port     flexInt `json:"loadBalancerPort"`
			} `json:"listener"`
			PolicyNames []string `json:"policyNames"`
		} `json:"listenerDescriptions"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	var policies []struct {
		Name  string `json:"policyName"`
		Type  string `json:"policyTypeName"`
		Attrs []struct {
			Name  string `json:"attributeName"`
			Value string `json:"attributeValue"`
		} `json:"policyAttributeDescriptions"`
	}
	recorded := jsonObject(ci.Supplementary["LoadBalancerPolicies"]) != nil
	if err := supp(ci, "LoadBalancerPolicies", &policies); err != nil {
		return "", nil, err
	}
	lb := ClassicLoadBalancer{Name: c.Name, Scheme: c.Scheme, AvailabilityZones: c.AZs, InstanceIDs: []string{}, Listeners: []ClassicListener{}}
	if lb.AvailabilityZones == nil {
		lb.AvailabilityZones = []string{}
	}
	for _, in := range c.Instances {
		lb.InstanceIDs = append(lb.InstanceIDs, in.InstanceID)
	}
	for _, l := range c.Listeners {
		cl := ClassicListener{Protocol: strings.ToUpper(l.Listener.Protocol), LoadBalancerPort: int(l.Listener.Port)}
		if recorded && (cl.Protocol == "HTTPS" || cl.Protocol == "SSL") {
			legacy := false
			for _, name := range l.PolicyNames {
				for _, p := range policies {
					if p.Name != name || p.Type != "SSLNegotiationPolicyType" {
						continue
					}
					for _, a := range p.Attrs {
						switch a.Name {
						case "Reference-Security-Policy":
							cl.SSLPolicy = a.Value
						case "Protocol-SSLv3", "Protocol-TLSv1", "Protocol-TLSv1.1":
							legacy = legacy || strings.EqualFold(a.Value, "true")
						}
					}
				}
			}
			cl.LegacyTLS = &legacy
		}
		lb.Listeners = append(lb.Listeners, cl)
	}
	return TypeClassicLoadBalancer, recordedOnly(ci, conf, lb, "availability_zones=availabilityZones", "instance_ids=instances", "scheme=scheme"), nil
}

func cfgLBListener(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		ARN       string  `json:"ListenerArn"`
		LBARN     string  `json:"LoadBalancerArn"`
		Port      flexInt `json:"Port"`
		Protocol  string  `json:"Protocol"`
		SSLPolicy string  `json:"SslPolicy"`
		Actions   []struct {
			Type     string `json:"Type"`
			Redirect *struct {
				Protocol string `json:"Protocol"`
			} `json:"RedirectConfig"`
		} `json:"DefaultActions"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	l := LBListener{ListenerARN: c.ARN, LoadBalancerARN: c.LBARN, Port: int(c.Port), Protocol: strings.ToUpper(c.Protocol),
		SSLPolicy: c.SSLPolicy, DefaultActions: []string{}}
	if l.ListenerARN == "" {
		l.ListenerARN = ci.ARN
	}
	for _, a := range c.Actions {
		l.DefaultActions = append(l.DefaultActions, strings.ToLower(a.Type))
		if a.Redirect != nil {
			l.RedirectProtocol = strings.ToUpper(a.Redirect.Protocol)
		}
	}
	return TypeLBListener, l, nil
}
