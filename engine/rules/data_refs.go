package rules

// dataFrameworkRefs are the NIST SP 800-53 r5, PCI DSS v4.0 and SOC 2
// references of the data family's checks added after compliance_refs.go,
// by the same method (Prowler's mappings of the equivalent Prowler check,
// prowler/compliance/aws/*.json; NIST statement items folded into their
// control, PCI sub-items into their requirement).
var dataFrameworkRefs = map[string][]string{
	// Prowler: opensearch_service_domains_encryption_at_rest_enabled
	"aws-opensearch-001": {
		"NIST-800-53-r5:AU-9(3)", "NIST-800-53-r5:CP-9", "NIST-800-53-r5:SC-8(3)", "NIST-800-53-r5:SC-8(4)", "NIST-800-53-r5:SC-13", "NIST-800-53-r5:SC-28(1)", "NIST-800-53-r5:SI-19(4)",
		"PCI-DSS-4.0:3.5.1", "PCI-DSS-4.0:8.3.2",
	},
	// Prowler: opensearch_service_domains_node_to_node_encryption_enabled
	"aws-opensearch-002": {
		"NIST-800-53-r5:AC-4", "NIST-800-53-r5:AC-4(22)", "NIST-800-53-r5:AC-24(1)", "NIST-800-53-r5:AU-9(3)", "NIST-800-53-r5:CA-9", "NIST-800-53-r5:PM-17", "NIST-800-53-r5:SC-7(4)", "NIST-800-53-r5:SC-8", "NIST-800-53-r5:SC-8(1)", "NIST-800-53-r5:SC-8(2)", "NIST-800-53-r5:SC-8(3)", "NIST-800-53-r5:SC-8(4)", "NIST-800-53-r5:SC-8(5)", "NIST-800-53-r5:SC-13", "NIST-800-53-r5:SC-23", "NIST-800-53-r5:SI-1",
		"PCI-DSS-4.0:1.2.5", "PCI-DSS-4.0:2.2.5", "PCI-DSS-4.0:2.2.7", "PCI-DSS-4.0:4.2.1", "PCI-DSS-4.0:4.2.1.1", "PCI-DSS-4.0:8.3.2",
	},
	// Prowler: opensearch_service_domains_https_communications_enforced
	"aws-opensearch-003": {
		"PCI-DSS-4.0:1.2.5", "PCI-DSS-4.0:2.2.5", "PCI-DSS-4.0:2.2.7", "PCI-DSS-4.0:4.2.1", "PCI-DSS-4.0:4.2.1.1", "PCI-DSS-4.0:8.3.2",
	},
	// Prowler: opensearch_service_domains_not_publicly_accessible
	"aws-opensearch-005": {
		"PCI-DSS-4.0:1.2.8", "PCI-DSS-4.0:1.3.1", "PCI-DSS-4.0:1.3.2", "PCI-DSS-4.0:1.4.2", "PCI-DSS-4.0:1.5.1", "PCI-DSS-4.0:A1.1.3",
	},
	// Prowler: opensearch_service_domains_audit_logging_enabled
	"aws-opensearch-006": {
		"PCI-DSS-4.0:5.3.4", "PCI-DSS-4.0:10.5.1",
	},
	// Prowler: opensearch_service_domains_access_control_enabled
	"aws-opensearch-007": {
		"PCI-DSS-4.0:7.2.1", "PCI-DSS-4.0:7.2.2", "PCI-DSS-4.0:7.2.5", "PCI-DSS-4.0:7.2.6", "PCI-DSS-4.0:7.3.1", "PCI-DSS-4.0:7.3.2", "PCI-DSS-4.0:7.3.3", "PCI-DSS-4.0:8.2.7", "PCI-DSS-4.0:8.2.8", "PCI-DSS-4.0:8.3.4", "PCI-DSS-4.0:10.6.3",
	},
	// Prowler: opensearch_service_domains_cloudwatch_logging_enabled
	"aws-opensearch-011": {
		"NIST-800-53-r5:AU-10",
		"PCI-DSS-4.0:5.3.4", "PCI-DSS-4.0:10.5.1",
	},
	// Prowler: kinesis_stream_encrypted_at_rest
	"aws-kinesis-001": {
		"PCI-DSS-4.0:3.5.1", "PCI-DSS-4.0:8.3.2",
	},
	// Prowler: kafka_cluster_in_transit_encryption_enabled
	"aws-msk-001": {
		"PCI-DSS-4.0:2.2.7", "PCI-DSS-4.0:4.2.1", "PCI-DSS-4.0:4.2.1.1", "PCI-DSS-4.0:8.3.2",
		"SOC2:CC6.7",
	},
	// Prowler: kafka_cluster_in_transit_encryption_enabled
	"aws-msk-002": {
		"PCI-DSS-4.0:2.2.7", "PCI-DSS-4.0:4.2.1", "PCI-DSS-4.0:4.2.1.1", "PCI-DSS-4.0:8.3.2",
		"SOC2:CC6.7",
	},
	// Prowler: backup_recovery_point_encrypted
	"aws-backup-004": {
		"PCI-DSS-4.0:3.5.1", "PCI-DSS-4.0:8.3.2",
	},
	// Prowler: sagemaker_notebook_instance_without_direct_internet_access_configured
	"aws-sagemaker-001": {
		"NIST-800-53-r5:AC-2(6)", "NIST-800-53-r5:AC-3", "NIST-800-53-r5:AC-3(7)", "NIST-800-53-r5:AC-4(21)", "NIST-800-53-r5:AC-6", "NIST-800-53-r5:AC-17", "NIST-800-53-r5:AC-17(1)", "NIST-800-53-r5:AC-17(4)", "NIST-800-53-r5:AC-17(9)", "NIST-800-53-r5:AC-17(10)", "NIST-800-53-r5:MP-2", "NIST-800-53-r5:SC-7", "NIST-800-53-r5:SC-7(2)", "NIST-800-53-r5:SC-7(3)", "NIST-800-53-r5:SC-7(7)", "NIST-800-53-r5:SC-7(9)", "NIST-800-53-r5:SC-7(11)", "NIST-800-53-r5:SC-7(12)", "NIST-800-53-r5:SC-7(16)", "NIST-800-53-r5:SC-7(20)", "NIST-800-53-r5:SC-7(21)", "NIST-800-53-r5:SC-7(24)", "NIST-800-53-r5:SC-7(25)", "NIST-800-53-r5:SC-7(26)", "NIST-800-53-r5:SC-7(27)", "NIST-800-53-r5:SC-7(28)", "NIST-800-53-r5:SC-25",
		"PCI-DSS-4.0:1.2.8", "PCI-DSS-4.0:1.3.1", "PCI-DSS-4.0:1.3.2", "PCI-DSS-4.0:1.4.2", "PCI-DSS-4.0:1.5.1", "PCI-DSS-4.0:3.5.1.3", "PCI-DSS-4.0:10.3.2", "PCI-DSS-4.0:A1.1.2", "PCI-DSS-4.0:A1.1.3", "PCI-DSS-4.0:A3.4.1",
	},
	// Prowler: sagemaker_notebook_instance_root_access_disabled
	"aws-sagemaker-002": {
		"PCI-DSS-4.0:7.2.1", "PCI-DSS-4.0:7.2.2", "PCI-DSS-4.0:7.2.3",
	},
	// Prowler: sagemaker_notebook_instance_encryption_enabled
	"aws-sagemaker-003": {
		"NIST-800-53-r5:AU-9(3)", "NIST-800-53-r5:CP-9", "NIST-800-53-r5:SC-8(3)", "NIST-800-53-r5:SC-8(4)", "NIST-800-53-r5:SC-13", "NIST-800-53-r5:SC-28(1)", "NIST-800-53-r5:SI-19(4)",
		"PCI-DSS-4.0:3.5.1", "PCI-DSS-4.0:8.3.2",
	},
	// Prowler: sagemaker_notebook_instance_vpc_settings_configured
	"aws-sagemaker-004": {
		"PCI-DSS-4.0:1.2.8", "PCI-DSS-4.0:1.3.1", "PCI-DSS-4.0:1.3.2", "PCI-DSS-4.0:1.4.1", "PCI-DSS-4.0:1.4.2", "PCI-DSS-4.0:1.4.4", "PCI-DSS-4.0:1.5.1", "PCI-DSS-4.0:A1.1.3",
	},
	// Prowler: athena_workgroup_encryption
	"aws-athena-001": {
		"PCI-DSS-4.0:3.5.1", "PCI-DSS-4.0:8.3.2",
	},
}

func init() {
	for id, refs := range dataFrameworkRefs {
		frameworkRefs[id] = append(frameworkRefs[id], refs...)
	}
}
