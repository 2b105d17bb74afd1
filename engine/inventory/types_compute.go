package inventory

// Canonical types of the compute and load-balancing family: classic load
// balancers, ELBv2 listeners, EC2 launch templates and Auto Scaling launch
// configurations. Property names come from awslabs/
// aws-config-resource-schema (config/properties/resource-types/
// AWS::ElasticLoadBalancing::LoadBalancer, AWS::ElasticLoadBalancingV2::
// Listener, AWS::EC2::LaunchTemplate, AWS::AutoScaling::LaunchConfiguration);
// awsconfig_compute.go maps them.
const (
	TypeClassicLoadBalancer = "aws_elb_classic"
	TypeLBListener          = "aws_lb_listener"
	TypeLaunchTemplate      = "aws_launch_template"
	TypeLaunchConfiguration = "aws_launch_configuration"
)

// ClassicLoadBalancer is the canonical attributes of aws_elb_classic
// (AWS::ElasticLoadBalancing::LoadBalancer).
type ClassicLoadBalancer struct {
	Name              string            `json:"name"`
	Scheme            string            `json:"scheme"` // internet-facing or internal
	AvailabilityZones []string          `json:"availability_zones"`
	InstanceIDs       []string          `json:"instance_ids"` // the registered instances
	Listeners         []ClassicListener `json:"listeners"`
}

// ClassicListener is one listener of a classic load balancer.
type ClassicListener struct {
	Protocol         string `json:"protocol"` // HTTP, HTTPS, TCP, SSL
	LoadBalancerPort int    `json:"load_balancer_port"`
	// SSLPolicy is the AWS predefined security policy the listener's
	// negotiation policy references, "" when none or unknown.
	SSLPolicy string `json:"ssl_policy,omitempty"`
	// LegacyTLS is true when the listener's negotiation policy enables
	// SSLv3, TLS 1.0 or TLS 1.1; null when the source does not record the
	// policy (or the listener does not terminate TLS).
	LegacyTLS *bool `json:"legacy_tls"`
}

// LBListener is the canonical attributes of aws_lb_listener.
type LBListener struct {
	ListenerARN     string `json:"listener_arn"`
	LoadBalancerARN string `json:"load_balancer_arn"`
	Port            int    `json:"port"`
	Protocol        string `json:"protocol"` // HTTP, HTTPS, TCP, TLS, UDP, TCP_UDP, GENEVE
	SSLPolicy       string `json:"ssl_policy,omitempty"`
	// DefaultActions are the types of the default actions (forward,
	// redirect, fixed-response, authenticate-oidc, authenticate-cognito);
	// RedirectProtocol is the protocol a redirect action sends clients to.
	DefaultActions   []string `json:"default_actions"`
	RedirectProtocol string   `json:"redirect_protocol,omitempty"`
}

// LaunchTemplate is the canonical attributes of aws_launch_template (its
// launch template data as AWS Config records it).
type LaunchTemplate struct {
	LaunchTemplateID string `json:"launch_template_id"`
	Name             string `json:"name"`
	InstanceType     string `json:"instance_type,omitempty"`
	// MetadataHTTPTokens is required or optional; "" when the template
	// does not say (the AMI's or the account's default then applies).
	MetadataHTTPTokens string `json:"metadata_http_tokens"`
	// MetadataHTTPEndpoint is "disabled" when the metadata service is off.
	MetadataHTTPEndpoint string `json:"metadata_http_endpoint,omitempty"`
	// AssociatePublicIP is true when a network interface of the template
	// asks for a public IPv4 address.
	AssociatePublicIP bool `json:"associate_public_ip"`
}

// LaunchConfiguration is the canonical attributes of
// aws_launch_configuration.
type LaunchConfiguration struct {
	Name         string `json:"name"`
	InstanceType string `json:"instance_type"`
	// MetadataHTTPTokens is required or optional; "" when not recorded.
	MetadataHTTPTokens   string `json:"metadata_http_tokens"`
	MetadataHTTPEndpoint string `json:"metadata_http_endpoint,omitempty"`
	// AssociatePublicIP is null when the configuration does not say (the
	// subnet's setting then decides).
	AssociatePublicIP *bool `json:"associate_public_ip"`
}
