package rules

import (
	"strings"

	"github.com/fourd-dev/fourd/engine"
	inv "github.com/fourd-dev/fourd/engine/inventory"
)

// The edge family's cases. Shapes: awslabs/aws-config-resource-schema,
// config/properties/resource-types/AWS::ApiGateway::Stage,
// AWS::ApiGatewayV2::Stage, AWS::WAFv2::WebACL, AWS::Route53::HostedZone,
// AWS::ACM::Certificate, AWS::NetworkFirewall::Firewall,
// AWS::CloudFront::Distribution.properties.json (origins in the SDK's
// {quantity, items} form AWS Config records CloudFront in).
func init() {
	const stageARN = "arn:aws:apigateway:eu-west-1::/restapis/a1b2c3d4e5/stages/prod"
	stage := func(fields string, hist bool) string {
		conf := `{"stageName":"prod","deploymentId":"dep123","createdDate":"2025-01-10T10:00:00.000Z","lastUpdatedDate":"2025-05-10T10:00:00.000Z"` + fields + `}`
		if hist {
			return histItem("AWS::ApiGateway::Stage", "prod", stageARN, conf, "")
		}
		return cfgItem("AWS::ApiGateway::Stage", "prod", stageARN, conf, "")
	}
	good := `,"accessLogSettings":{"destinationArn":"arn:aws:logs:eu-west-1:111122223333:log-group:api-access","format":"$context.requestId"},
  "tracingEnabled":true,"webAclArn":"arn:aws:wafv2:eu-west-1:111122223333:regional/webacl/api/1","cacheClusterEnabled":true,"cacheClusterSize":"0.5",
  "methodSettings":{"*/*":{"loggingLevel":"ERROR","metricsEnabled":true,"dataTraceEnabled":false,"cachingEnabled":true,"cacheDataEncrypted":true,"cacheTtlInSeconds":300}}`
	v2 := func(fields string) string {
		return histItem("AWS::ApiGatewayV2::Stage", "$default", "arn:aws:apigateway:eu-west-1::/apis/f1e2d3c4b5/stages/$default",
			`{"stageName":"$default","autoDeploy":true,"defaultRouteSettings":{"detailedMetricsEnabled":true,"throttlingBurstLimit":500,"throttlingRateLimit":1000}`+fields+`}`, "")
	}
	acl := func(fields string) string {
		return cfgItem("AWS::WAFv2::WebACL", "a1b2c3d4-5678-90ab-cdef-EXAMPLE11111", "arn:aws:wafv2:eu-west-1:111122223333:regional/webacl/api/a1b2c3d4-5678-90ab-cdef-EXAMPLE11111",
			`{"name":"api","id":"a1b2c3d4-5678-90ab-cdef-EXAMPLE11111","capacity":700,"defaultAction":{"allow":{}}`+fields+`}`, "")
	}
	rule := func(action string) string {
		return `{"name":"common","priority":0,"statement":{"managedRuleGroupStatement":{"vendorName":"AWS","name":"AWSManagedRulesCommonRuleSet"}},
  "overrideAction":{"` + action + `":{}},"visibilityConfig":{"sampledRequestsEnabled":true,"cloudWatchMetricsEnabled":true,"metricName":"common"}}`
	}
	metrics := `,"visibilityConfig":{"sampledRequestsEnabled":true,"cloudWatchMetricsEnabled":true,"metricName":"api"}`
	zone := func(fields string) string {
		return cfgItem("AWS::Route53::HostedZone", "Z0123456789ABCDEFGHIJ", "arn:aws:route53:::hostedzone/Z0123456789ABCDEFGHIJ",
			`{"Id":"Z0123456789ABCDEFGHIJ","Name":"example.com.","NameServers":["ns-1.awsdns-01.org"],"HostedZoneConfig":{"Comment":"public"}`+fields+`}`, "")
	}
	cert := func(fields string, hist bool) string {
		conf := `{"certificateArn":"arn:aws:acm:eu-west-1:111122223333:certificate/1f2e3d4c","domainName":"www.example.com","status":"ISSUED",
  "issuedAt":"2025-03-01T00:00:00.000Z","notBefore":"2025-03-01T00:00:00.000Z","renewalEligibility":"ELIGIBLE",
  "inUseBy":["arn:aws:elasticloadbalancing:eu-west-1:111122223333:loadbalancer/app/web/1"]` + fields + `}`
		if hist {
			return histItem("AWS::ACM::Certificate", "1f2e3d4c", "arn:aws:acm:eu-west-1:111122223333:certificate/1f2e3d4c", conf, "")
		}
		return cfgItem("AWS::ACM::Certificate", "1f2e3d4c", "arn:aws:acm:eu-west-1:111122223333:certificate/1f2e3d4c", conf, "")
	}
	okCert := `,"type":"AMAZON_ISSUED","keyAlgorithm":"RSA-2048","notAfter":"2026-03-31T23:59:59.000Z","options":{"certificateTransparencyLoggingPreference":"ENABLED"}`
	fw := func(fields string) string {
		return cfgItem("AWS::NetworkFirewall::Firewall", "egress", "arn:aws:network-firewall:eu-west-1:111122223333:firewall/egress",
			`{"firewall":{"firewallName":"egress","firewallArn":"arn:aws:network-firewall:eu-west-1:111122223333:firewall/egress","vpcId":"vpc-0a1b2c3d",
  "firewallPolicyArn":"arn:aws:network-firewall:eu-west-1:111122223333:firewall-policy/egress","firewallPolicyChangeProtection":true`+fields+`}}`, "")
	}
	two := `,"subnetMappings":[{"subnetId":"subnet-0a"},{"subnetId":"subnet-0b"}]`
	cdn := func(origins, extra string) string {
		return cfgItem("AWS::CloudFront::Distribution", "E2EXAMPLE", "arn:aws:cloudfront::111122223333:distribution/E2EXAMPLE",
			`{"id":"E2EXAMPLE","domainName":"d111111abcdef8.cloudfront.net","distributionConfig":{"enabled":true,"priceClass":"PriceClass_100",
  "defaultCacheBehavior":{"viewerProtocolPolicy":"redirect-to-https"},"viewerCertificate":{"minimumProtocolVersion":"TLSv1.2_2021"},
  "logging":{"enabled":true,"bucket":"logs.s3.amazonaws.com","prefix":"cdn/"}`+extra+`,"origins":{"quantity":1,"items":[`+origins+`]}}}`, "")
	}
	waf := `,"webACLId":"arn:aws:wafv2:us-east-1:111122223333:global/webacl/cdn/1"`
	s3 := func(oac, oai string) string {
		return `{"id":"assets","domainName":"assets.s3.eu-west-1.amazonaws.com","originPath":"","originAccessControlId":"` + oac + `",
  "s3OriginConfig":{"originAccessIdentity":"` + oai + `"}}`
	}
	custom := func(policy, protocols string) string {
		return `{"id":"app","domainName":"app.example.com","originAccessControlId":"","customOriginConfig":{"hTTPPort":80,"hTTPSPort":443,
  "originProtocolPolicy":"` + policy + `","originSslProtocols":{"quantity":1,"items":[` + protocols + `]},"originReadTimeout":30}}`
	}
	addConfigCases(map[string]configCase{
		"aws-apigateway-001": {pass: stage(good, false), fail: stage(`,"tracingEnabled":true`, true)},
		"aws-apigateway-002": {pass: stage(good, true), fail: stage(`,"methodSettings":{"*/*":{"loggingLevel":"OFF","metricsEnabled":false}}`, false)},
		"aws-apigateway-003": {pass: stage(good, false), fail: stage(`,"tracingEnabled":false`, false)},
		"aws-apigateway-004": {pass: stage(good, false), fail: stage(strings.Replace(good, `"webAclArn"`, `"unused"`, 1), true)},
		"aws-apigateway-005": {pass: stage(good, false), fail: stage(strings.Replace(good, `"cacheDataEncrypted":true`, `"cacheDataEncrypted":false`, 1), false)},
		"aws-apigateway-006": {pass: v2(`,"accessLogSettings":{"destinationArn":"arn:aws:logs:eu-west-1:111122223333:log-group:http-api","format":"$context.requestId"}`), fail: v2(``)},
		"aws-waf-001":        {pass: acl(`,"rules":[` + rule("none") + `]` + metrics), fail: acl(`,"rules":[]` + metrics)},
		"aws-waf-002":        {pass: acl(`,"rules":[` + rule("none") + `]` + metrics), fail: acl(`,"rules":[` + rule("none") + `],"visibilityConfig":{"sampledRequestsEnabled":true,"cloudWatchMetricsEnabled":false,"metricName":"api"}`)},
		"aws-waf-003":        {pass: acl(`,"rules":[` + rule("none") + `]` + metrics), fail: acl(`,"rules":[` + rule("count") + `]` + metrics)},
		"aws-route53-001": {pass: zone(`,"QueryLoggingConfig":{"CloudWatchLogsLogGroupArn":"arn:aws:logs:us-east-1:111122223333:log-group:/aws/route53/example.com"}`),
			fail: zone(``)},
		"aws-acm-001":             {pass: cert(okCert, false), fail: cert(strings.Replace(okCert, "2026-03-31", "2025-06-20", 1), true)},
		"aws-acm-002":             {pass: cert(okCert, true), fail: cert(`,"type":"IMPORTED","keyAlgorithm":"RSA_1024","notAfter":"2026-03-31T23:59:59.000Z"`, false)},
		"aws-acm-003":             {pass: cert(okCert, false), fail: cert(strings.Replace(okCert, `"ENABLED"`, `"DISABLED"`, 1), false)},
		"aws-networkfirewall-001": {pass: fw(two + `,"deleteProtection":true,"subnetChangeProtection":true`), fail: fw(two + `,"deleteProtection":false,"subnetChangeProtection":true`)},
		"aws-networkfirewall-002": {pass: fw(two + `,"deleteProtection":true,"subnetChangeProtection":true`), fail: fw(`,"subnetMappings":[{"subnetId":"subnet-0a"}],"deleteProtection":true`)},
		"aws-networkfirewall-003": {pass: fw(two + `,"deleteProtection":true,"subnetChangeProtection":true`), fail: fw(two + `,"deleteProtection":true,"subnetChangeProtection":false`)},
		"aws-cloudfront-004":      {pass: cdn(s3("E3OAC", ""), waf), fail: cdn(s3("E3OAC", ""), "")},
		"aws-cloudfront-005":      {pass: cdn(s3("", "origin-access-identity/cloudfront/E1OAI"), waf), fail: cdn(s3("", ""), waf)},
		"aws-cloudfront-006":      {pass: cdn(custom("https-only", `"TLSv1.2"`), waf), fail: cdn(custom("http-only", `"TLSv1.2"`), waf)},
		"aws-cloudfront-007":      {pass: cdn(custom("https-only", `"TLSv1.2"`), waf), fail: cdn(custom("https-only", `"SSLv3","TLSv1.2"`), waf)},
		"aws-asg-007":             {pass: asgItem(`"minSize":2`), fail: asgItem(`"minSize":1`)},
	})
	type unknownCase = struct {
		res     engine.Resource
		missing []string
	}
	unknownCases["aws-apigateway-002"] = unknownCase{mk(inv.TypeAPIGatewayStage, `{"stage_name":"prod"}`), []string{"execution_logging_level"}}
	unknownCases["aws-apigateway-005"] = unknownCase{mk(inv.TypeAPIGatewayStage, `{"stage_name":"prod","cache_cluster_enabled":true}`), []string{"cache_data_encrypted"}}
	unknownCases["aws-waf-001"] = unknownCase{mk(inv.TypeWAFv2WebACL, `{"name":"a","default_action":"allow"}`), []string{"rule_count"}}
	unknownCases["aws-waf-003"] = unknownCase{mk(inv.TypeWAFv2WebACL, `{"name":"a","default_action":"allow"}`), []string{"rule_count"}}
	unknownCases["aws-cloudfront-005"] = unknownCase{mk(inv.TypeCloudFrontDistribution, `{"distribution_id":"E1","enabled":true}`), []string{"origins"}}
	unknownCases["aws-cloudfront-006"] = unknownCase{mk(inv.TypeCloudFrontDistribution, `{"distribution_id":"E1","enabled":true}`), []string{"origins"}}
	unknownCases["aws-cloudfront-007"] = unknownCase{mk(inv.TypeCloudFrontDistribution, `{"distribution_id":"E1","enabled":true}`), []string{"origins"}}
}

func asgItem(min string) string {
	return cfgItem("AWS::AutoScaling::AutoScalingGroup", "web", "arn:aws:autoscaling:eu-west-1:111122223333:autoScalingGroup:1:autoScalingGroupName/web",
		`{"autoScalingGroupName":"web","availabilityZones":["eu-west-1a","eu-west-1b"],`+min+`,"maxSize":4,"desiredCapacity":2,
  "healthCheckType":"ELB","targetGroupARNs":["arn:aws:elasticloadbalancing:eu-west-1:111122223333:targetgroup/web/3"],
  "launchTemplate":{"launchTemplateId":"lt-0a1b2c3d","version":"$Default"}}`, "")
}
