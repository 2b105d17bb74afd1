package inventory

import (
	"strings"
)

// AWS Config mappers of the compute and load-balancing family. Shapes:
// awslabs/aws-config-resource-schema, config/properties/resource-types/
// AWS::ElasticLoadBalancing::LoadBalancer (configuration and the
// LoadBalancerPolicies supplement), AWS::ElasticLoadBalancingV2::Listener
// and AWS::EC2::LaunchTemplate (CloudFormation-style capitalized names),
// AWS::AutoScaling::LaunchConfiguration.

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
	return TypeClassicLoadBalancer, lb, nil
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

func cfgLaunchTemplate(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		ID   string `json:"Id"`
		Name string `json:"LaunchTemplateName"`
		Data struct {
			InstanceType string `json:"InstanceType"`
			Metadata     struct {
				HTTPTokens   string `json:"HttpTokens"`
				HTTPEndpoint string `json:"HttpEndpoint"`
			} `json:"MetadataOptions"`
			Interfaces []struct {
				PublicIP flexBool `json:"AssociatePublicIpAddress"`
			} `json:"NetworkInterfaces"`
		} `json:"LaunchTemplateData"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	t := LaunchTemplate{LaunchTemplateID: c.ID, Name: c.Name, InstanceType: c.Data.InstanceType,
		MetadataHTTPTokens: strings.ToLower(c.Data.Metadata.HTTPTokens), MetadataHTTPEndpoint: strings.ToLower(c.Data.Metadata.HTTPEndpoint)}
	if t.LaunchTemplateID == "" {
		t.LaunchTemplateID = ci.ResourceID
	}
	for _, n := range c.Data.Interfaces {
		t.AssociatePublicIP = t.AssociatePublicIP || bool(n.PublicIP)
	}
	return TypeLaunchTemplate, t, nil
}

func cfgLaunchConfiguration(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Name         string    `json:"launchConfigurationName"`
		InstanceType string    `json:"instanceType"`
		PublicIP     *flexBool `json:"associatePublicIpAddress"`
		Metadata     struct {
			HTTPTokens   string `json:"httpTokens"`
			HTTPEndpoint string `json:"httpEndpoint"`
		} `json:"metadataOptions"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	l := LaunchConfiguration{Name: c.Name, InstanceType: c.InstanceType, AssociatePublicIP: c.PublicIP.ptr(),
		MetadataHTTPTokens: strings.ToLower(c.Metadata.HTTPTokens), MetadataHTTPEndpoint: strings.ToLower(c.Metadata.HTTPEndpoint)}
	if l.Name == "" {
		l.Name = ci.ResourceName
	}
	return TypeLaunchConfiguration, l, nil
}
