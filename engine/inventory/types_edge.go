package inventory

import "time"

// Canonical types of the edge family: CloudFront distributions, API Gateway
// stages, AWS WAF web ACLs, Route 53 hosted zones, ACM certificates and
// Network Firewall firewalls.
// Property names come from awslabs/aws-config-resource-schema
// (config/properties/resource-types/AWS::ApiGateway::Stage,
// AWS::ApiGatewayV2::Stage, AWS::WAFv2::WebACL, AWS::Route53::HostedZone,
// AWS::ACM::Certificate, AWS::NetworkFirewall::Firewall); awsconfig_edge.go
// maps them.
const (
	TypeAPIGatewayStage        = "aws_api_gateway_stage"
	TypeAPIGatewayV2Stage      = "aws_apigatewayv2_stage"
	TypeWAFv2WebACL            = "aws_wafv2_web_acl"
	TypeRoute53Zone            = "aws_route53_hosted_zone"
	TypeACMCertificate         = "aws_acm_certificate"
	TypeNetworkFirewall        = "aws_network_firewall"
	TypeCloudFrontDistribution = "aws_cloudfront_distribution"
)

// APIGatewayStage is the canonical attributes of aws_api_gateway_stage (a
// REST API stage).
type APIGatewayStage struct {
	StageName               string `json:"stage_name"`
	AccessLogDestinationARN string `json:"access_log_destination_arn"`
	WebACLARN               string `json:"web_acl_arn"`
	TracingEnabled          bool   `json:"tracing_enabled"`
	CacheClusterEnabled     bool   `json:"cache_cluster_enabled"`
	// ExecutionLoggingLevel (OFF, ERROR, INFO) and CacheDataEncrypted come
	// from the stage's method settings for all methods ("*/*"); "" and
	// null when the source does not record them.
	ExecutionLoggingLevel string `json:"execution_logging_level,omitempty"`
	CacheDataEncrypted    *bool  `json:"cache_data_encrypted"`
}

// APIGatewayV2Stage is the canonical attributes of aws_apigatewayv2_stage
// (an HTTP or WebSocket API stage).
type APIGatewayV2Stage struct {
	StageName               string `json:"stage_name"`
	AccessLogDestinationARN string `json:"access_log_destination_arn"`
}

// WAFv2WebACL is the canonical attributes of aws_wafv2_web_acl.
type WAFv2WebACL struct {
	Name          string `json:"name"`
	DefaultAction string `json:"default_action"` // allow or block
	// RuleCount is the number of rules; null when the source does not
	// record them. CountingRules is how many of them only count (action
	// or override action count).
	RuleCount                *int `json:"rule_count"`
	CountingRules            int  `json:"counting_rules"`
	CloudWatchMetricsEnabled bool `json:"cloudwatch_metrics_enabled"`
}

// Route53HostedZone is the canonical attributes of aws_route53_hosted_zone.
type Route53HostedZone struct {
	ZoneID string `json:"zone_id"`
	Name   string `json:"name"`
	// Private is true for a zone associated with VPCs.
	Private bool `json:"private"`
	// QueryLogGroupARN is the CloudWatch Logs group receiving the zone's
	// DNS query logs, "" when query logging is off.
	QueryLogGroupARN string `json:"query_log_group_arn"`
}

// ACMCertificate is the canonical attributes of aws_acm_certificate.
type ACMCertificate struct {
	DomainName   string    `json:"domain_name"`
	Type         string    `json:"type"`   // AMAZON_ISSUED, IMPORTED, PRIVATE
	Status       string    `json:"status"` // ISSUED, EXPIRED, PENDING_VALIDATION, …
	KeyAlgorithm string    `json:"key_algorithm"`
	NotAfter     time.Time `json:"not_after,omitzero"`
	InUseBy      []string  `json:"in_use_by,omitempty"`
	// TransparencyLogging is ENABLED or DISABLED (certificate transparency
	// logging preference).
	TransparencyLogging string `json:"transparency_logging,omitempty"`
}

// NetworkFirewall is the canonical attributes of aws_network_firewall.
type NetworkFirewall struct {
	Name                   string   `json:"name"`
	VPCID                  string   `json:"vpc_id"`
	SubnetIDs              []string `json:"subnet_ids"`
	DeleteProtection       bool     `json:"delete_protection"`
	SubnetChangeProtection bool     `json:"subnet_change_protection"`
}

// CloudFrontDistribution is the canonical attributes of
// aws_cloudfront_distribution (default cache behavior and viewer certificate).
type CloudFrontDistribution struct {
	DistributionID         string `json:"distribution_id"`
	DomainName             string `json:"domain_name"`
	Enabled                bool   `json:"enabled"`
	ViewerProtocolPolicy   string `json:"viewer_protocol_policy"` // allow-all, redirect-to-https, https-only
	MinimumProtocolVersion string `json:"minimum_protocol_version"`
	LoggingBucket          string `json:"logging_bucket"`
	WebACLID               string `json:"web_acl_id"`
	PriceClass             string `json:"price_class,omitempty"`
	// Origins are the distribution's origins; null when the source does
	// not record them.
	Origins []CloudFrontOrigin `json:"origins"`
}

// CloudFrontOrigin is one origin of a distribution: an S3 bucket (S3 true,
// reached through OriginAccess, the origin access control or identity, ""
// for none) or a custom origin (ProtocolPolicy http-only, match-viewer or
// https-only, and the SSL protocols it accepts).
type CloudFrontOrigin struct {
	ID             string   `json:"id"`
	S3             bool     `json:"s3"`
	OriginAccess   string   `json:"origin_access,omitempty"`
	ProtocolPolicy string   `json:"protocol_policy,omitempty"`
	SSLProtocols   []string `json:"ssl_protocols,omitempty"`
}
