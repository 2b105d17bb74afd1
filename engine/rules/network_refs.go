package rules

// The network, compute and edge families' NIST SP 800-53 r5, PCI DSS 4.0
// and SOC 2 references, taken as frameworkRefs takes them (compliance_refs.go):
// Prowler's mappings of the equivalent Prowler check named in each comment,
// in prowler-cloud/prowler's prowler/compliance/aws/nist_800_53_revision_5_aws.json,
// pci_4.0_aws.json and soc2_aws.json (NIST statement items folded into their
// control, PCI sub-items into the requirement the catalog lists). Kept apart
// from compliance_refs.go so that the families' authors do not edit one map.
func init() {
	for id, refs := range map[string][]string{
		// Prowler: elb_ssl_listeners
		"aws-elb-007": {"NIST-800-53-r5:AC-4", "NIST-800-53-r5:AC-4(22)", "NIST-800-53-r5:AC-17(2)", "NIST-800-53-r5:AC-24(1)", "NIST-800-53-r5:AU-9(3)", "NIST-800-53-r5:CA-9", "NIST-800-53-r5:IA-5(1)", "NIST-800-53-r5:PM-17", "NIST-800-53-r5:SC-7(4)", "NIST-800-53-r5:SC-7(5)", "NIST-800-53-r5:SC-8", "NIST-800-53-r5:SC-8(1)", "NIST-800-53-r5:SC-8(2)", "NIST-800-53-r5:SC-8(3)", "NIST-800-53-r5:SC-8(4)", "NIST-800-53-r5:SC-8(5)", "NIST-800-53-r5:SC-13", "NIST-800-53-r5:SC-23", "NIST-800-53-r5:SC-23(5)", "NIST-800-53-r5:SI-1", "PCI-DSS-4.0:1.2.5", "PCI-DSS-4.0:2.2.5", "PCI-DSS-4.0:2.2.7", "PCI-DSS-4.0:4.2.1.1", "PCI-DSS-4.0:8.3.2"},
		// Prowler: elbv2_insecure_ssl_ciphers
		"aws-elb-011": {"NIST-800-53-r5:SC-8(1)", "NIST-800-53-r5:SC-23(5)"},
		// Prowler: ec2_launch_template_no_public_ip
		"aws-ec2-014": {"PCI-DSS-4.0:1.4.5", "SOC2:CC6.6"},
		// Prowler: autoscaling_group_launch_configuration_requires_imdsv2
		"aws-asg-003": {"PCI-DSS-4.0:8.2.8"},
		// Prowler: apigateway_restapi_logging_enabled
		"aws-apigateway-002": {"NIST-800-53-r5:AC-4(26)", "NIST-800-53-r5:AU-2", "NIST-800-53-r5:AU-3", "NIST-800-53-r5:AU-6(3)", "NIST-800-53-r5:AU-6(4)", "NIST-800-53-r5:AU-6(6)", "NIST-800-53-r5:AU-6(9)", "NIST-800-53-r5:AU-8", "NIST-800-53-r5:AU-10", "NIST-800-53-r5:AU-12", "NIST-800-53-r5:AU-12(1)", "NIST-800-53-r5:AU-12(2)", "NIST-800-53-r5:AU-12(3)", "NIST-800-53-r5:AU-12(4)", "NIST-800-53-r5:AU-14", "NIST-800-53-r5:AU-14(3)", "NIST-800-53-r5:CA-7", "NIST-800-53-r5:CM-5(1)", "NIST-800-53-r5:IA-3(3)", "NIST-800-53-r5:MA-4(1)", "NIST-800-53-r5:PM-14", "NIST-800-53-r5:PM-31", "NIST-800-53-r5:SC-7(9)", "NIST-800-53-r5:SI-4(17)", "NIST-800-53-r5:SI-7(8)", "PCI-DSS-4.0:10.2.1.1", "PCI-DSS-4.0:10.2.1.2", "PCI-DSS-4.0:10.2.1.3", "PCI-DSS-4.0:10.2.1.4", "PCI-DSS-4.0:10.2.1.5", "PCI-DSS-4.0:10.2.1.6", "PCI-DSS-4.0:10.2.1.7", "PCI-DSS-4.0:10.2.2", "PCI-DSS-4.0:10.3.1", "PCI-DSS-4.0:10.6.3", "PCI-DSS-4.0:5.3.4", "PCI-DSS-4.0:A1.2.1", "SOC2:CC7.2", "SOC2:CC7.3", "SOC2:PI1.2"},
		// Prowler: apigateway_restapi_tracing_enabled
		"aws-apigateway-003": {"PCI-DSS-4.0:10.2.1.1", "PCI-DSS-4.0:10.2.1.2", "PCI-DSS-4.0:10.2.1.3", "PCI-DSS-4.0:10.2.1.4", "PCI-DSS-4.0:10.2.1.5", "PCI-DSS-4.0:10.2.1.6", "PCI-DSS-4.0:10.2.1.7", "PCI-DSS-4.0:10.2.2", "PCI-DSS-4.0:10.3.1", "PCI-DSS-4.0:10.4.1.1", "PCI-DSS-4.0:10.4.2", "PCI-DSS-4.0:10.6.3", "PCI-DSS-4.0:10.7.1", "PCI-DSS-4.0:10.7.2", "PCI-DSS-4.0:5.3.4", "PCI-DSS-4.0:A1.2.1", "PCI-DSS-4.0:A3.3.1", "PCI-DSS-4.0:A3.5.1"},
		// Prowler: apigateway_restapi_waf_acl_attached
		"aws-apigateway-004": {"NIST-800-53-r5:AC-4(21)", "PCI-DSS-4.0:1.2.8", "PCI-DSS-4.0:1.3.1", "PCI-DSS-4.0:1.3.2", "PCI-DSS-4.0:1.4.1", "PCI-DSS-4.0:1.4.2", "PCI-DSS-4.0:1.4.4", "PCI-DSS-4.0:1.5.1", "PCI-DSS-4.0:6.4.1", "PCI-DSS-4.0:6.4.2", "PCI-DSS-4.0:A1.1.3"},
		// Prowler: apigateway_restapi_cache_encrypted
		"aws-apigateway-005": {"PCI-DSS-4.0:3.5.1.1", "PCI-DSS-4.0:8.3.2"},
		// Prowler: apigatewayv2_api_access_logging_enabled
		"aws-apigateway-006": {"PCI-DSS-4.0:10.2.1.1", "PCI-DSS-4.0:10.2.1.2", "PCI-DSS-4.0:10.2.1.3", "PCI-DSS-4.0:10.2.1.4", "PCI-DSS-4.0:10.2.1.5", "PCI-DSS-4.0:10.2.1.6", "PCI-DSS-4.0:10.2.1.7", "PCI-DSS-4.0:10.2.2", "PCI-DSS-4.0:10.3.1", "PCI-DSS-4.0:10.6.3", "PCI-DSS-4.0:5.3.4", "PCI-DSS-4.0:A1.2.1", "SOC2:PI1.2"},
		// Prowler: wafv2_webacl_with_rules
		"aws-waf-001": {"PCI-DSS-4.0:6.4.1", "PCI-DSS-4.0:6.4.2"},
		// Prowler: route53_public_hosted_zones_cloudwatch_logging_enabled
		"aws-route53-001": {"PCI-DSS-4.0:10.2.1.1", "PCI-DSS-4.0:10.2.1.2", "PCI-DSS-4.0:10.2.1.3", "PCI-DSS-4.0:10.2.1.4", "PCI-DSS-4.0:10.2.1.5", "PCI-DSS-4.0:10.2.1.6", "PCI-DSS-4.0:10.2.1.7", "PCI-DSS-4.0:10.2.1", "PCI-DSS-4.0:10.2.2", "PCI-DSS-4.0:10.3.1", "PCI-DSS-4.0:10.6.3", "PCI-DSS-4.0:5.3.4", "PCI-DSS-4.0:A1.2.1"},
		// Prowler: acm_certificates_expiration_check
		"aws-acm-001": {"NIST-800-53-r5:SC-7(12)", "NIST-800-53-r5:SC-7(16)", "PCI-DSS-4.0:3.5.1.1", "PCI-DSS-4.0:3.5.1.3", "PCI-DSS-4.0:3.6.1.2", "PCI-DSS-4.0:3.6.1.3", "PCI-DSS-4.0:3.6.1.4", "PCI-DSS-4.0:3.6.1", "PCI-DSS-4.0:3.7.1", "PCI-DSS-4.0:3.7.2", "PCI-DSS-4.0:3.7.4", "PCI-DSS-4.0:3.7.5", "PCI-DSS-4.0:3.7.6", "PCI-DSS-4.0:3.7.7", "PCI-DSS-4.0:4.2.1.1", "SOC2:CC6.7"},
		// Prowler: acm_certificates_with_secure_key_algorithms
		"aws-acm-002": {"PCI-DSS-4.0:3.7.1"},
		// Prowler: cloudfront_distributions_using_waf
		"aws-cloudfront-004": {"PCI-DSS-4.0:1.2.8", "PCI-DSS-4.0:1.3.1", "PCI-DSS-4.0:1.3.2", "PCI-DSS-4.0:1.4.2", "PCI-DSS-4.0:1.5.1", "PCI-DSS-4.0:6.4.1", "PCI-DSS-4.0:6.4.2", "PCI-DSS-4.0:A1.1.3"},
		// Prowler: cloudfront_distributions_s3_origin_access_control
		"aws-cloudfront-005": {"PCI-DSS-4.0:10.3.4"},
		// Prowler: cloudfront_distributions_origin_traffic_encrypted
		"aws-cloudfront-006": {"PCI-DSS-4.0:1.2.5", "PCI-DSS-4.0:2.2.5", "PCI-DSS-4.0:2.2.7", "PCI-DSS-4.0:4.2.1.1", "PCI-DSS-4.0:4.2.1", "PCI-DSS-4.0:8.3.2"},
		// Prowler: cloudfront_distributions_using_deprecated_ssl_protocols
		"aws-cloudfront-007": {"PCI-DSS-4.0:1.2.5", "PCI-DSS-4.0:2.2.5", "PCI-DSS-4.0:2.2.7", "PCI-DSS-4.0:4.2.1.1", "PCI-DSS-4.0:4.2.1", "PCI-DSS-4.0:8.3.2"},
	} {
		frameworkRefs[id] = append(frameworkRefs[id], refs...)
	}
}
