package rules

// frameworkRefs adds NIST SP 800-53 rev. 5, PCI DSS v4.0 and SOC 2 references
// to the rules named. They are Prowler's mappings of the equivalent Prowler
// check(s), named in the comment of each entry, as published in
// prowler-cloud/prowler@3e000faa31 prowler/compliance/aws/nist_800_53_revision_5_aws.json,
// pci_4.0_aws.json and soc2_aws.json: a control listed there for that check
// is listed here for the rule (NIST statement items such as AC-2(d)(1) folded
// into their control, PCI sub-items into their requirement). CIS references
// stay on the rules themselves. loadPack appends these to Rule.Compliance.
var frameworkRefs = map[string][]string{
	// Prowler: cloudtrail_multi_region_enabled
	"aws-account-001": {
		"NIST-800-53-r5:AC-2(4)", "NIST-800-53-r5:AC-3(1)", "NIST-800-53-r5:AC-3(10)", "NIST-800-53-r5:AC-4(26)", "NIST-800-53-r5:AC-6(9)", "NIST-800-53-r5:AU-2", "NIST-800-53-r5:AU-3", "NIST-800-53-r5:AU-3(1)", "NIST-800-53-r5:AU-6(3)", "NIST-800-53-r5:AU-6(4)", "NIST-800-53-r5:AU-6(6)", "NIST-800-53-r5:AU-6(9)", "NIST-800-53-r5:AU-8", "NIST-800-53-r5:AU-10", "NIST-800-53-r5:AU-12", "NIST-800-53-r5:AU-12(1)", "NIST-800-53-r5:AU-12(2)", "NIST-800-53-r5:AU-12(3)", "NIST-800-53-r5:AU-12(4)", "NIST-800-53-r5:AU-14", "NIST-800-53-r5:AU-14(3)", "NIST-800-53-r5:CA-7", "NIST-800-53-r5:CM-5(1)", "NIST-800-53-r5:CM-6", "NIST-800-53-r5:CM-9", "NIST-800-53-r5:IA-3(3)", "NIST-800-53-r5:MA-4(1)", "NIST-800-53-r5:PM-14", "NIST-800-53-r5:PM-31", "NIST-800-53-r5:SC-7(9)", "NIST-800-53-r5:SI-1", "NIST-800-53-r5:SI-3(8)", "NIST-800-53-r5:SI-4(2)", "NIST-800-53-r5:SI-4(17)", "NIST-800-53-r5:SI-4(20)", "NIST-800-53-r5:SI-7(8)", "NIST-800-53-r5:SI-10(1)",
		"PCI-DSS-4.0:5.3.4", "PCI-DSS-4.0:10.2.1", "PCI-DSS-4.0:10.2.1.1", "PCI-DSS-4.0:10.2.1.2", "PCI-DSS-4.0:10.2.1.3", "PCI-DSS-4.0:10.2.1.4", "PCI-DSS-4.0:10.2.1.5", "PCI-DSS-4.0:10.2.1.6", "PCI-DSS-4.0:10.2.1.7", "PCI-DSS-4.0:10.2.2", "PCI-DSS-4.0:10.3.1", "PCI-DSS-4.0:10.6.3", "PCI-DSS-4.0:A1.2.1",
		"SOC2:CC2.1", "SOC2:CC7.2", "SOC2:A1.2", "SOC2:PI1.3",
	},
	// Prowler: config_recorder_all_regions_enabled
	"aws-account-002": {
		"SOC2:CC2.1", "SOC2:CC3.1", "SOC2:CC3.4", "SOC2:CC8.1", "SOC2:PI1.3",
	},
	// Prowler: guardduty_is_enabled
	"aws-account-003": {
		"NIST-800-53-r5:AC-2(12)", "NIST-800-53-r5:AC-3(12)", "NIST-800-53-r5:AU-3(1)", "NIST-800-53-r5:AU-6(1)", "NIST-800-53-r5:AU-6(5)", "NIST-800-53-r5:AU-12(3)", "NIST-800-53-r5:AU-14", "NIST-800-53-r5:CA-2", "NIST-800-53-r5:CA-7", "NIST-800-53-r5:CM-8(3)", "NIST-800-53-r5:PE-6(2)", "NIST-800-53-r5:PE-6(4)", "NIST-800-53-r5:PM-14", "NIST-800-53-r5:PM-16", "NIST-800-53-r5:PM-31", "NIST-800-53-r5:RA-1", "NIST-800-53-r5:RA-3", "NIST-800-53-r5:RA-3(4)", "NIST-800-53-r5:RA-5", "NIST-800-53-r5:RA-5(4)", "NIST-800-53-r5:RA-10", "NIST-800-53-r5:SC-5", "NIST-800-53-r5:SC-5(1)", "NIST-800-53-r5:SC-5(3)", "NIST-800-53-r5:SC-43", "NIST-800-53-r5:SI-3(8)", "NIST-800-53-r5:SI-4", "NIST-800-53-r5:SI-4(1)", "NIST-800-53-r5:SI-4(2)", "NIST-800-53-r5:SI-4(3)", "NIST-800-53-r5:SI-4(4)", "NIST-800-53-r5:SI-4(10)", "NIST-800-53-r5:SI-4(13)", "NIST-800-53-r5:SI-4(14)", "NIST-800-53-r5:SI-4(23)", "NIST-800-53-r5:SI-4(25)", "NIST-800-53-r5:SI-5", "NIST-800-53-r5:SI-5(1)",
		"PCI-DSS-4.0:11.5.1", "PCI-DSS-4.0:11.5.1.1",
		"SOC2:CC3.1", "SOC2:CC3.2", "SOC2:CC4.2", "SOC2:CC6.8", "SOC2:CC7.1", "SOC2:CC7.2", "SOC2:CC7.3", "SOC2:CC7.4",
	},
	// Prowler: cloudfront_distributions_https_enabled
	"aws-cloudfront-001": {
		"PCI-DSS-4.0:1.2.5", "PCI-DSS-4.0:2.2.5", "PCI-DSS-4.0:2.2.7", "PCI-DSS-4.0:4.2.1", "PCI-DSS-4.0:4.2.1.1", "PCI-DSS-4.0:8.3.2",
	},
	// Prowler: cloudfront_distributions_using_deprecated_ssl_protocols
	"aws-cloudfront-002": {
		"PCI-DSS-4.0:1.2.5", "PCI-DSS-4.0:2.2.5", "PCI-DSS-4.0:2.2.7", "PCI-DSS-4.0:4.2.1", "PCI-DSS-4.0:4.2.1.1", "PCI-DSS-4.0:8.3.2",
	},
	// Prowler: cloudfront_distributions_logging_enabled
	"aws-cloudfront-003": {
		"PCI-DSS-4.0:5.3.4", "PCI-DSS-4.0:10.2.1", "PCI-DSS-4.0:10.2.1.1", "PCI-DSS-4.0:10.2.1.2", "PCI-DSS-4.0:10.2.1.3", "PCI-DSS-4.0:10.2.1.4", "PCI-DSS-4.0:10.2.1.5", "PCI-DSS-4.0:10.2.1.6", "PCI-DSS-4.0:10.2.1.7", "PCI-DSS-4.0:10.2.2", "PCI-DSS-4.0:10.3.1", "PCI-DSS-4.0:10.6.3", "PCI-DSS-4.0:A1.2.1",
		"SOC2:A1.2", "SOC2:PI1.2",
	},
	// Prowler: cloudtrail_multi_region_enabled
	"aws-cloudtrail-001": {
		"NIST-800-53-r5:AC-2(4)", "NIST-800-53-r5:AC-3(1)", "NIST-800-53-r5:AC-3(10)", "NIST-800-53-r5:AC-4(26)", "NIST-800-53-r5:AC-6(9)", "NIST-800-53-r5:AU-2", "NIST-800-53-r5:AU-3", "NIST-800-53-r5:AU-3(1)", "NIST-800-53-r5:AU-6(3)", "NIST-800-53-r5:AU-6(4)", "NIST-800-53-r5:AU-6(6)", "NIST-800-53-r5:AU-6(9)", "NIST-800-53-r5:AU-8", "NIST-800-53-r5:AU-10", "NIST-800-53-r5:AU-12", "NIST-800-53-r5:AU-12(1)", "NIST-800-53-r5:AU-12(2)", "NIST-800-53-r5:AU-12(3)", "NIST-800-53-r5:AU-12(4)", "NIST-800-53-r5:AU-14", "NIST-800-53-r5:AU-14(3)", "NIST-800-53-r5:CA-7", "NIST-800-53-r5:CM-5(1)", "NIST-800-53-r5:CM-6", "NIST-800-53-r5:CM-9", "NIST-800-53-r5:IA-3(3)", "NIST-800-53-r5:MA-4(1)", "NIST-800-53-r5:PM-14", "NIST-800-53-r5:PM-31", "NIST-800-53-r5:SC-7(9)", "NIST-800-53-r5:SI-1", "NIST-800-53-r5:SI-3(8)", "NIST-800-53-r5:SI-4(2)", "NIST-800-53-r5:SI-4(17)", "NIST-800-53-r5:SI-4(20)", "NIST-800-53-r5:SI-7(8)", "NIST-800-53-r5:SI-10(1)",
		"PCI-DSS-4.0:5.3.4", "PCI-DSS-4.0:10.2.1", "PCI-DSS-4.0:10.2.1.1", "PCI-DSS-4.0:10.2.1.2", "PCI-DSS-4.0:10.2.1.3", "PCI-DSS-4.0:10.2.1.4", "PCI-DSS-4.0:10.2.1.5", "PCI-DSS-4.0:10.2.1.6", "PCI-DSS-4.0:10.2.1.7", "PCI-DSS-4.0:10.2.2", "PCI-DSS-4.0:10.3.1", "PCI-DSS-4.0:10.6.3", "PCI-DSS-4.0:A1.2.1",
		"SOC2:CC2.1", "SOC2:CC7.2", "SOC2:A1.2", "SOC2:PI1.3",
	},
	// Prowler: cloudtrail_log_file_validation_enabled
	"aws-cloudtrail-002": {
		"NIST-800-53-r5:AU-9", "NIST-800-53-r5:CM-6", "NIST-800-53-r5:CM-9", "NIST-800-53-r5:PM-11", "NIST-800-53-r5:PM-17", "NIST-800-53-r5:SA-1", "NIST-800-53-r5:SA-10(1)", "NIST-800-53-r5:SC-16(1)", "NIST-800-53-r5:SI-1", "NIST-800-53-r5:SI-4", "NIST-800-53-r5:SI-7", "NIST-800-53-r5:SI-7(1)", "NIST-800-53-r5:SI-7(3)", "NIST-800-53-r5:SI-7(7)",
		"PCI-DSS-4.0:10.3.2", "PCI-DSS-4.0:10.3.3", "PCI-DSS-4.0:10.3.4", "PCI-DSS-4.0:A1.2.1",
		"SOC2:CC7.3", "SOC2:PI1.3",
	},
	// Prowler: cloudtrail_kms_encryption_enabled
	"aws-cloudtrail-003": {
		"NIST-800-53-r5:AU-9(3)", "NIST-800-53-r5:CM-6", "NIST-800-53-r5:CM-9", "NIST-800-53-r5:CP-9", "NIST-800-53-r5:SC-8(3)", "NIST-800-53-r5:SC-8(4)", "NIST-800-53-r5:SC-13", "NIST-800-53-r5:SC-28(1)", "NIST-800-53-r5:SI-19(4)",
		"PCI-DSS-4.0:3.5.1", "PCI-DSS-4.0:8.3.2", "PCI-DSS-4.0:10.3.2", "PCI-DSS-4.0:10.3.3", "PCI-DSS-4.0:10.3.4", "PCI-DSS-4.0:A1.2.1",
	},
	// Prowler: cloudtrail_cloudwatch_logging_enabled
	"aws-cloudtrail-004": {
		"NIST-800-53-r5:AC-2(4)", "NIST-800-53-r5:AC-3(1)", "NIST-800-53-r5:AC-3(10)", "NIST-800-53-r5:AC-4(26)", "NIST-800-53-r5:AC-6(9)", "NIST-800-53-r5:AU-2", "NIST-800-53-r5:AU-3", "NIST-800-53-r5:AU-4(1)", "NIST-800-53-r5:AU-6(1)", "NIST-800-53-r5:AU-6(3)", "NIST-800-53-r5:AU-6(4)", "NIST-800-53-r5:AU-6(5)", "NIST-800-53-r5:AU-6(6)", "NIST-800-53-r5:AU-6(9)", "NIST-800-53-r5:AU-7(1)", "NIST-800-53-r5:AU-8", "NIST-800-53-r5:AU-9(7)", "NIST-800-53-r5:AU-10", "NIST-800-53-r5:AU-12", "NIST-800-53-r5:AU-12(1)", "NIST-800-53-r5:AU-12(2)", "NIST-800-53-r5:AU-12(3)", "NIST-800-53-r5:AU-12(4)", "NIST-800-53-r5:AU-14", "NIST-800-53-r5:AU-14(3)", "NIST-800-53-r5:AU-16", "NIST-800-53-r5:CA-7", "NIST-800-53-r5:CM-5(1)", "NIST-800-53-r5:CM-6", "NIST-800-53-r5:CM-9", "NIST-800-53-r5:IA-3(3)", "NIST-800-53-r5:MA-4(1)", "NIST-800-53-r5:PM-14", "NIST-800-53-r5:PM-31", "NIST-800-53-r5:SC-7(9)", "NIST-800-53-r5:SI-1", "NIST-800-53-r5:SI-3(8)", "NIST-800-53-r5:SI-4(2)", "NIST-800-53-r5:SI-4(17)", "NIST-800-53-r5:SI-4(20)", "NIST-800-53-r5:SI-7(8)", "NIST-800-53-r5:SI-10(1)",
		"PCI-DSS-4.0:5.3.4", "PCI-DSS-4.0:10.2.1", "PCI-DSS-4.0:10.2.1.1", "PCI-DSS-4.0:10.2.1.2", "PCI-DSS-4.0:10.2.1.3", "PCI-DSS-4.0:10.2.1.4", "PCI-DSS-4.0:10.2.1.5", "PCI-DSS-4.0:10.2.1.6", "PCI-DSS-4.0:10.2.1.7", "PCI-DSS-4.0:10.2.2", "PCI-DSS-4.0:10.3.1", "PCI-DSS-4.0:10.4.1.1", "PCI-DSS-4.0:10.6.3", "PCI-DSS-4.0:11.5.2", "PCI-DSS-4.0:11.6.1", "PCI-DSS-4.0:12.10.5", "PCI-DSS-4.0:A1.2.1", "PCI-DSS-4.0:A3.3.1", "PCI-DSS-4.0:A3.5.1",
		"SOC2:CC7.2", "SOC2:CC7.3", "SOC2:A1.2", "SOC2:PI1.3",
	},
	// Prowler: cloudtrail_s3_dataevents_read_enabled, cloudtrail_s3_dataevents_write_enabled
	"aws-cloudtrail-005": {
		"NIST-800-53-r5:AC-2(4)", "NIST-800-53-r5:AC-3(1)", "NIST-800-53-r5:AC-3(10)", "NIST-800-53-r5:AC-4(26)", "NIST-800-53-r5:AC-6(9)", "NIST-800-53-r5:AU-2", "NIST-800-53-r5:AU-3", "NIST-800-53-r5:AU-6(3)", "NIST-800-53-r5:AU-6(4)", "NIST-800-53-r5:AU-6(6)", "NIST-800-53-r5:AU-6(9)", "NIST-800-53-r5:AU-8", "NIST-800-53-r5:AU-10", "NIST-800-53-r5:AU-12", "NIST-800-53-r5:AU-12(1)", "NIST-800-53-r5:AU-12(2)", "NIST-800-53-r5:AU-12(3)", "NIST-800-53-r5:AU-12(4)", "NIST-800-53-r5:AU-14", "NIST-800-53-r5:AU-14(3)", "NIST-800-53-r5:CA-7", "NIST-800-53-r5:CM-5(1)", "NIST-800-53-r5:CM-6", "NIST-800-53-r5:CM-9", "NIST-800-53-r5:IA-3(3)", "NIST-800-53-r5:MA-4(1)", "NIST-800-53-r5:PM-14", "NIST-800-53-r5:PM-31", "NIST-800-53-r5:SC-7(9)", "NIST-800-53-r5:SI-1", "NIST-800-53-r5:SI-3(8)", "NIST-800-53-r5:SI-4(2)", "NIST-800-53-r5:SI-4(17)", "NIST-800-53-r5:SI-4(20)", "NIST-800-53-r5:SI-7(8)", "NIST-800-53-r5:SI-10(1)",
		"PCI-DSS-4.0:5.3.4", "PCI-DSS-4.0:10.2.1", "PCI-DSS-4.0:10.2.1.1", "PCI-DSS-4.0:10.2.1.2", "PCI-DSS-4.0:10.2.1.3", "PCI-DSS-4.0:10.2.1.4", "PCI-DSS-4.0:10.2.1.5", "PCI-DSS-4.0:10.2.1.6", "PCI-DSS-4.0:10.2.1.7", "PCI-DSS-4.0:10.2.2", "PCI-DSS-4.0:10.3.1", "PCI-DSS-4.0:10.6.3", "PCI-DSS-4.0:A1.2.1",
		"SOC2:CC2.1", "SOC2:CC7.2", "SOC2:PI1.2",
	},
	// Prowler: config_recorder_all_regions_enabled
	"aws-config-001": {
		"SOC2:CC2.1", "SOC2:CC3.1", "SOC2:CC3.4", "SOC2:CC8.1", "SOC2:PI1.3",
	},
	// Prowler: dynamodb_tables_pitr_enabled
	"aws-dynamodb-002": {
		"NIST-800-53-r5:CP-1", "NIST-800-53-r5:CP-2(5)", "NIST-800-53-r5:CP-6(2)", "NIST-800-53-r5:CP-9", "NIST-800-53-r5:CP-10", "NIST-800-53-r5:CP-10(2)", "NIST-800-53-r5:SC-5(2)", "NIST-800-53-r5:SI-13(5)",
		"PCI-DSS-4.0:3.2.1", "PCI-DSS-4.0:3.3.1.1", "PCI-DSS-4.0:3.3.1.3", "PCI-DSS-4.0:3.3.2", "PCI-DSS-4.0:3.3.3", "PCI-DSS-4.0:10.3.3", "PCI-DSS-4.0:10.5.1",
		"SOC2:CC7.4", "SOC2:A1.2",
	},
	// Prowler: ec2_ebs_volume_encryption
	"aws-ebs-001": {
		"NIST-800-53-r5:AU-9(3)", "NIST-800-53-r5:CM-6", "NIST-800-53-r5:CM-9", "NIST-800-53-r5:CP-9", "NIST-800-53-r5:SC-8(3)", "NIST-800-53-r5:SC-8(4)", "NIST-800-53-r5:SC-13", "NIST-800-53-r5:SC-28(1)", "NIST-800-53-r5:SI-19(4)",
		"PCI-DSS-4.0:3.5.1", "PCI-DSS-4.0:8.3.2",
		"SOC2:PI1.5",
	},
	// Prowler: ec2_ebs_public_snapshot
	"aws-ebs-002": {
		"NIST-800-53-r5:AC-2(6)", "NIST-800-53-r5:AC-3", "NIST-800-53-r5:AC-3(7)", "NIST-800-53-r5:AC-4(21)", "NIST-800-53-r5:AC-6", "NIST-800-53-r5:AC-17", "NIST-800-53-r5:AC-17(1)", "NIST-800-53-r5:AC-17(4)", "NIST-800-53-r5:AC-17(9)", "NIST-800-53-r5:AC-17(10)", "NIST-800-53-r5:MP-2", "NIST-800-53-r5:SC-7", "NIST-800-53-r5:SC-7(2)", "NIST-800-53-r5:SC-7(3)", "NIST-800-53-r5:SC-7(7)", "NIST-800-53-r5:SC-7(9)", "NIST-800-53-r5:SC-7(11)", "NIST-800-53-r5:SC-7(12)", "NIST-800-53-r5:SC-7(16)", "NIST-800-53-r5:SC-7(20)", "NIST-800-53-r5:SC-7(21)", "NIST-800-53-r5:SC-7(24)", "NIST-800-53-r5:SC-7(25)", "NIST-800-53-r5:SC-7(26)", "NIST-800-53-r5:SC-7(27)", "NIST-800-53-r5:SC-7(28)", "NIST-800-53-r5:SC-25",
		"SOC2:CC6.6",
	},
	// Prowler: ec2_ebs_snapshots_encrypted
	"aws-ebs-003": {
		"PCI-DSS-4.0:3.5.1", "PCI-DSS-4.0:8.3.2",
		"SOC2:CC7.5",
	},
	// Prowler: ec2_securitygroup_allow_ingress_from_internet_to_tcp_port_22
	"aws-ec2-001": {
		"NIST-800-53-r5:AC-17", "NIST-800-53-r5:AC-17(1)", "NIST-800-53-r5:AC-17(9)", "NIST-800-53-r5:AC-17(10)", "NIST-800-53-r5:CM-9", "NIST-800-53-r5:SC-7", "NIST-800-53-r5:SC-7(7)", "NIST-800-53-r5:SC-7(11)", "NIST-800-53-r5:SC-7(12)", "NIST-800-53-r5:SC-7(16)", "NIST-800-53-r5:SC-7(21)", "NIST-800-53-r5:SC-7(24)", "NIST-800-53-r5:SC-7(25)", "NIST-800-53-r5:SC-7(26)", "NIST-800-53-r5:SC-7(27)", "NIST-800-53-r5:SC-7(28)",
		"PCI-DSS-4.0:1.2.8", "PCI-DSS-4.0:1.3.1", "PCI-DSS-4.0:1.3.2", "PCI-DSS-4.0:1.4.2", "PCI-DSS-4.0:1.5.1", "PCI-DSS-4.0:A1.1.3",
		"SOC2:CC6.6", "SOC2:CC7.2",
	},
	// Prowler: ec2_securitygroup_allow_ingress_from_internet_to_tcp_port_3389
	"aws-ec2-002": {
		"SOC2:CC6.6",
	},
	// Prowler: ec2_securitygroup_allow_ingress_from_internet_to_tcp_port_22, ec2_securitygroup_allow_ingress_from_internet_to_tcp_port_3389
	"aws-ec2-003": {
		"NIST-800-53-r5:AC-17", "NIST-800-53-r5:AC-17(1)", "NIST-800-53-r5:AC-17(9)", "NIST-800-53-r5:AC-17(10)", "NIST-800-53-r5:CM-9", "NIST-800-53-r5:SC-7", "NIST-800-53-r5:SC-7(7)", "NIST-800-53-r5:SC-7(11)", "NIST-800-53-r5:SC-7(12)", "NIST-800-53-r5:SC-7(16)", "NIST-800-53-r5:SC-7(21)", "NIST-800-53-r5:SC-7(24)", "NIST-800-53-r5:SC-7(25)", "NIST-800-53-r5:SC-7(26)", "NIST-800-53-r5:SC-7(27)", "NIST-800-53-r5:SC-7(28)",
		"PCI-DSS-4.0:1.2.8", "PCI-DSS-4.0:1.3.1", "PCI-DSS-4.0:1.3.2", "PCI-DSS-4.0:1.4.2", "PCI-DSS-4.0:1.5.1", "PCI-DSS-4.0:A1.1.3",
		"SOC2:CC6.6", "SOC2:CC7.2",
	},
	// Prowler: ec2_securitygroup_allow_ingress_from_internet_to_all_ports
	"aws-ec2-004": {
		"SOC2:CC6.6",
	},
	// Prowler: ec2_securitygroup_allow_ingress_from_internet_to_tcp_port_mysql_3306, ec2_securitygroup_allow_ingress_from_internet_to_tcp_port_postgres_5432, ec2_securitygroup_allow_ingress_from_internet_to_tcp_port_sql_server_1433_1434, ec2_securitygroup_allow_ingress_from_internet_to_tcp_port_oracle_1521_2483, ec2_securitygroup_allow_ingress_from_internet_to_tcp_port_redis_6379, ec2_securitygroup_allow_ingress_from_internet_to_tcp_port_mongodb_27017_27018, ec2_securitygroup_allow_ingress_from_internet_to_tcp_port_memcached_11211, ec2_securitygroup_allow_ingress_from_internet_to_tcp_port_elasticsearch_kibana_9200_9300_5601
	"aws-ec2-005": {
		"SOC2:CC6.6",
	},
	// Prowler: ec2_securitygroup_default_restrict_traffic
	"aws-ec2-006": {
		"NIST-800-53-r5:AC-4(21)", "NIST-800-53-r5:AC-17", "NIST-800-53-r5:AC-17(1)", "NIST-800-53-r5:AC-17(4)", "NIST-800-53-r5:AC-17(9)", "NIST-800-53-r5:AC-17(10)", "NIST-800-53-r5:CM-6", "NIST-800-53-r5:CM-9", "NIST-800-53-r5:SC-7", "NIST-800-53-r5:SC-7(5)", "NIST-800-53-r5:SC-7(7)", "NIST-800-53-r5:SC-7(11)", "NIST-800-53-r5:SC-7(12)", "NIST-800-53-r5:SC-7(16)", "NIST-800-53-r5:SC-7(21)", "NIST-800-53-r5:SC-7(24)", "NIST-800-53-r5:SC-7(25)", "NIST-800-53-r5:SC-7(26)", "NIST-800-53-r5:SC-7(27)", "NIST-800-53-r5:SC-7(28)",
	},
	// Prowler: ec2_instance_imdsv2_enabled
	"aws-ec2-007": {
		"NIST-800-53-r5:AC-2(6)", "NIST-800-53-r5:AC-3", "NIST-800-53-r5:AC-3(3)", "NIST-800-53-r5:AC-3(4)", "NIST-800-53-r5:AC-3(7)", "NIST-800-53-r5:AC-3(8)", "NIST-800-53-r5:AC-3(12)", "NIST-800-53-r5:AC-3(13)", "NIST-800-53-r5:AC-3(15)", "NIST-800-53-r5:AC-4(28)", "NIST-800-53-r5:AC-6", "NIST-800-53-r5:AC-24", "NIST-800-53-r5:CM-5(1)", "NIST-800-53-r5:MP-2", "NIST-800-53-r5:SC-23(3)",
		"PCI-DSS-4.0:8.2.8",
		"SOC2:CC7.2",
	},
	// Prowler: ec2_instance_public_ip
	"aws-ec2-008": {
		"NIST-800-53-r5:AC-2(6)", "NIST-800-53-r5:AC-3", "NIST-800-53-r5:AC-3(7)", "NIST-800-53-r5:AC-4(21)", "NIST-800-53-r5:AC-6", "NIST-800-53-r5:AC-17", "NIST-800-53-r5:AC-17(1)", "NIST-800-53-r5:AC-17(4)", "NIST-800-53-r5:AC-17(9)", "NIST-800-53-r5:AC-17(10)", "NIST-800-53-r5:MP-2", "NIST-800-53-r5:SC-7", "NIST-800-53-r5:SC-7(2)", "NIST-800-53-r5:SC-7(3)", "NIST-800-53-r5:SC-7(7)", "NIST-800-53-r5:SC-7(9)", "NIST-800-53-r5:SC-7(11)", "NIST-800-53-r5:SC-7(12)", "NIST-800-53-r5:SC-7(16)", "NIST-800-53-r5:SC-7(20)", "NIST-800-53-r5:SC-7(21)", "NIST-800-53-r5:SC-7(24)", "NIST-800-53-r5:SC-7(25)", "NIST-800-53-r5:SC-7(26)", "NIST-800-53-r5:SC-7(27)", "NIST-800-53-r5:SC-7(28)", "NIST-800-53-r5:SC-25",
		"SOC2:CC6.6",
	},
	// Prowler: efs_have_backup_enabled
	"aws-efs-002": {
		"NIST-800-53-r5:CP-1", "NIST-800-53-r5:CP-2(5)", "NIST-800-53-r5:CP-6", "NIST-800-53-r5:CP-6(1)", "NIST-800-53-r5:CP-6(2)", "NIST-800-53-r5:CP-9", "NIST-800-53-r5:CP-10", "NIST-800-53-r5:CP-10(2)", "NIST-800-53-r5:SC-5(2)", "NIST-800-53-r5:SI-13(5)",
		"PCI-DSS-4.0:10.3.3",
		"SOC2:CC7.4", "SOC2:A1.2",
	},
	// Prowler: efs_encryption_at_rest_enabled
	"aws-efs-003": {
		"NIST-800-53-r5:AU-9(3)", "NIST-800-53-r5:CP-9", "NIST-800-53-r5:SC-8(3)", "NIST-800-53-r5:SC-8(4)", "NIST-800-53-r5:SC-13", "NIST-800-53-r5:SC-28(1)", "NIST-800-53-r5:SI-19(4)",
		"PCI-DSS-4.0:3.5.1", "PCI-DSS-4.0:8.3.2",
	},
	// Prowler: elasticache_redis_cluster_in_transit_encryption_enabled
	"aws-elasticache-001": {
		"PCI-DSS-4.0:2.2.7", "PCI-DSS-4.0:4.2.1", "PCI-DSS-4.0:4.2.1.1", "PCI-DSS-4.0:8.3.2",
		"SOC2:CC6.7",
	},
	// Prowler: elasticache_redis_cluster_backup_enabled
	"aws-elasticache-004": {
		"PCI-DSS-4.0:10.3.3",
	},
	// Prowler: elasticache_redis_cluster_rest_encryption_enabled
	"aws-elasticache-005": {
		"PCI-DSS-4.0:3.5.1", "PCI-DSS-4.0:8.3.2",
	},
	// Prowler: elbv2_deletion_protection
	"aws-elb-002": {
		"NIST-800-53-r5:CA-7(4)", "NIST-800-53-r5:CM-2", "NIST-800-53-r5:CM-2(2)", "NIST-800-53-r5:CM-3", "NIST-800-53-r5:CM-8(6)", "NIST-800-53-r5:CP-1", "NIST-800-53-r5:CP-2", "NIST-800-53-r5:CP-2(5)", "NIST-800-53-r5:SA-15", "NIST-800-53-r5:SC-5(2)", "NIST-800-53-r5:SC-22",
	},
	// Prowler: elbv2_logging_enabled
	"aws-elb-004": {
		"NIST-800-53-r5:AC-4(26)", "NIST-800-53-r5:AU-2", "NIST-800-53-r5:AU-3", "NIST-800-53-r5:AU-6(3)", "NIST-800-53-r5:AU-6(4)", "NIST-800-53-r5:AU-6(6)", "NIST-800-53-r5:AU-6(9)", "NIST-800-53-r5:AU-8", "NIST-800-53-r5:AU-10", "NIST-800-53-r5:AU-12", "NIST-800-53-r5:AU-12(1)", "NIST-800-53-r5:AU-12(2)", "NIST-800-53-r5:AU-12(3)", "NIST-800-53-r5:AU-12(4)", "NIST-800-53-r5:AU-14", "NIST-800-53-r5:AU-14(3)", "NIST-800-53-r5:CA-7", "NIST-800-53-r5:CM-5(1)", "NIST-800-53-r5:IA-3(3)", "NIST-800-53-r5:MA-4(1)", "NIST-800-53-r5:PM-14", "NIST-800-53-r5:PM-31", "NIST-800-53-r5:SC-7(9)", "NIST-800-53-r5:SI-4(17)", "NIST-800-53-r5:SI-7(8)",
		"SOC2:CC7.2", "SOC2:CC7.3", "SOC2:A1.2", "SOC2:PI1.2",
	},
	// Prowler: iam_user_mfa_enabled_console_access
	"aws-iam-001": {
		"NIST-800-53-r5:AC-2(1)", "NIST-800-53-r5:AC-3(2)", "NIST-800-53-r5:AC-3(3)", "NIST-800-53-r5:AC-3(4)", "NIST-800-53-r5:AC-3(8)", "NIST-800-53-r5:AC-3(12)", "NIST-800-53-r5:AC-3(13)", "NIST-800-53-r5:AC-3(15)", "NIST-800-53-r5:AC-4(28)", "NIST-800-53-r5:AC-7(4)", "NIST-800-53-r5:AC-24", "NIST-800-53-r5:CM-5(1)", "NIST-800-53-r5:CM-6", "NIST-800-53-r5:CM-9", "NIST-800-53-r5:IA-2(1)", "NIST-800-53-r5:IA-2(2)", "NIST-800-53-r5:IA-2(6)", "NIST-800-53-r5:IA-2(8)", "NIST-800-53-r5:SC-23(3)",
		"PCI-DSS-4.0:8.4.1", "PCI-DSS-4.0:8.4.2", "PCI-DSS-4.0:8.4.3",
	},
	// Prowler: iam_rotate_access_key_90_days
	"aws-iam-002": {
		"NIST-800-53-r5:AC-2(1)", "NIST-800-53-r5:AC-3(3)", "NIST-800-53-r5:AC-3(4)", "NIST-800-53-r5:AC-3(8)", "NIST-800-53-r5:AC-3(12)", "NIST-800-53-r5:AC-3(13)", "NIST-800-53-r5:AC-3(15)", "NIST-800-53-r5:AC-4(28)", "NIST-800-53-r5:AC-24", "NIST-800-53-r5:CM-5(1)", "NIST-800-53-r5:CM-6", "NIST-800-53-r5:CM-9", "NIST-800-53-r5:SC-23(3)",
		"PCI-DSS-4.0:8.3.5", "PCI-DSS-4.0:8.3.7", "PCI-DSS-4.0:8.3.9", "PCI-DSS-4.0:8.3.10.1", "PCI-DSS-4.0:8.6.3",
	},
	// Prowler: iam_user_accesskey_unused
	"aws-iam-003": {
		"NIST-800-53-r5:AC-2", "NIST-800-53-r5:AC-2(1)", "NIST-800-53-r5:AC-2(3)", "NIST-800-53-r5:AC-2(6)", "NIST-800-53-r5:AC-3", "NIST-800-53-r5:AC-3(3)", "NIST-800-53-r5:AC-3(4)", "NIST-800-53-r5:AC-3(7)", "NIST-800-53-r5:AC-3(8)", "NIST-800-53-r5:AC-3(12)", "NIST-800-53-r5:AC-3(13)", "NIST-800-53-r5:AC-3(15)", "NIST-800-53-r5:AC-4(28)", "NIST-800-53-r5:AC-6", "NIST-800-53-r5:AC-24", "NIST-800-53-r5:CM-5(1)", "NIST-800-53-r5:CM-6", "NIST-800-53-r5:CM-9", "NIST-800-53-r5:MP-2", "NIST-800-53-r5:SC-23(3)",
		"PCI-DSS-4.0:7.2.4", "PCI-DSS-4.0:7.2.5.1", "PCI-DSS-4.0:8.2.6", "PCI-DSS-4.0:A3.4.1",
		"SOC2:CC1.3",
	},
	// Prowler: iam_no_root_access_key
	"aws-iam-004": {
		"NIST-800-53-r5:AC-2(1)", "NIST-800-53-r5:AC-2(6)", "NIST-800-53-r5:AC-3(3)", "NIST-800-53-r5:AC-3(4)", "NIST-800-53-r5:AC-3(7)", "NIST-800-53-r5:AC-3(8)", "NIST-800-53-r5:AC-3(12)", "NIST-800-53-r5:AC-3(13)", "NIST-800-53-r5:AC-3(15)", "NIST-800-53-r5:AC-4(28)", "NIST-800-53-r5:AC-6", "NIST-800-53-r5:AC-6(2)", "NIST-800-53-r5:AC-6(10)", "NIST-800-53-r5:AC-24", "NIST-800-53-r5:CM-5(1)", "NIST-800-53-r5:CM-6", "NIST-800-53-r5:CM-9", "NIST-800-53-r5:IA-2", "NIST-800-53-r5:IA-4", "NIST-800-53-r5:IA-4(4)", "NIST-800-53-r5:IA-4(8)", "NIST-800-53-r5:IA-5(8)", "NIST-800-53-r5:MP-2", "NIST-800-53-r5:SC-23(3)", "NIST-800-53-r5:SC-25",
		"PCI-DSS-4.0:7.2.1", "PCI-DSS-4.0:7.2.2", "PCI-DSS-4.0:7.2.3", "PCI-DSS-4.0:8.2.1", "PCI-DSS-4.0:8.2.2", "PCI-DSS-4.0:8.2.4", "PCI-DSS-4.0:8.2.5", "PCI-DSS-4.0:8.3.11",
	},
	// Prowler: iam_root_mfa_enabled
	"aws-iam-005": {
		"NIST-800-53-r5:AC-2(1)", "NIST-800-53-r5:AC-3(2)", "NIST-800-53-r5:AC-3(3)", "NIST-800-53-r5:AC-3(4)", "NIST-800-53-r5:AC-3(8)", "NIST-800-53-r5:AC-3(12)", "NIST-800-53-r5:AC-3(13)", "NIST-800-53-r5:AC-3(15)", "NIST-800-53-r5:AC-4(28)", "NIST-800-53-r5:AC-7(4)", "NIST-800-53-r5:AC-24", "NIST-800-53-r5:CM-6", "NIST-800-53-r5:CM-9", "NIST-800-53-r5:IA-2(1)", "NIST-800-53-r5:IA-2(2)", "NIST-800-53-r5:IA-2(6)", "NIST-800-53-r5:IA-2(8)", "NIST-800-53-r5:SC-23(3)",
		"PCI-DSS-4.0:8.4.1", "PCI-DSS-4.0:8.4.2", "PCI-DSS-4.0:8.4.3",
	},
	// Prowler: iam_aws_attached_policy_no_administrative_privileges, iam_inline_policy_no_administrative_privileges
	"aws-iam-006": {
		"NIST-800-53-r5:AC-2", "NIST-800-53-r5:AC-2(1)", "NIST-800-53-r5:AC-2(6)", "NIST-800-53-r5:AC-3", "NIST-800-53-r5:AC-3(3)", "NIST-800-53-r5:AC-3(4)", "NIST-800-53-r5:AC-3(7)", "NIST-800-53-r5:AC-3(8)", "NIST-800-53-r5:AC-3(12)", "NIST-800-53-r5:AC-3(13)", "NIST-800-53-r5:AC-3(15)", "NIST-800-53-r5:AC-4(28)", "NIST-800-53-r5:AC-5", "NIST-800-53-r5:AC-6", "NIST-800-53-r5:AC-6(2)", "NIST-800-53-r5:AC-6(3)", "NIST-800-53-r5:AC-6(10)", "NIST-800-53-r5:AC-24", "NIST-800-53-r5:CM-5(1)", "NIST-800-53-r5:CM-6", "NIST-800-53-r5:CM-9", "NIST-800-53-r5:MP-2", "NIST-800-53-r5:SC-23(3)", "NIST-800-53-r5:SC-25",
		"SOC2:CC1.3", "SOC2:CC6.3",
	},
	// Prowler: iam_password_policy_minimum_length_14
	"aws-iam-008": {
		"NIST-800-53-r5:AC-2", "NIST-800-53-r5:AC-2(1)", "NIST-800-53-r5:AC-2(3)", "NIST-800-53-r5:AC-3(3)", "NIST-800-53-r5:AC-3(4)", "NIST-800-53-r5:AC-3(8)", "NIST-800-53-r5:AC-3(12)", "NIST-800-53-r5:AC-3(13)", "NIST-800-53-r5:AC-3(15)", "NIST-800-53-r5:AC-4(28)", "NIST-800-53-r5:AC-7(4)", "NIST-800-53-r5:AC-24", "NIST-800-53-r5:CM-5(1)", "NIST-800-53-r5:CM-6", "NIST-800-53-r5:CM-9", "NIST-800-53-r5:CM-12", "NIST-800-53-r5:IA-4", "NIST-800-53-r5:IA-5", "NIST-800-53-r5:IA-5(1)", "NIST-800-53-r5:IA-5(18)", "NIST-800-53-r5:IA-8(2)", "NIST-800-53-r5:MA-4", "NIST-800-53-r5:SC-23(3)",
	},
	// Prowler: iam_policy_attached_only_to_group_or_roles
	"aws-iam-010": {
		"NIST-800-53-r5:AC-2", "NIST-800-53-r5:AC-2(1)", "NIST-800-53-r5:AC-2(6)", "NIST-800-53-r5:AC-3", "NIST-800-53-r5:AC-3(3)", "NIST-800-53-r5:AC-3(4)", "NIST-800-53-r5:AC-3(7)", "NIST-800-53-r5:AC-3(8)", "NIST-800-53-r5:AC-3(12)", "NIST-800-53-r5:AC-3(13)", "NIST-800-53-r5:AC-3(15)", "NIST-800-53-r5:AC-4(28)", "NIST-800-53-r5:AC-6", "NIST-800-53-r5:AC-6(3)", "NIST-800-53-r5:AC-24", "NIST-800-53-r5:CM-5(1)", "NIST-800-53-r5:CM-6", "NIST-800-53-r5:CM-9", "NIST-800-53-r5:MP-2", "NIST-800-53-r5:SC-23(3)",
		"PCI-DSS-4.0:7.2.1", "PCI-DSS-4.0:7.2.2", "PCI-DSS-4.0:7.2.5", "PCI-DSS-4.0:7.3.1", "PCI-DSS-4.0:7.3.2", "PCI-DSS-4.0:7.3.3", "PCI-DSS-4.0:8.2.1", "PCI-DSS-4.0:8.2.2", "PCI-DSS-4.0:8.2.4", "PCI-DSS-4.0:8.2.5", "PCI-DSS-4.0:8.2.7", "PCI-DSS-4.0:8.2.8", "PCI-DSS-4.0:8.3.4", "PCI-DSS-4.0:8.3.11",
		"SOC2:CC1.3",
	},
	// Prowler: iam_root_hardware_mfa_enabled
	"aws-iam-011": {
		"NIST-800-53-r5:AC-2(1)", "NIST-800-53-r5:AC-3(2)", "NIST-800-53-r5:AC-3(3)", "NIST-800-53-r5:AC-3(4)", "NIST-800-53-r5:AC-3(8)", "NIST-800-53-r5:AC-3(12)", "NIST-800-53-r5:AC-3(13)", "NIST-800-53-r5:AC-3(15)", "NIST-800-53-r5:AC-4(28)", "NIST-800-53-r5:AC-7(4)", "NIST-800-53-r5:AC-24", "NIST-800-53-r5:CM-5(1)", "NIST-800-53-r5:CM-6", "NIST-800-53-r5:CM-9", "NIST-800-53-r5:IA-2(1)", "NIST-800-53-r5:IA-2(2)", "NIST-800-53-r5:IA-2(6)", "NIST-800-53-r5:IA-2(8)", "NIST-800-53-r5:SC-23(3)",
		"PCI-DSS-4.0:8.4.1", "PCI-DSS-4.0:8.4.2", "PCI-DSS-4.0:8.4.3",
	},
	// Prowler: iam_customer_attached_policy_no_administrative_privileges
	"aws-iam-012": {
		"NIST-800-53-r5:AC-2", "NIST-800-53-r5:AC-2(1)", "NIST-800-53-r5:AC-2(6)", "NIST-800-53-r5:AC-3", "NIST-800-53-r5:AC-3(3)", "NIST-800-53-r5:AC-3(4)", "NIST-800-53-r5:AC-3(7)", "NIST-800-53-r5:AC-3(8)", "NIST-800-53-r5:AC-3(12)", "NIST-800-53-r5:AC-3(13)", "NIST-800-53-r5:AC-3(15)", "NIST-800-53-r5:AC-4(28)", "NIST-800-53-r5:AC-5", "NIST-800-53-r5:AC-6", "NIST-800-53-r5:AC-6(2)", "NIST-800-53-r5:AC-6(3)", "NIST-800-53-r5:AC-6(10)", "NIST-800-53-r5:AC-24", "NIST-800-53-r5:CM-5(1)", "NIST-800-53-r5:CM-6", "NIST-800-53-r5:CM-9", "NIST-800-53-r5:MP-2", "NIST-800-53-r5:SC-23(3)", "NIST-800-53-r5:SC-25",
		"SOC2:CC1.3", "SOC2:CC6.3",
	},
	// Prowler: iam_inline_policy_no_administrative_privileges, iam_customer_attached_policy_no_administrative_privileges
	"aws-iam-013": {
		"NIST-800-53-r5:AC-2", "NIST-800-53-r5:AC-2(1)", "NIST-800-53-r5:AC-2(6)", "NIST-800-53-r5:AC-3", "NIST-800-53-r5:AC-3(3)", "NIST-800-53-r5:AC-3(4)", "NIST-800-53-r5:AC-3(7)", "NIST-800-53-r5:AC-3(8)", "NIST-800-53-r5:AC-3(12)", "NIST-800-53-r5:AC-3(13)", "NIST-800-53-r5:AC-3(15)", "NIST-800-53-r5:AC-4(28)", "NIST-800-53-r5:AC-5", "NIST-800-53-r5:AC-6", "NIST-800-53-r5:AC-6(2)", "NIST-800-53-r5:AC-6(3)", "NIST-800-53-r5:AC-6(10)", "NIST-800-53-r5:AC-24", "NIST-800-53-r5:CM-5(1)", "NIST-800-53-r5:CM-6", "NIST-800-53-r5:CM-9", "NIST-800-53-r5:MP-2", "NIST-800-53-r5:SC-23(3)", "NIST-800-53-r5:SC-25",
		"SOC2:CC1.3", "SOC2:CC6.3",
	},
	// Prowler: iam_inline_policy_no_administrative_privileges, iam_customer_attached_policy_no_administrative_privileges
	"aws-iam-014": {
		"NIST-800-53-r5:AC-2", "NIST-800-53-r5:AC-2(1)", "NIST-800-53-r5:AC-2(6)", "NIST-800-53-r5:AC-3", "NIST-800-53-r5:AC-3(3)", "NIST-800-53-r5:AC-3(4)", "NIST-800-53-r5:AC-3(7)", "NIST-800-53-r5:AC-3(8)", "NIST-800-53-r5:AC-3(12)", "NIST-800-53-r5:AC-3(13)", "NIST-800-53-r5:AC-3(15)", "NIST-800-53-r5:AC-4(28)", "NIST-800-53-r5:AC-5", "NIST-800-53-r5:AC-6", "NIST-800-53-r5:AC-6(2)", "NIST-800-53-r5:AC-6(3)", "NIST-800-53-r5:AC-6(10)", "NIST-800-53-r5:AC-24", "NIST-800-53-r5:CM-5(1)", "NIST-800-53-r5:CM-6", "NIST-800-53-r5:CM-9", "NIST-800-53-r5:MP-2", "NIST-800-53-r5:SC-23(3)", "NIST-800-53-r5:SC-25",
		"SOC2:CC1.3", "SOC2:CC6.3",
	},
	// Prowler: iam_policy_allows_privilege_escalation, iam_inline_policy_allows_privilege_escalation
	"aws-iam-017": {
		"SOC2:CC3.3",
	},
	// Prowler: iam_customer_attached_policy_no_administrative_privileges
	"aws-iam-019": {
		"NIST-800-53-r5:AC-2", "NIST-800-53-r5:AC-2(1)", "NIST-800-53-r5:AC-2(6)", "NIST-800-53-r5:AC-3", "NIST-800-53-r5:AC-3(3)", "NIST-800-53-r5:AC-3(4)", "NIST-800-53-r5:AC-3(7)", "NIST-800-53-r5:AC-3(8)", "NIST-800-53-r5:AC-3(12)", "NIST-800-53-r5:AC-3(13)", "NIST-800-53-r5:AC-3(15)", "NIST-800-53-r5:AC-4(28)", "NIST-800-53-r5:AC-5", "NIST-800-53-r5:AC-6", "NIST-800-53-r5:AC-6(2)", "NIST-800-53-r5:AC-6(3)", "NIST-800-53-r5:AC-6(10)", "NIST-800-53-r5:AC-24", "NIST-800-53-r5:CM-5(1)", "NIST-800-53-r5:CM-6", "NIST-800-53-r5:CM-9", "NIST-800-53-r5:MP-2", "NIST-800-53-r5:SC-23(3)", "NIST-800-53-r5:SC-25",
		"SOC2:CC1.3", "SOC2:CC6.3",
	},
	// Prowler: kms_cmk_rotation_enabled
	"aws-kms-001": {
		"NIST-800-53-r5:CM-6", "NIST-800-53-r5:CM-9", "NIST-800-53-r5:SA-9(6)", "NIST-800-53-r5:SC-12", "NIST-800-53-r5:SC-12(2)", "NIST-800-53-r5:SC-12(6)",
		"PCI-DSS-4.0:3.7.4", "PCI-DSS-4.0:3.7.5",
		"SOC2:PI1.5",
	},
	// Prowler: kms_cmk_not_deleted_unintentionally
	"aws-kms-002": {
		"PCI-DSS-4.0:3.5.1.1", "PCI-DSS-4.0:3.5.1.3", "PCI-DSS-4.0:3.6.1", "PCI-DSS-4.0:3.6.1.2", "PCI-DSS-4.0:3.6.1.3", "PCI-DSS-4.0:3.6.1.4", "PCI-DSS-4.0:3.7.1", "PCI-DSS-4.0:3.7.2", "PCI-DSS-4.0:3.7.4", "PCI-DSS-4.0:3.7.6", "PCI-DSS-4.0:3.7.7", "PCI-DSS-4.0:4.2.1.1",
	},
	// Prowler: awslambda_function_url_public
	"aws-lambda-001": {
		"NIST-800-53-r5:AC-2(6)", "NIST-800-53-r5:AC-3", "NIST-800-53-r5:AC-3(7)", "NIST-800-53-r5:AC-4(21)", "NIST-800-53-r5:AC-6", "NIST-800-53-r5:AC-17", "NIST-800-53-r5:AC-17(1)", "NIST-800-53-r5:AC-17(4)", "NIST-800-53-r5:AC-17(9)", "NIST-800-53-r5:AC-17(10)", "NIST-800-53-r5:MP-2", "NIST-800-53-r5:SC-7", "NIST-800-53-r5:SC-7(2)", "NIST-800-53-r5:SC-7(3)", "NIST-800-53-r5:SC-7(7)", "NIST-800-53-r5:SC-7(9)", "NIST-800-53-r5:SC-7(11)", "NIST-800-53-r5:SC-7(12)", "NIST-800-53-r5:SC-7(16)", "NIST-800-53-r5:SC-7(20)", "NIST-800-53-r5:SC-7(21)", "NIST-800-53-r5:SC-7(24)", "NIST-800-53-r5:SC-7(25)", "NIST-800-53-r5:SC-7(26)", "NIST-800-53-r5:SC-7(27)", "NIST-800-53-r5:SC-7(28)", "NIST-800-53-r5:SC-25",
	},
	// Prowler: awslambda_function_not_publicly_accessible
	"aws-lambda-005": {
		"NIST-800-53-r5:AC-2(6)", "NIST-800-53-r5:AC-3", "NIST-800-53-r5:AC-3(7)", "NIST-800-53-r5:AC-4(21)", "NIST-800-53-r5:AC-6", "NIST-800-53-r5:AC-17", "NIST-800-53-r5:AC-17(1)", "NIST-800-53-r5:AC-17(4)", "NIST-800-53-r5:AC-17(9)", "NIST-800-53-r5:AC-17(10)", "NIST-800-53-r5:MP-2", "NIST-800-53-r5:SC-7", "NIST-800-53-r5:SC-7(2)", "NIST-800-53-r5:SC-7(3)", "NIST-800-53-r5:SC-7(9)", "NIST-800-53-r5:SC-7(11)", "NIST-800-53-r5:SC-7(12)", "NIST-800-53-r5:SC-7(16)", "NIST-800-53-r5:SC-7(20)", "NIST-800-53-r5:SC-7(21)", "NIST-800-53-r5:SC-7(24)", "NIST-800-53-r5:SC-25",
		"PCI-DSS-4.0:1.2.8", "PCI-DSS-4.0:1.3.1", "PCI-DSS-4.0:1.3.2", "PCI-DSS-4.0:1.4.2", "PCI-DSS-4.0:1.5.1", "PCI-DSS-4.0:3.5.1.3", "PCI-DSS-4.0:10.3.2", "PCI-DSS-4.0:A1.1.2", "PCI-DSS-4.0:A1.1.3", "PCI-DSS-4.0:A3.4.1",
	},
	// Prowler: cloudwatch_log_group_kms_encryption_enabled
	"aws-logs-002": {
		"NIST-800-53-r5:AU-9(3)", "NIST-800-53-r5:CP-9", "NIST-800-53-r5:SC-8(3)", "NIST-800-53-r5:SC-8(4)", "NIST-800-53-r5:SC-13", "NIST-800-53-r5:SC-28(1)", "NIST-800-53-r5:SI-19(4)",
		"PCI-DSS-4.0:3.5.1", "PCI-DSS-4.0:8.3.2", "PCI-DSS-4.0:10.3.2", "PCI-DSS-4.0:10.3.3", "PCI-DSS-4.0:10.3.4", "PCI-DSS-4.0:A1.2.1",
		"SOC2:CC7.3", "SOC2:PI1.4",
	},
	// Prowler: rds_instance_no_public_access
	"aws-rds-001": {
		"NIST-800-53-r5:AC-2(6)", "NIST-800-53-r5:AC-3", "NIST-800-53-r5:AC-3(7)", "NIST-800-53-r5:AC-4(21)", "NIST-800-53-r5:AC-6", "NIST-800-53-r5:AC-17", "NIST-800-53-r5:AC-17(1)", "NIST-800-53-r5:AC-17(4)", "NIST-800-53-r5:AC-17(9)", "NIST-800-53-r5:AC-17(10)", "NIST-800-53-r5:MP-2", "NIST-800-53-r5:SC-7", "NIST-800-53-r5:SC-7(2)", "NIST-800-53-r5:SC-7(3)", "NIST-800-53-r5:SC-7(7)", "NIST-800-53-r5:SC-7(9)", "NIST-800-53-r5:SC-7(11)", "NIST-800-53-r5:SC-7(12)", "NIST-800-53-r5:SC-7(16)", "NIST-800-53-r5:SC-7(20)", "NIST-800-53-r5:SC-7(21)", "NIST-800-53-r5:SC-7(24)", "NIST-800-53-r5:SC-7(25)", "NIST-800-53-r5:SC-7(26)", "NIST-800-53-r5:SC-7(27)", "NIST-800-53-r5:SC-7(28)", "NIST-800-53-r5:SC-25",
		"PCI-DSS-4.0:1.2.8", "PCI-DSS-4.0:1.3.1", "PCI-DSS-4.0:1.3.2", "PCI-DSS-4.0:1.4.2", "PCI-DSS-4.0:1.5.1", "PCI-DSS-4.0:3.5.1.3", "PCI-DSS-4.0:10.3.2", "PCI-DSS-4.0:A1.1.2", "PCI-DSS-4.0:A1.1.3", "PCI-DSS-4.0:A3.4.1",
		"SOC2:CC6.2",
	},
	// Prowler: rds_instance_storage_encrypted
	"aws-rds-002": {
		"NIST-800-53-r5:AU-9(3)", "NIST-800-53-r5:CP-9", "NIST-800-53-r5:CP-9(8)", "NIST-800-53-r5:SC-8(3)", "NIST-800-53-r5:SC-8(4)", "NIST-800-53-r5:SC-13", "NIST-800-53-r5:SC-28(1)", "NIST-800-53-r5:SI-19(4)",
		"PCI-DSS-4.0:3.5.1", "PCI-DSS-4.0:8.3.2",
		"SOC2:PI1.5",
	},
	// Prowler: rds_instance_multi_az
	"aws-rds-005": {
		"NIST-800-53-r5:CP-1", "NIST-800-53-r5:CP-2", "NIST-800-53-r5:CP-2(5)", "NIST-800-53-r5:CP-2(6)", "NIST-800-53-r5:CP-6(2)", "NIST-800-53-r5:CP-10", "NIST-800-53-r5:SC-5(2)", "NIST-800-53-r5:SC-6", "NIST-800-53-r5:SC-22", "NIST-800-53-r5:SC-36", "NIST-800-53-r5:SI-13(5)",
	},
	// Prowler: rds_instance_backup_enabled
	"aws-rds-006": {
		"NIST-800-53-r5:CP-1", "NIST-800-53-r5:CP-2(5)", "NIST-800-53-r5:CP-6", "NIST-800-53-r5:CP-6(1)", "NIST-800-53-r5:CP-6(2)", "NIST-800-53-r5:CP-9", "NIST-800-53-r5:CP-10", "NIST-800-53-r5:CP-10(2)", "NIST-800-53-r5:SC-5(2)", "NIST-800-53-r5:SI-13(5)",
		"PCI-DSS-4.0:10.3.3",
		"SOC2:CC7.4", "SOC2:A1.2",
	},
	// Prowler: rds_instance_deletion_protection
	"aws-rds-007": {
		"NIST-800-53-r5:CA-7(4)", "NIST-800-53-r5:CM-3", "NIST-800-53-r5:CP-1", "NIST-800-53-r5:CP-2", "NIST-800-53-r5:CP-2(5)", "NIST-800-53-r5:SA-15", "NIST-800-53-r5:SC-5(2)", "NIST-800-53-r5:SC-22", "NIST-800-53-r5:SI-13(5)",
		"SOC2:C1.1",
	},
	// Prowler: rds_instance_minor_version_upgrade_enabled
	"aws-rds-008": {
		"PCI-DSS-4.0:6.3.3",
	},
	// Prowler: rds_snapshots_public_access
	"aws-rds-009": {
		"NIST-800-53-r5:AC-2(6)", "NIST-800-53-r5:AC-3", "NIST-800-53-r5:AC-3(7)", "NIST-800-53-r5:AC-4(21)", "NIST-800-53-r5:AC-6", "NIST-800-53-r5:AC-17", "NIST-800-53-r5:AC-17(1)", "NIST-800-53-r5:AC-17(4)", "NIST-800-53-r5:AC-17(9)", "NIST-800-53-r5:AC-17(10)", "NIST-800-53-r5:MP-2", "NIST-800-53-r5:SC-7", "NIST-800-53-r5:SC-7(2)", "NIST-800-53-r5:SC-7(3)", "NIST-800-53-r5:SC-7(7)", "NIST-800-53-r5:SC-7(9)", "NIST-800-53-r5:SC-7(11)", "NIST-800-53-r5:SC-7(12)", "NIST-800-53-r5:SC-7(16)", "NIST-800-53-r5:SC-7(20)", "NIST-800-53-r5:SC-7(21)", "NIST-800-53-r5:SC-7(24)", "NIST-800-53-r5:SC-7(25)", "NIST-800-53-r5:SC-7(26)", "NIST-800-53-r5:SC-7(27)", "NIST-800-53-r5:SC-7(28)", "NIST-800-53-r5:SC-25",
		"PCI-DSS-4.0:3.5.1.3", "PCI-DSS-4.0:10.3.2", "PCI-DSS-4.0:A1.1.2", "PCI-DSS-4.0:A3.4.1",
	},
	// Prowler: rds_snapshots_encrypted
	"aws-rds-010": {
		"PCI-DSS-4.0:3.5.1", "PCI-DSS-4.0:8.3.2",
	},
	// Prowler: rds_cluster_storage_encrypted
	"aws-rds-011": {
		"PCI-DSS-4.0:3.5.1", "PCI-DSS-4.0:8.3.2",
		"SOC2:PI1.5",
	},
	// Prowler: rds_cluster_iam_authentication_enabled
	"aws-rds-014": {
		"PCI-DSS-4.0:7.2.1", "PCI-DSS-4.0:7.2.2", "PCI-DSS-4.0:7.2.5", "PCI-DSS-4.0:7.3.1", "PCI-DSS-4.0:7.3.2", "PCI-DSS-4.0:7.3.3", "PCI-DSS-4.0:8.2.7", "PCI-DSS-4.0:8.2.8", "PCI-DSS-4.0:8.3.4",
	},
	// Prowler: rds_cluster_integration_cloudwatch_logs
	"aws-rds-015": {
		"PCI-DSS-4.0:5.3.4", "PCI-DSS-4.0:10.2.1", "PCI-DSS-4.0:10.2.1.1", "PCI-DSS-4.0:10.2.1.2", "PCI-DSS-4.0:10.2.1.3", "PCI-DSS-4.0:10.2.1.4", "PCI-DSS-4.0:10.2.1.5", "PCI-DSS-4.0:10.2.1.6", "PCI-DSS-4.0:10.2.1.7", "PCI-DSS-4.0:10.2.2", "PCI-DSS-4.0:10.3.1", "PCI-DSS-4.0:10.6.3", "PCI-DSS-4.0:A1.2.1",
		"SOC2:PI1.3",
	},
	// Prowler: rds_snapshots_public_access
	"aws-rds-023": {
		"NIST-800-53-r5:AC-2(6)", "NIST-800-53-r5:AC-3", "NIST-800-53-r5:AC-3(7)", "NIST-800-53-r5:AC-4(21)", "NIST-800-53-r5:AC-6", "NIST-800-53-r5:AC-17", "NIST-800-53-r5:AC-17(1)", "NIST-800-53-r5:AC-17(4)", "NIST-800-53-r5:AC-17(9)", "NIST-800-53-r5:AC-17(10)", "NIST-800-53-r5:MP-2", "NIST-800-53-r5:SC-7", "NIST-800-53-r5:SC-7(2)", "NIST-800-53-r5:SC-7(3)", "NIST-800-53-r5:SC-7(7)", "NIST-800-53-r5:SC-7(9)", "NIST-800-53-r5:SC-7(11)", "NIST-800-53-r5:SC-7(12)", "NIST-800-53-r5:SC-7(16)", "NIST-800-53-r5:SC-7(20)", "NIST-800-53-r5:SC-7(21)", "NIST-800-53-r5:SC-7(24)", "NIST-800-53-r5:SC-7(25)", "NIST-800-53-r5:SC-7(26)", "NIST-800-53-r5:SC-7(27)", "NIST-800-53-r5:SC-7(28)", "NIST-800-53-r5:SC-25",
		"PCI-DSS-4.0:3.5.1.3", "PCI-DSS-4.0:10.3.2", "PCI-DSS-4.0:A1.1.2", "PCI-DSS-4.0:A3.4.1",
	},
	// Prowler: rds_snapshots_encrypted
	"aws-rds-024": {
		"PCI-DSS-4.0:3.5.1", "PCI-DSS-4.0:8.3.2",
	},
	// Prowler: redshift_cluster_public_access
	"aws-redshift-001": {
		"NIST-800-53-r5:AC-2(6)", "NIST-800-53-r5:AC-3", "NIST-800-53-r5:AC-3(7)", "NIST-800-53-r5:AC-4(21)", "NIST-800-53-r5:AC-6", "NIST-800-53-r5:AC-17", "NIST-800-53-r5:AC-17(1)", "NIST-800-53-r5:AC-17(4)", "NIST-800-53-r5:AC-17(9)", "NIST-800-53-r5:AC-17(10)", "NIST-800-53-r5:MP-2", "NIST-800-53-r5:SC-7", "NIST-800-53-r5:SC-7(2)", "NIST-800-53-r5:SC-7(3)", "NIST-800-53-r5:SC-7(7)", "NIST-800-53-r5:SC-7(9)", "NIST-800-53-r5:SC-7(11)", "NIST-800-53-r5:SC-7(12)", "NIST-800-53-r5:SC-7(16)", "NIST-800-53-r5:SC-7(20)", "NIST-800-53-r5:SC-7(21)", "NIST-800-53-r5:SC-7(24)", "NIST-800-53-r5:SC-7(25)", "NIST-800-53-r5:SC-7(26)", "NIST-800-53-r5:SC-7(27)", "NIST-800-53-r5:SC-7(28)", "NIST-800-53-r5:SC-25",
		"PCI-DSS-4.0:1.2.8", "PCI-DSS-4.0:1.3.1", "PCI-DSS-4.0:1.3.2", "PCI-DSS-4.0:1.4.2", "PCI-DSS-4.0:1.5.1", "PCI-DSS-4.0:3.5.1.3", "PCI-DSS-4.0:10.3.2", "PCI-DSS-4.0:A1.1.2", "PCI-DSS-4.0:A1.1.3", "PCI-DSS-4.0:A3.4.1",
	},
	// Prowler: redshift_cluster_encrypted_at_rest
	"aws-redshift-002": {
		"PCI-DSS-4.0:3.5.1", "PCI-DSS-4.0:8.3.2",
	},
	// Prowler: redshift_cluster_audit_logging
	"aws-redshift-003": {
		"NIST-800-53-r5:AC-2(4)", "NIST-800-53-r5:AC-3(1)", "NIST-800-53-r5:AC-3(10)", "NIST-800-53-r5:AC-4(26)", "NIST-800-53-r5:AC-6(9)", "NIST-800-53-r5:AU-2", "NIST-800-53-r5:AU-3", "NIST-800-53-r5:AU-6(3)", "NIST-800-53-r5:AU-6(4)", "NIST-800-53-r5:AU-6(6)", "NIST-800-53-r5:AU-6(9)", "NIST-800-53-r5:AU-8", "NIST-800-53-r5:AU-9(3)", "NIST-800-53-r5:AU-10", "NIST-800-53-r5:AU-12", "NIST-800-53-r5:AU-12(1)", "NIST-800-53-r5:AU-12(2)", "NIST-800-53-r5:AU-12(3)", "NIST-800-53-r5:AU-12(4)", "NIST-800-53-r5:AU-14", "NIST-800-53-r5:AU-14(3)", "NIST-800-53-r5:CA-7", "NIST-800-53-r5:CM-5(1)", "NIST-800-53-r5:CP-9", "NIST-800-53-r5:IA-3(3)", "NIST-800-53-r5:MA-4(1)", "NIST-800-53-r5:PM-14", "NIST-800-53-r5:PM-31", "NIST-800-53-r5:SC-7(9)", "NIST-800-53-r5:SC-8(3)", "NIST-800-53-r5:SC-8(4)", "NIST-800-53-r5:SC-13", "NIST-800-53-r5:SC-28(1)", "NIST-800-53-r5:SI-1", "NIST-800-53-r5:SI-3(8)", "NIST-800-53-r5:SI-4(2)", "NIST-800-53-r5:SI-4(17)", "NIST-800-53-r5:SI-4(20)", "NIST-800-53-r5:SI-7(8)", "NIST-800-53-r5:SI-10(1)", "NIST-800-53-r5:SI-19(4)",
		"PCI-DSS-4.0:5.3.4", "PCI-DSS-4.0:10.2.1", "PCI-DSS-4.0:10.2.1.1", "PCI-DSS-4.0:10.2.1.2", "PCI-DSS-4.0:10.2.1.3", "PCI-DSS-4.0:10.2.1.4", "PCI-DSS-4.0:10.2.1.5", "PCI-DSS-4.0:10.2.1.6", "PCI-DSS-4.0:10.2.1.7", "PCI-DSS-4.0:10.2.2", "PCI-DSS-4.0:10.3.1", "PCI-DSS-4.0:10.6.3", "PCI-DSS-4.0:A1.2.1",
		"SOC2:CC7.2",
	},
	// Prowler: redshift_cluster_automated_snapshot
	"aws-redshift-004": {
		"NIST-800-53-r5:CP-1", "NIST-800-53-r5:CP-2(5)", "NIST-800-53-r5:CP-6", "NIST-800-53-r5:CP-6(1)", "NIST-800-53-r5:CP-6(2)", "NIST-800-53-r5:CP-9", "NIST-800-53-r5:CP-10", "NIST-800-53-r5:CP-10(2)", "NIST-800-53-r5:SC-5(2)", "NIST-800-53-r5:SI-13(5)",
		"PCI-DSS-4.0:10.3.3",
		"SOC2:CC7.4", "SOC2:CC7.5", "SOC2:A1.2",
	},
	// Prowler: redshift_cluster_automatic_upgrades
	"aws-redshift-005": {
		"NIST-800-53-r5:CM-2", "NIST-800-53-r5:CM-3(3)", "NIST-800-53-r5:CP-9", "NIST-800-53-r5:SC-5(2)", "NIST-800-53-r5:SI-2", "NIST-800-53-r5:SI-2(2)", "NIST-800-53-r5:SI-2(5)",
	},
	// Prowler: redshift_cluster_enhanced_vpc_routing
	"aws-redshift-006": {
		"PCI-DSS-4.0:1.3.1", "PCI-DSS-4.0:1.3.2", "PCI-DSS-4.0:1.4.1", "PCI-DSS-4.0:1.4.2", "PCI-DSS-4.0:1.4.4",
	},
	// Prowler: s3_bucket_level_public_access_block, s3_account_level_public_access_blocks
	"aws-s3-001": {
		"NIST-800-53-r5:AC-2(6)", "NIST-800-53-r5:AC-3", "NIST-800-53-r5:AC-3(7)", "NIST-800-53-r5:AC-4(21)", "NIST-800-53-r5:AC-6", "NIST-800-53-r5:AC-17", "NIST-800-53-r5:AC-17(1)", "NIST-800-53-r5:AC-17(4)", "NIST-800-53-r5:AC-17(9)", "NIST-800-53-r5:AC-17(10)", "NIST-800-53-r5:CM-6", "NIST-800-53-r5:CM-9", "NIST-800-53-r5:MP-2", "NIST-800-53-r5:SC-7", "NIST-800-53-r5:SC-7(2)", "NIST-800-53-r5:SC-7(3)", "NIST-800-53-r5:SC-7(7)", "NIST-800-53-r5:SC-7(9)", "NIST-800-53-r5:SC-7(11)", "NIST-800-53-r5:SC-7(12)", "NIST-800-53-r5:SC-7(16)", "NIST-800-53-r5:SC-7(20)", "NIST-800-53-r5:SC-7(21)", "NIST-800-53-r5:SC-7(24)", "NIST-800-53-r5:SC-7(25)", "NIST-800-53-r5:SC-7(26)", "NIST-800-53-r5:SC-7(27)", "NIST-800-53-r5:SC-7(28)", "NIST-800-53-r5:SC-25",
		"PCI-DSS-4.0:1.2.8", "PCI-DSS-4.0:1.3.1", "PCI-DSS-4.0:1.3.2", "PCI-DSS-4.0:1.4.2", "PCI-DSS-4.0:1.5.1", "PCI-DSS-4.0:3.5.1.3", "PCI-DSS-4.0:10.3.2", "PCI-DSS-4.0:A1.1.2", "PCI-DSS-4.0:A1.1.3", "PCI-DSS-4.0:A3.4.1",
	},
	// Prowler: s3_bucket_public_access
	"aws-s3-002": {
		"NIST-800-53-r5:AC-2(6)", "NIST-800-53-r5:AC-3", "NIST-800-53-r5:AC-3(7)", "NIST-800-53-r5:AC-4(21)", "NIST-800-53-r5:AC-6", "NIST-800-53-r5:AC-17", "NIST-800-53-r5:AC-17(1)", "NIST-800-53-r5:AC-17(4)", "NIST-800-53-r5:AC-17(9)", "NIST-800-53-r5:AC-17(10)", "NIST-800-53-r5:CM-6", "NIST-800-53-r5:CM-9", "NIST-800-53-r5:MP-2", "NIST-800-53-r5:SC-7", "NIST-800-53-r5:SC-7(2)", "NIST-800-53-r5:SC-7(3)", "NIST-800-53-r5:SC-7(7)", "NIST-800-53-r5:SC-7(9)", "NIST-800-53-r5:SC-7(11)", "NIST-800-53-r5:SC-7(12)", "NIST-800-53-r5:SC-7(16)", "NIST-800-53-r5:SC-7(20)", "NIST-800-53-r5:SC-7(21)", "NIST-800-53-r5:SC-7(24)", "NIST-800-53-r5:SC-7(25)", "NIST-800-53-r5:SC-7(26)", "NIST-800-53-r5:SC-7(27)", "NIST-800-53-r5:SC-7(28)", "NIST-800-53-r5:SC-25",
		"PCI-DSS-4.0:1.2.8", "PCI-DSS-4.0:1.3.1", "PCI-DSS-4.0:1.3.2", "PCI-DSS-4.0:1.4.2", "PCI-DSS-4.0:1.5.1", "PCI-DSS-4.0:3.5.1.3", "PCI-DSS-4.0:10.3.2", "PCI-DSS-4.0:10.3.3", "PCI-DSS-4.0:10.3.4", "PCI-DSS-4.0:A1.1.2", "PCI-DSS-4.0:A1.1.3", "PCI-DSS-4.0:A1.2.1", "PCI-DSS-4.0:A3.4.1",
		"SOC2:CC6.1",
	},
	// Prowler: s3_bucket_public_access
	"aws-s3-003": {
		"NIST-800-53-r5:AC-2(6)", "NIST-800-53-r5:AC-3", "NIST-800-53-r5:AC-3(7)", "NIST-800-53-r5:AC-4(21)", "NIST-800-53-r5:AC-6", "NIST-800-53-r5:AC-17", "NIST-800-53-r5:AC-17(1)", "NIST-800-53-r5:AC-17(4)", "NIST-800-53-r5:AC-17(9)", "NIST-800-53-r5:AC-17(10)", "NIST-800-53-r5:CM-6", "NIST-800-53-r5:CM-9", "NIST-800-53-r5:MP-2", "NIST-800-53-r5:SC-7", "NIST-800-53-r5:SC-7(2)", "NIST-800-53-r5:SC-7(3)", "NIST-800-53-r5:SC-7(7)", "NIST-800-53-r5:SC-7(9)", "NIST-800-53-r5:SC-7(11)", "NIST-800-53-r5:SC-7(12)", "NIST-800-53-r5:SC-7(16)", "NIST-800-53-r5:SC-7(20)", "NIST-800-53-r5:SC-7(21)", "NIST-800-53-r5:SC-7(24)", "NIST-800-53-r5:SC-7(25)", "NIST-800-53-r5:SC-7(26)", "NIST-800-53-r5:SC-7(27)", "NIST-800-53-r5:SC-7(28)", "NIST-800-53-r5:SC-25",
		"PCI-DSS-4.0:1.2.8", "PCI-DSS-4.0:1.3.1", "PCI-DSS-4.0:1.3.2", "PCI-DSS-4.0:1.4.2", "PCI-DSS-4.0:1.5.1", "PCI-DSS-4.0:3.5.1.3", "PCI-DSS-4.0:10.3.2", "PCI-DSS-4.0:10.3.3", "PCI-DSS-4.0:10.3.4", "PCI-DSS-4.0:A1.1.2", "PCI-DSS-4.0:A1.1.3", "PCI-DSS-4.0:A1.2.1", "PCI-DSS-4.0:A3.4.1",
		"SOC2:CC6.1",
	},
	// Prowler: s3_bucket_default_encryption
	"aws-s3-004": {
		"NIST-800-53-r5:AU-9(3)", "NIST-800-53-r5:CM-6", "NIST-800-53-r5:CM-9", "NIST-800-53-r5:CP-9", "NIST-800-53-r5:CP-9(8)", "NIST-800-53-r5:PM-11", "NIST-800-53-r5:SC-8(3)", "NIST-800-53-r5:SC-8(4)", "NIST-800-53-r5:SC-13", "NIST-800-53-r5:SC-16(1)", "NIST-800-53-r5:SC-28(1)", "NIST-800-53-r5:SI-19(4)",
		"PCI-DSS-4.0:3.5.1", "PCI-DSS-4.0:8.3.2",
		"SOC2:PI1.4",
	},
	// Prowler: s3_bucket_secure_transport_policy
	"aws-s3-005": {
		"NIST-800-53-r5:AC-4", "NIST-800-53-r5:AC-4(22)", "NIST-800-53-r5:AC-17(2)", "NIST-800-53-r5:AC-24(1)", "NIST-800-53-r5:AU-9(3)", "NIST-800-53-r5:CA-9", "NIST-800-53-r5:CM-6", "NIST-800-53-r5:CM-9", "NIST-800-53-r5:IA-5(1)", "NIST-800-53-r5:PM-11", "NIST-800-53-r5:PM-17", "NIST-800-53-r5:SC-7(4)", "NIST-800-53-r5:SC-7(5)", "NIST-800-53-r5:SC-8", "NIST-800-53-r5:SC-8(1)", "NIST-800-53-r5:SC-8(2)", "NIST-800-53-r5:SC-8(3)", "NIST-800-53-r5:SC-8(4)", "NIST-800-53-r5:SC-8(5)", "NIST-800-53-r5:SC-13", "NIST-800-53-r5:SC-16(1)", "NIST-800-53-r5:SC-23", "NIST-800-53-r5:SI-1",
		"PCI-DSS-4.0:1.2.5", "PCI-DSS-4.0:2.2.5", "PCI-DSS-4.0:2.2.7", "PCI-DSS-4.0:4.2.1", "PCI-DSS-4.0:4.2.1.1", "PCI-DSS-4.0:8.3.2",
	},
	// Prowler: s3_bucket_object_versioning
	"aws-s3-007": {
		"NIST-800-53-r5:AU-9(2)", "NIST-800-53-r5:CP-1", "NIST-800-53-r5:CP-2(5)", "NIST-800-53-r5:CP-6", "NIST-800-53-r5:CP-6(1)", "NIST-800-53-r5:CP-6(2)", "NIST-800-53-r5:CP-9", "NIST-800-53-r5:CP-10", "NIST-800-53-r5:CP-10(2)", "NIST-800-53-r5:PM-11", "NIST-800-53-r5:PM-17", "NIST-800-53-r5:SC-5(2)", "NIST-800-53-r5:SC-16(1)", "NIST-800-53-r5:SI-1", "NIST-800-53-r5:SI-13(5)",
		"PCI-DSS-4.0:10.3.4",
		"SOC2:CC7.4", "SOC2:A1.2", "SOC2:C1.2", "SOC2:PI1.5",
	},
	// Prowler: s3_bucket_server_access_logging_enabled
	"aws-s3-008": {
		"NIST-800-53-r5:AC-2(4)", "NIST-800-53-r5:AC-3(1)", "NIST-800-53-r5:AC-3(10)", "NIST-800-53-r5:AC-4(26)", "NIST-800-53-r5:AC-6(9)", "NIST-800-53-r5:AU-2", "NIST-800-53-r5:AU-3", "NIST-800-53-r5:AU-6(3)", "NIST-800-53-r5:AU-6(4)", "NIST-800-53-r5:AU-6(6)", "NIST-800-53-r5:AU-6(9)", "NIST-800-53-r5:AU-8", "NIST-800-53-r5:AU-10", "NIST-800-53-r5:AU-12", "NIST-800-53-r5:AU-12(1)", "NIST-800-53-r5:AU-12(2)", "NIST-800-53-r5:AU-12(3)", "NIST-800-53-r5:AU-12(4)", "NIST-800-53-r5:AU-14", "NIST-800-53-r5:AU-14(3)", "NIST-800-53-r5:CA-7", "NIST-800-53-r5:CM-5(1)", "NIST-800-53-r5:CM-6", "NIST-800-53-r5:CM-9", "NIST-800-53-r5:IA-3(3)", "NIST-800-53-r5:MA-4(1)", "NIST-800-53-r5:PM-14", "NIST-800-53-r5:PM-31", "NIST-800-53-r5:SC-7(9)", "NIST-800-53-r5:SI-1", "NIST-800-53-r5:SI-3(8)", "NIST-800-53-r5:SI-4(2)", "NIST-800-53-r5:SI-4(17)", "NIST-800-53-r5:SI-4(20)", "NIST-800-53-r5:SI-7(8)", "NIST-800-53-r5:SI-10(1)",
		"PCI-DSS-4.0:5.3.4", "PCI-DSS-4.0:10.2.1", "PCI-DSS-4.0:10.2.1.1", "PCI-DSS-4.0:10.2.1.2", "PCI-DSS-4.0:10.2.1.3", "PCI-DSS-4.0:10.2.1.4", "PCI-DSS-4.0:10.2.1.5", "PCI-DSS-4.0:10.2.1.6", "PCI-DSS-4.0:10.2.1.7", "PCI-DSS-4.0:10.2.2", "PCI-DSS-4.0:10.3.1", "PCI-DSS-4.0:10.6.3", "PCI-DSS-4.0:A1.2.1",
		"SOC2:CC7.2", "SOC2:CC7.3", "SOC2:A1.2",
	},
	// Prowler: s3_bucket_no_mfa_delete
	"aws-s3-009": {
		"PCI-DSS-4.0:3.5.1.3", "PCI-DSS-4.0:8.4.1", "PCI-DSS-4.0:8.4.2", "PCI-DSS-4.0:8.4.3", "PCI-DSS-4.0:10.3.2", "PCI-DSS-4.0:A1.1.2", "PCI-DSS-4.0:A3.4.1",
	},
	// Prowler: sns_topics_kms_encryption_at_rest_enabled
	"aws-sns-001": {
		"NIST-800-53-r5:AU-9(3)", "NIST-800-53-r5:CP-9", "NIST-800-53-r5:SC-8(3)", "NIST-800-53-r5:SC-8(4)", "NIST-800-53-r5:SC-13", "NIST-800-53-r5:SC-28(1)",
		"PCI-DSS-4.0:3.5.1", "PCI-DSS-4.0:8.3.2",
		"SOC2:PI1.4",
	},
	// Prowler: vpc_flow_logs_enabled
	"aws-vpc-001": {
		"NIST-800-53-r5:AC-4(26)", "NIST-800-53-r5:AU-2", "NIST-800-53-r5:AU-3", "NIST-800-53-r5:AU-6(3)", "NIST-800-53-r5:AU-6(4)", "NIST-800-53-r5:AU-6(6)", "NIST-800-53-r5:AU-6(9)", "NIST-800-53-r5:AU-8", "NIST-800-53-r5:AU-12", "NIST-800-53-r5:AU-12(1)", "NIST-800-53-r5:AU-12(2)", "NIST-800-53-r5:AU-12(3)", "NIST-800-53-r5:AU-12(4)", "NIST-800-53-r5:AU-14", "NIST-800-53-r5:AU-14(3)", "NIST-800-53-r5:CA-7", "NIST-800-53-r5:CM-5(1)", "NIST-800-53-r5:CM-6", "NIST-800-53-r5:CM-9", "NIST-800-53-r5:IA-3(3)", "NIST-800-53-r5:MA-4(1)", "NIST-800-53-r5:PM-14", "NIST-800-53-r5:PM-31", "NIST-800-53-r5:SI-4(17)", "NIST-800-53-r5:SI-7(8)",
		"PCI-DSS-4.0:5.3.4", "PCI-DSS-4.0:10.2.1", "PCI-DSS-4.0:10.2.1.1", "PCI-DSS-4.0:10.2.1.2", "PCI-DSS-4.0:10.2.1.3", "PCI-DSS-4.0:10.2.1.4", "PCI-DSS-4.0:10.2.1.5", "PCI-DSS-4.0:10.2.1.6", "PCI-DSS-4.0:10.2.1.7", "PCI-DSS-4.0:10.2.2", "PCI-DSS-4.0:10.3.1", "PCI-DSS-4.0:10.6.3", "PCI-DSS-4.0:A1.2.1",
		"SOC2:CC7.2", "SOC2:CC7.3",
	},
	// Prowler: ec2_networkacl_allow_ingress_any_port, ec2_networkacl_allow_ingress_tcp_port_22, ec2_networkacl_allow_ingress_tcp_port_3389
	"aws-vpc-002": {
		"NIST-800-53-r5:AC-4(21)", "NIST-800-53-r5:AC-17", "NIST-800-53-r5:AC-17(1)", "NIST-800-53-r5:AC-17(4)", "NIST-800-53-r5:AC-17(9)", "NIST-800-53-r5:AC-17(10)", "NIST-800-53-r5:CM-2", "NIST-800-53-r5:CM-2(2)", "NIST-800-53-r5:CM-6", "NIST-800-53-r5:CM-7", "NIST-800-53-r5:CM-8(6)", "NIST-800-53-r5:CM-9", "NIST-800-53-r5:SC-7", "NIST-800-53-r5:SC-7(5)", "NIST-800-53-r5:SC-7(7)", "NIST-800-53-r5:SC-7(11)", "NIST-800-53-r5:SC-7(12)", "NIST-800-53-r5:SC-7(16)", "NIST-800-53-r5:SC-7(21)", "NIST-800-53-r5:SC-7(24)", "NIST-800-53-r5:SC-7(25)", "NIST-800-53-r5:SC-7(26)", "NIST-800-53-r5:SC-7(27)", "NIST-800-53-r5:SC-7(28)",
		"PCI-DSS-4.0:1.2.8", "PCI-DSS-4.0:1.3.1", "PCI-DSS-4.0:1.3.2", "PCI-DSS-4.0:1.4.2", "PCI-DSS-4.0:1.5.1", "PCI-DSS-4.0:A1.1.3",
		"SOC2:CC6.6",
	},
	// Prowler: vpc_subnet_no_public_ip_by_default
	"aws-vpc-003": {
		"SOC2:CC6.6",
	},
	// Prowler: ec2_transitgateway_auto_accept_vpc_attachments
	"aws-vpc-008": {
		"PCI-DSS-4.0:1.2.8", "PCI-DSS-4.0:1.3.1", "PCI-DSS-4.0:1.3.2", "PCI-DSS-4.0:1.4.2", "PCI-DSS-4.0:1.5.1", "PCI-DSS-4.0:A1.1.3",
		"SOC2:CC6.7",
	},
	// Prowler: vpc_vpn_connection_tunnels_up
	"aws-vpc-009": {
		"PCI-DSS-4.0:1.3.1", "PCI-DSS-4.0:1.3.2", "PCI-DSS-4.0:1.4.1", "PCI-DSS-4.0:1.4.2", "PCI-DSS-4.0:1.4.4",
	},
	// Prowler: ec2_networkacl_unused
	"aws-vpc-010": {
		"PCI-DSS-4.0:1.2.8", "PCI-DSS-4.0:1.3.1", "PCI-DSS-4.0:1.3.2", "PCI-DSS-4.0:1.4.2", "PCI-DSS-4.0:1.5.1", "PCI-DSS-4.0:A1.1.3",
	},
}
