package inventory

import "time"

// Canonical types of the compute family: EC2 instances and launch
// templates, Auto Scaling groups and launch configurations, Lambda functions,
// and load balancers (ELBv2 load balancers and listeners, classic load
// balancers). The newer types' property names come from awslabs/
// aws-config-resource-schema (config/properties/resource-types/
// AWS::ElasticLoadBalancing::LoadBalancer, AWS::ElasticLoadBalancingV2::
// Listener, AWS::EC2::LaunchTemplate, AWS::AutoScaling::LaunchConfiguration);
// awsconfig_compute.go and awsconfig_loadbalancing.go map them.
const (
	TypeClassicLoadBalancer = "aws_elb_classic"
	TypeLBListener          = "aws_lb_listener"
	TypeLaunchTemplate      = "aws_launch_template"
	TypeLaunchConfiguration = "aws_launch_configuration"
	TypeInstance            = "aws_instance"
	TypeLB                  = "aws_lb"
	TypeLambdaFunction      = "aws_lambda_function"
	TypeAutoScalingGroup    = "aws_autoscaling_group"
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

// Instance is the canonical attributes of aws_instance.
type Instance struct {
	InstanceID         string    `json:"instance_id"`
	InstanceType       string    `json:"instance_type"`
	State              string    `json:"state"` // pending, running, stopping, stopped, terminated
	StateChangedAt     time.Time `json:"state_changed_at,omitzero"`
	LaunchTime         time.Time `json:"launch_time,omitzero"`
	AvailabilityZone   string    `json:"availability_zone"`
	VPCID              string    `json:"vpc_id,omitempty"`
	SubnetID           string    `json:"subnet_id,omitempty"`
	PublicIP           string    `json:"public_ip,omitempty"`
	ImageID            string    `json:"image_id,omitempty"`
	IAMInstanceProfile string    `json:"iam_instance_profile,omitempty"`
	// MetadataHTTPTokens is "required" when IMDSv2 is enforced, "optional"
	// when not, "" when the source does not say.
	MetadataHTTPTokens string   `json:"metadata_http_tokens"`
	VolumeIDs          []string `json:"volume_ids,omitempty"`
	SecurityGroupIDs   []string `json:"security_group_ids,omitempty"`
	// AutoScalingGroup is the group that launched the instance, "" if none.
	AutoScalingGroup string `json:"autoscaling_group"`
	Monitoring       bool   `json:"monitoring"`
}

// LoadBalancer is the canonical attributes of aws_lb.
type LoadBalancer struct {
	Name              string   `json:"name"`
	Type              string   `json:"load_balancer_type"` // application, network, gateway, classic
	Scheme            string   `json:"scheme"`             // internet-facing or internal
	DNSName           string   `json:"dns_name,omitempty"`
	AvailabilityZones []string `json:"availability_zones"`
	// AccessLogsEnabled and DeletionProtection are null when the source
	// does not record the load balancer's attributes.
	AccessLogsEnabled  *bool `json:"access_logs_enabled"`
	DeletionProtection *bool `json:"deletion_protection"`
	// TargetCount is the number of registered targets; null when the source
	// does not say.
	TargetCount *int `json:"target_count"`
	// DropInvalidHeaderFields (application load balancers) and
	// CrossZoneEnabled (network and gateway load balancers) are null when
	// the source does not record the load balancer's attributes;
	// DesyncMitigationMode (monitor, defensive, strictest) is "" then.
	DropInvalidHeaderFields *bool  `json:"drop_invalid_header_fields"`
	DesyncMitigationMode    string `json:"desync_mitigation_mode,omitempty"`
	CrossZoneEnabled        *bool  `json:"cross_zone_enabled"`
}

// LambdaFunction is the canonical attributes of aws_lambda_function.
type LambdaFunction struct {
	FunctionName  string   `json:"function_name"`
	Runtime       string   `json:"runtime"`
	MemorySize    int      `json:"memory_size"`
	Timeout       int      `json:"timeout"`
	Architectures []string `json:"architectures"`
	// FunctionURLAuthType is NONE or AWS_IAM for a function with a URL, ""
	// without one.
	FunctionURLAuthType string `json:"function_url_auth_type,omitempty"`
	DeadLetterTargetARN string `json:"dead_letter_target_arn"`
	TracingMode         string `json:"tracing_mode"`
	// Policy is the function's resource policy; null when the source does
	// not say.
	Policy *PolicyDocument `json:"policy,omitempty"`
	// VPCSubnetIDs are the subnets of a function connected to a VPC; empty
	// for a function outside any VPC.
	VPCSubnetIDs []string `json:"vpc_subnet_ids,omitempty"`
}

// AutoScalingGroup is the canonical attributes of aws_autoscaling_group.
type AutoScalingGroup struct {
	Name              string   `json:"name"`
	AvailabilityZones []string `json:"availability_zones"`
	MinSize           int      `json:"min_size"`
	MaxSize           int      `json:"max_size"`
	DesiredCapacity   int      `json:"desired_capacity"`
	HealthCheckType   string   `json:"health_check_type"` // EC2 or ELB
	TargetGroupARNs   []string `json:"target_group_arns,omitempty"`
	LoadBalancers     []string `json:"load_balancers,omitempty"`
	// LaunchConfiguration names the launch configuration the group
	// launches from, "" when it uses a launch template.
	LaunchConfiguration string `json:"launch_configuration,omitempty"`
}
