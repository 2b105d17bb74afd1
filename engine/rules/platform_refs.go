package rules

// platformRefs are the NIST SP 800-53 rev. 5, PCI DSS v4.0 and SOC 2
// references of the platform family's rules: Prowler's mappings of the
// equivalent Prowler check, named in each entry's comment, from
// prowler-cloud/prowler@3e000faa31 prowler/compliance/aws/nist_800_53_revision_5_aws.json,
// pci_4.0_aws.json and soc2_aws.json, folded into the catalog's controls as
// frameworkRefs does (compliance_refs.go). Rules without an equivalent
// Prowler check carry none. CIS references are on the rules themselves.
var platformRefs = map[string][]string{
	// Prowler: ecs_task_definitions_no_privileged_containers
	"aws-ecs-001": {"PCI-DSS-4.0:7.2.1", "PCI-DSS-4.0:7.2.2", "PCI-DSS-4.0:7.2.3"},
	// Prowler: ecs_task_definitions_no_environment_secrets
	"aws-ecs-004": {"PCI-DSS-4.0:3.5.1", "PCI-DSS-4.0:8.2.2", "PCI-DSS-4.0:8.3.2"},
	// Prowler: ecs_task_definitions_logging_enabled
	"aws-ecs-005": {"PCI-DSS-4.0:5.3.4", "PCI-DSS-4.0:10.2.1", "PCI-DSS-4.0:10.2.1.1", "PCI-DSS-4.0:10.2.1.2", "PCI-DSS-4.0:10.2.1.3", "PCI-DSS-4.0:10.2.1.4", "PCI-DSS-4.0:10.2.1.5", "PCI-DSS-4.0:10.2.1.6", "PCI-DSS-4.0:10.2.1.7", "PCI-DSS-4.0:10.2.2", "PCI-DSS-4.0:10.3.1", "PCI-DSS-4.0:10.6.3", "PCI-DSS-4.0:A1.2.1"},
	// Prowler: ecs_task_definitions_containers_readonly_access
	"aws-ecs-006": {"PCI-DSS-4.0:3.5.1.3", "PCI-DSS-4.0:7.2.1", "PCI-DSS-4.0:7.2.2", "PCI-DSS-4.0:7.2.5", "PCI-DSS-4.0:7.2.6", "PCI-DSS-4.0:7.3.1", "PCI-DSS-4.0:7.3.2", "PCI-DSS-4.0:7.3.3", "PCI-DSS-4.0:8.2.7", "PCI-DSS-4.0:8.2.8", "PCI-DSS-4.0:8.3.4", "PCI-DSS-4.0:10.3.2", "PCI-DSS-4.0:10.6.3", "PCI-DSS-4.0:A1.1.2", "PCI-DSS-4.0:A3.4.1"},
	// Prowler: ecs_task_definitions_host_namespace_not_shared
	"aws-ecs-007": {"PCI-DSS-4.0:1.4.5"},
	// Prowler: ecs_service_fargate_latest_platform_version
	"aws-ecs-016": {"PCI-DSS-4.0:6.3.3"},
	// Prowler: eks_cluster_not_publicly_accessible
	"aws-eks-001": {"PCI-DSS-4.0:1.2.8", "PCI-DSS-4.0:1.3.1", "PCI-DSS-4.0:1.3.2", "PCI-DSS-4.0:1.4.2", "PCI-DSS-4.0:1.5.1", "PCI-DSS-4.0:A1.1.3"},
	// Prowler: eks_cluster_kms_cmk_encryption_in_secrets_enabled
	"aws-eks-002": {"PCI-DSS-4.0:3.5.1", "PCI-DSS-4.0:8.3.2"},
	// Prowler: eks_control_plane_logging_all_types_enabled
	"aws-eks-003": {"PCI-DSS-4.0:5.3.4", "PCI-DSS-4.0:10.2.1", "PCI-DSS-4.0:10.2.1.1", "PCI-DSS-4.0:10.2.1.2", "PCI-DSS-4.0:10.2.1.3", "PCI-DSS-4.0:10.2.1.4", "PCI-DSS-4.0:10.2.1.5", "PCI-DSS-4.0:10.2.1.6", "PCI-DSS-4.0:10.2.1.7", "PCI-DSS-4.0:10.2.2", "PCI-DSS-4.0:10.3.1", "PCI-DSS-4.0:10.6.3", "PCI-DSS-4.0:A1.2.1"},
	// Prowler: eks_cluster_uses_a_supported_version
	"aws-eks-005": {"PCI-DSS-4.0:6.3.3"},
	// Prowler: codebuild_project_no_secrets_in_variables
	"aws-codebuild-002": {"PCI-DSS-4.0:3.5.1", "PCI-DSS-4.0:7.2.1", "PCI-DSS-4.0:7.2.2", "PCI-DSS-4.0:7.2.3", "PCI-DSS-4.0:8.2.2", "PCI-DSS-4.0:8.3.2"},
	// Prowler: codebuild_project_source_repo_url_no_sensitive_credentials
	"aws-codebuild-003": {"PCI-DSS-4.0:1.2.8", "PCI-DSS-4.0:1.3.1", "PCI-DSS-4.0:1.3.2", "PCI-DSS-4.0:1.4.2", "PCI-DSS-4.0:1.5.1", "PCI-DSS-4.0:A1.1.3"},
	// Prowler: codebuild_project_s3_logs_encrypted
	"aws-codebuild-005": {"PCI-DSS-4.0:3.5.1", "PCI-DSS-4.0:8.3.2"},
	// Prowler: codebuild_project_logging_enabled
	"aws-codebuild-006": {"PCI-DSS-4.0:5.3.4", "PCI-DSS-4.0:10.2.1", "PCI-DSS-4.0:10.2.1.1", "PCI-DSS-4.0:10.2.1.2", "PCI-DSS-4.0:10.2.1.3", "PCI-DSS-4.0:10.2.1.4", "PCI-DSS-4.0:10.2.1.5", "PCI-DSS-4.0:10.2.1.6", "PCI-DSS-4.0:10.2.1.7", "PCI-DSS-4.0:10.2.2", "PCI-DSS-4.0:10.3.1", "PCI-DSS-4.0:10.6.3", "PCI-DSS-4.0:A1.2.1"},
	// Prowler: stepfunctions_statemachine_logging_enabled
	"aws-sfn-001": {"PCI-DSS-4.0:5.3.4", "PCI-DSS-4.0:10.2.1", "PCI-DSS-4.0:10.2.1.1", "PCI-DSS-4.0:10.2.1.2", "PCI-DSS-4.0:10.2.1.3", "PCI-DSS-4.0:10.2.1.4", "PCI-DSS-4.0:10.2.1.5", "PCI-DSS-4.0:10.2.1.6", "PCI-DSS-4.0:10.2.1.7", "PCI-DSS-4.0:10.2.2", "PCI-DSS-4.0:10.3.1", "PCI-DSS-4.0:10.6.3", "PCI-DSS-4.0:A1.2.1", "SOC2:PI1.3"},
	// Prowler: cloudwatch_alarm_actions_alarm_state_configured
	"aws-cloudwatch-001": {"PCI-DSS-4.0:10.2.1.1", "PCI-DSS-4.0:10.4.1", "PCI-DSS-4.0:10.4.1.1", "PCI-DSS-4.0:10.4.2", "PCI-DSS-4.0:10.4.3", "PCI-DSS-4.0:10.6.3", "PCI-DSS-4.0:10.7.1", "PCI-DSS-4.0:10.7.2", "PCI-DSS-4.0:11.5.2", "PCI-DSS-4.0:11.6.1", "PCI-DSS-4.0:12.10.5", "PCI-DSS-4.0:A3.3.1", "PCI-DSS-4.0:A3.5.1"},
	// Prowler: secretsmanager_automatic_rotation_enabled
	"aws-secretsmanager-002": {"NIST-800-53-r5:AC-2(1)", "NIST-800-53-r5:AC-3(3)", "NIST-800-53-r5:AC-3(4)", "NIST-800-53-r5:AC-3(8)", "NIST-800-53-r5:AC-3(12)", "NIST-800-53-r5:AC-3(13)", "NIST-800-53-r5:AC-3(15)", "NIST-800-53-r5:AC-4(28)", "NIST-800-53-r5:AC-24", "NIST-800-53-r5:CM-5(1)", "NIST-800-53-r5:SC-23(3)", "PCI-DSS-4.0:3.5.1", "PCI-DSS-4.0:8.2.2", "PCI-DSS-4.0:8.3.2", "PCI-DSS-4.0:8.3.5", "PCI-DSS-4.0:8.3.7", "PCI-DSS-4.0:8.3.9", "PCI-DSS-4.0:8.3.10.1", "PCI-DSS-4.0:8.6.3"},
}

func init() {
	for id, refs := range platformRefs {
		frameworkRefs[id] = append(frameworkRefs[id], refs...)
	}
}
