package rules

import (
	"slices"

	"github.com/fourd-dev/fourd/engine"
	inv "github.com/fourd-dev/fourd/engine/inventory"
)

// edgeRules are the checks of the edge family: API Gateway stages, AWS WAF
// web ACLs, CloudFront origins and WAF, Route 53 hosted zones, ACM
// certificates and Network Firewall firewalls.
func edgeRules() []Rule {
	return append(edgeSecurityRules(), []Rule{
		{ID: "aws-apigateway-001", Dimension: compliance, Severity: medium, ResourceTypes: []string{inv.TypeAPIGatewayStage},
			Title:       "API Gateway REST stage has no access logging",
			Description: "The stage writes no access logs, so who called the API, from where and with what result cannot be reconstructed.",
			Remediation: "aws apigateway update-stage --rest-api-id ID --stage-name NAME --patch-operations op=replace,path=/accessLogSettings/destinationArn,value=LOG_GROUP_ARN (Terraform: access_log_settings { destination_arn, format }).",
			Check: func(s *Subject) Result {
				st := get[inv.APIGatewayStage](s)
				return failIfRecorded(s, st.AccessLogDestinationARN == "", "access_log_destination_arn", func() map[string]any {
					return map[string]any{"stage_name": st.StageName, "access_log_destination_arn": st.AccessLogDestinationARN}
				})
			}},
		{ID: "aws-apigateway-002", Dimension: compliance, Severity: medium, ResourceTypes: []string{inv.TypeAPIGatewayStage},
			Title:       "API Gateway REST stage has execution logging off",
			Description: "CloudWatch execution logging (loggingLevel) is OFF for the stage's methods, so errors inside API Gateway (authorizers, integrations, mapping) leave no trace.",
			Remediation: "aws apigateway update-stage --rest-api-id ID --stage-name NAME --patch-operations op=replace,path=/*/*/logging/loglevel,value=ERROR (Terraform: aws_api_gateway_method_settings with logging_level).",
			Check: func(s *Subject) Result {
				st := get[inv.APIGatewayStage](s)
				if st.ExecutionLoggingLevel == "" {
					return notEvaluated("execution_logging_level")
				}
				return failIf(s, st.ExecutionLoggingLevel == "OFF", func() map[string]any {
					return map[string]any{"stage_name": st.StageName, "execution_logging_level": st.ExecutionLoggingLevel}
				})
			}},
		{ID: "aws-apigateway-003", Dimension: architecture, Severity: low, ResourceTypes: []string{inv.TypeAPIGatewayStage},
			Title:       "API Gateway REST stage has X-Ray tracing off",
			Description: "Requests through the stage are not traced, so latency and errors cannot be followed into the integrations.",
			Remediation: "aws apigateway update-stage --rest-api-id ID --stage-name NAME --patch-operations op=replace,path=/tracingEnabled,value=true (Terraform: xray_tracing_enabled = true).",
			Check: func(s *Subject) Result {
				st := get[inv.APIGatewayStage](s)
				return failIfRecorded(s, !st.TracingEnabled, "tracing_enabled", func() map[string]any {
					return map[string]any{"stage_name": st.StageName, "tracing_enabled": st.TracingEnabled}
				})
			}},
		{ID: "aws-apigateway-006", Dimension: compliance, Severity: medium, ResourceTypes: []string{inv.TypeAPIGatewayV2Stage},
			Title:       "API Gateway HTTP or WebSocket stage has no access logging",
			Description: "The stage writes no access logs, so who called the API and with what result cannot be reconstructed.",
			Remediation: "aws apigatewayv2 update-stage --api-id ID --stage-name NAME --access-log-settings DestinationArn=LOG_GROUP_ARN,Format='$context.requestId …' (Terraform: access_log_settings).",
			Check: func(s *Subject) Result {
				st := get[inv.APIGatewayV2Stage](s)
				return failIfRecorded(s, st.AccessLogDestinationARN == "", "access_log_destination_arn", func() map[string]any {
					return map[string]any{"stage_name": st.StageName, "access_log_destination_arn": st.AccessLogDestinationARN}
				})
			}},
		{ID: "aws-waf-002", Dimension: compliance, Severity: low, ResourceTypes: []string{inv.TypeWAFv2WebACL},
			Title:       "AWS WAF web ACL does not send CloudWatch metrics",
			Description: "The web ACL's visibility configuration turns CloudWatch metrics off, so blocked and allowed request counts cannot be watched or alarmed on.",
			Remediation: "aws wafv2 update-web-acl … --visibility-config SampledRequestsEnabled=true,CloudWatchMetricsEnabled=true,MetricName=NAME (Terraform: visibility_config { cloudwatch_metrics_enabled = true }).",
			Check: func(s *Subject) Result {
				w := get[inv.WAFv2WebACL](s)
				return failIfRecorded(s, !w.CloudWatchMetricsEnabled, "cloudwatch_metrics_enabled", func() map[string]any {
					return map[string]any{"name": w.Name, "cloudwatch_metrics_enabled": w.CloudWatchMetricsEnabled}
				})
			}},
		{ID: "aws-route53-001", Dimension: compliance, Severity: low, ResourceTypes: []string{inv.TypeRoute53Zone},
			Title:       "Route 53 public hosted zone has no query logging",
			Description: "DNS queries for the public zone are not logged, so lookups of the organization's names (reconnaissance, exfiltration over DNS, a dangling record in use) leave no trace.",
			Remediation: "aws route53 create-query-logging-config --hosted-zone-id ID --cloud-watch-logs-log-group-arn arn:aws:logs:us-east-1:ACCOUNT:log-group:/aws/route53/ZONE (the group must be in us-east-1; Terraform: aws_route53_query_log).",
			Check: func(s *Subject) Result {
				z := get[inv.Route53HostedZone](s)
				return failIfRecorded(s, !z.Private && z.QueryLogGroupARN == "", "query_log_group_arn", func() map[string]any {
					return map[string]any{"zone_id": z.ZoneID, "name": z.Name, "private": z.Private, "query_log_group_arn": z.QueryLogGroupARN}
				})
			}},
		{ID: "aws-acm-003", Dimension: compliance, Severity: low, ResourceTypes: []string{inv.TypeACMCertificate},
			Title:       "ACM certificate opts out of certificate transparency logging",
			Description: "The certificate was requested with transparency logging disabled: browsers such as Chrome reject publicly trusted certificates that are not in the CT logs, and mis-issuance for the domain cannot be detected.",
			Remediation: "aws acm update-certificate-options --certificate-arn ARN --options CertificateTransparencyLoggingPreference=ENABLED.",
			Check: func(s *Subject) Result {
				c := get[inv.ACMCertificate](s)
				return failIf(s, c.Type == "AMAZON_ISSUED" && c.TransparencyLogging == "DISABLED", func() map[string]any { return map[string]any{"domain_name": c.DomainName, "type": c.Type} })
			}},
		{ID: "aws-networkfirewall-001", Dimension: architecture, Severity: low, ResourceTypes: []string{inv.TypeNetworkFirewall},
			Title:       "Network Firewall has deletion protection off",
			Description: "The firewall can be deleted in one call, taking down the inspection (and, with routes through it, the connectivity) of the VPC.",
			Remediation: "aws network-firewall update-firewall-delete-protection --firewall-name NAME --delete-protection (Terraform: delete_protection = true).",
			Check: func(s *Subject) Result {
				f := get[inv.NetworkFirewall](s)
				return failIfRecorded(s, !f.DeleteProtection, "delete_protection", func() map[string]any {
					return map[string]any{"name": f.Name, "vpc_id": f.VPCID, "delete_protection": f.DeleteProtection}
				})
			}},
		{ID: "aws-networkfirewall-002", Dimension: architecture, Severity: medium, ResourceTypes: []string{inv.TypeNetworkFirewall},
			Title:       "Network Firewall has an endpoint in a single subnet",
			Description: "The firewall has one subnet mapping, so one Availability Zone holds its only endpoint: if the zone fails, traffic routed through the firewall stops.",
			Remediation: "Add a subnet in each Availability Zone the VPC uses: aws network-firewall associate-subnets --firewall-name NAME --subnet-mappings SubnetId=… (Terraform: subnet_mapping blocks), and route each zone through its own endpoint.",
			Check: func(s *Subject) Result {
				f := get[inv.NetworkFirewall](s)
				return failIfZero(s, len(f.SubnetIDs) < 2, len(f.SubnetIDs) == 0, "subnet_ids", func() map[string]any { return map[string]any{"name": f.Name, "subnet_ids": f.SubnetIDs} })
			}},
		{ID: "aws-networkfirewall-003", Dimension: security, Severity: low, ResourceTypes: []string{inv.TypeNetworkFirewall},
			Title:       "Network Firewall has subnet change protection off",
			Description: "The firewall's subnet associations can be changed without first lifting a protection, so a mistaken or malicious call can remove the endpoint a zone routes through.",
			Remediation: "aws network-firewall update-subnet-change-protection --firewall-name NAME --subnet-change-protection (Terraform: subnet_change_protection = true).",
			Check: func(s *Subject) Result {
				f := get[inv.NetworkFirewall](s)
				return failIfRecorded(s, !f.SubnetChangeProtection, "subnet_change_protection", func() map[string]any {
					return map[string]any{"name": f.Name, "subnet_change_protection": f.SubnetChangeProtection}
				})
			}},
		{ID: "aws-asg-007", Dimension: architecture, Severity: low, ResourceTypes: []string{inv.TypeAutoScalingGroup},
			Title:       "Auto Scaling group behind a load balancer may run a single instance",
			Description: "The group serves a load balancer but its minimum size is below two, so scale-in can leave one instance (one Availability Zone) serving all traffic.",
			Remediation: "Set the minimum to at least two, spread over two zones: aws autoscaling update-auto-scaling-group --auto-scaling-group-name NAME --min-size 2 (Terraform: min_size = 2).",
			Check: func(s *Subject) Result {
				g := get[inv.AutoScalingGroup](s)
				served := len(g.TargetGroupARNs) > 0 || len(g.LoadBalancers) > 0
				return failIfZero(s, served && g.MinSize < 2, g.MinSize == 0, "min_size", func() map[string]any {
					return map[string]any{"name": g.Name, "min_size": g.MinSize, "max_size": g.MaxSize}
				})
			}},
	}...)
}

// edgeSecurityRules are the edge family's security checks.
func edgeSecurityRules() []Rule {
	return []Rule{
		{ID: "aws-apigateway-004", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeAPIGatewayStage},
			Title:       "API Gateway REST stage is not protected by AWS WAF",
			Description: "No AWS WAF web ACL is associated with the stage, so requests reach the API without filtering of common exploits, bad bots or request floods.",
			Remediation: "aws wafv2 associate-web-acl --web-acl-arn ACL_ARN --resource-arn arn:aws:apigateway:REGION::/restapis/ID/stages/NAME (Terraform: aws_wafv2_web_acl_association).",
			Check: func(s *Subject) Result {
				st := get[inv.APIGatewayStage](s)
				return failIfRecorded(s, st.WebACLARN == "", "web_acl_arn", func() map[string]any { return map[string]any{"stage_name": st.StageName, "web_acl_arn": st.WebACLARN} })
			}},
		{ID: "aws-apigateway-005", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeAPIGatewayStage},
			Title:       "API Gateway REST stage caches responses unencrypted",
			Description: "The stage's cache is enabled but cacheDataEncrypted is off, so cached API responses are stored unencrypted.",
			Remediation: "aws apigateway update-stage --rest-api-id ID --stage-name NAME --patch-operations op=replace,path=/*/*/caching/dataEncrypted,value=true (Terraform: aws_api_gateway_method_settings settings { cache_data_encrypted = true }).",
			Check: func(s *Subject) Result {
				st := get[inv.APIGatewayStage](s)
				if !st.CacheClusterEnabled {
					return passed(s, func() map[string]any {
						return map[string]any{"stage_name": st.StageName, "cache_cluster_enabled": false}
					})
				}
				return failUnless(s, st.CacheDataEncrypted, "cache_data_encrypted", func() map[string]any {
					return map[string]any{"stage_name": st.StageName, "cache_cluster_enabled": true}
				})
			}},
		{ID: "aws-waf-001", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeWAFv2WebACL},
			Title:       "AWS WAF web ACL has no rules",
			Description: "The web ACL has no rule and allows by default: the resources it is associated with look protected but no request is inspected.",
			Remediation: "Add rules, starting with the AWS managed rule groups AWSManagedRulesCommonRuleSet and AWSManagedRulesKnownBadInputsRuleSet (aws wafv2 update-web-acl --rules …; Terraform: rule blocks with managed_rule_group_statement).",
			Check: func(s *Subject) Result {
				w := get[inv.WAFv2WebACL](s)
				if w.RuleCount == nil {
					return notEvaluated("rule_count")
				}
				return failIf(s, *w.RuleCount == 0 && w.DefaultAction == "allow", func() map[string]any {
					return map[string]any{"name": w.Name, "default_action": w.DefaultAction, "rule_count": 0}
				})
			}},
		{ID: "aws-waf-003", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeWAFv2WebACL},
			Title:       "AWS WAF web ACL only counts requests",
			Description: "Every rule of the web ACL is in count mode and the default action allows, so nothing is ever blocked: a test configuration left in production.",
			Remediation: "Once the counts look right, switch the rules' action (or rule groups' override action) from count to block/none: aws wafv2 update-web-acl (Terraform: action { block {} } / override_action { none {} }).",
			Check: func(s *Subject) Result {
				w := get[inv.WAFv2WebACL](s)
				if w.RuleCount == nil {
					return notEvaluated("rule_count")
				}
				n := *w.RuleCount
				return failIf(s, n > 0 && w.CountingRules == n && w.DefaultAction == "allow", func() map[string]any {
					return map[string]any{"name": w.Name, "rule_count": n, "counting_rules": w.CountingRules}
				})
			}},
		{ID: "aws-cloudfront-004", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeCloudFrontDistribution},
			Title:       "CloudFront distribution is not protected by AWS WAF",
			Description: "No AWS WAF web ACL is associated with the enabled distribution, so requests reach the origins without filtering of common exploits, bad bots or request floods.",
			Remediation: "Create a global (us-east-1, scope CLOUDFRONT) web ACL and set it on the distribution: aws cloudfront update-distribution with DistributionConfig.WebACLId (Terraform: web_acl_id).",
			Check: func(s *Subject) Result {
				d := get[inv.CloudFrontDistribution](s)
				return failIfRecorded(s, d.Enabled && d.WebACLID == "", "web_acl_id", func() map[string]any {
					return map[string]any{"distribution_id": d.DistributionID, "enabled": d.Enabled, "web_acl_id": d.WebACLID}
				})
			}},
		{ID: "aws-cloudfront-005", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeCloudFrontDistribution},
			Title:       "CloudFront S3 origin is reachable without origin access control",
			Description: "An S3 origin has neither an origin access control nor an origin access identity, so the bucket must be readable by anyone for the distribution to work, and CloudFront can be bypassed.",
			Remediation: "Create an origin access control (aws cloudfront create-origin-access-control), set its id on the origin (Terraform: origin_access_control_id), grant it s3:GetObject in the bucket policy, then block public access on the bucket.",
			Check: func(s *Subject) Result {
				d := get[inv.CloudFrontDistribution](s)
				if d.Origins == nil {
					return notEvaluated("origins")
				}
				var open []string
				for _, o := range d.Origins {
					if o.S3 && o.OriginAccess == "" {
						open = append(open, o.ID)
					}
				}
				return failIf(s, len(open) > 0, func() map[string]any { return map[string]any{"distribution_id": d.DistributionID, "origins": open} })
			}},
		{ID: "aws-cloudfront-006", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeCloudFrontDistribution},
			Title:       "CloudFront sends traffic to a custom origin unencrypted",
			Description: "A custom origin's protocol policy is http-only (or match-viewer while viewers may use HTTP), so requests and responses between CloudFront and the origin cross the internet in clear text.",
			Remediation: "Serve HTTPS on the origin and set OriginProtocolPolicy to https-only (aws cloudfront update-distribution; Terraform: custom_origin_config { origin_protocol_policy = \"https-only\" }).",
			Check: func(s *Subject) Result {
				d := get[inv.CloudFrontDistribution](s)
				if d.Origins == nil {
					return notEvaluated("origins")
				}
				var clear []string
				for _, o := range d.Origins {
					if o.ProtocolPolicy == "http-only" || o.ProtocolPolicy == "match-viewer" && d.ViewerProtocolPolicy == "allow-all" {
						clear = append(clear, o.ID)
					}
				}
				return failIf(s, len(clear) > 0, func() map[string]any { return map[string]any{"distribution_id": d.DistributionID, "origins": clear} })
			}},
		{ID: "aws-cloudfront-007", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeCloudFrontDistribution},
			Title:       "CloudFront custom origin accepts SSLv3",
			Description: "A custom origin's OriginSslProtocols include SSLv3, a broken protocol CloudFront can fall back to when talking to the origin.",
			Remediation: "Remove SSLv3 (and TLSv1, TLSv1.1) from the origin's OriginSslProtocols (Terraform: custom_origin_config { origin_ssl_protocols = [\"TLSv1.2\"] }).",
			Check: func(s *Subject) Result {
				d := get[inv.CloudFrontDistribution](s)
				if d.Origins == nil {
					return notEvaluated("origins")
				}
				var weak []string
				for _, o := range d.Origins {
					if o.ProtocolPolicy != "http-only" && slices.Contains(o.SSLProtocols, "SSLv3") {
						weak = append(weak, o.ID)
					}
				}
				return failIf(s, len(weak) > 0, func() map[string]any { return map[string]any{"distribution_id": d.DistributionID, "origins": weak} })
			}},
		{ID: "aws-acm-001", Dimension: security, Severity: high, ResourceTypes: []string{inv.TypeACMCertificate},
			Title:       "ACM certificate in use expires within 30 days",
			Description: "A certificate attached to a load balancer, distribution or API expires in less than 30 days (or has expired): clients will refuse the connection. ACM renews the certificates it issues 60 days ahead, so one this close has failed renewal (or is imported).",
			Remediation: "For an ACM-issued certificate, fix its domain validation (the CNAME records of aws acm describe-certificate); for an imported one, import the renewed certificate: aws acm import-certificate --certificate-arn ARN ….",
			Check: func(s *Subject) Result {
				c := get[inv.ACMCertificate](s)
				if len(c.InUseBy) == 0 || c.NotAfter.IsZero() {
					return passed(s, func() map[string]any {
						return map[string]any{"domain_name": c.DomainName, "in_use_by": c.InUseBy, "not_after": c.NotAfter}
					})
				}
				left := int(c.NotAfter.Sub(s.Now).Hours() / 24)
				r := failIf(s, left < 30, func() map[string]any {
					return map[string]any{"domain_name": c.DomainName, "not_after": c.NotAfter, "days_left": left, "in_use_by": c.InUseBy, "type": c.Type}
				})
				if r.Failed && left < 0 {
					r.Severity, r.Reason = engine.SeverityCritical, "the certificate has expired while in use"
				}
				return r
			}},
		{ID: "aws-acm-002", Dimension: security, Severity: high, ResourceTypes: []string{inv.TypeACMCertificate},
			Title:       "ACM certificate uses an RSA key shorter than 2048 bits",
			Description: "The certificate's key is RSA 1024, which can be factored with feasible resources and is rejected by current browsers and by NIST SP 800-131A.",
			Remediation: "Request (or import) a certificate with an RSA 2048 or ECDSA P-256 key: aws acm request-certificate --key-algorithm EC_prime256v1, move the resources to it, then delete the old one.",
			Check: func(s *Subject) Result {
				c := get[inv.ACMCertificate](s)
				return failIf(s, c.KeyAlgorithm == "RSA_1024", func() map[string]any {
					return map[string]any{"domain_name": c.DomainName, "key_algorithm": c.KeyAlgorithm, "status": c.Status}
				})
			}},
	}
}
