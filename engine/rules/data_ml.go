package rules

import (
	"strings"

	inv "github.com/fourd-dev/fourd/engine/inventory"
)

// deprecatedGlue are the AWS Glue versions past end of support.
var deprecatedGlue = map[string]bool{"0.9": true, "1.0": true, "2.0": true}

// dataMLRules are the checks of SageMaker notebooks and endpoint
// configurations, Athena workgroups and Glue jobs (issue 29 §4).
func dataMLRules() []Rule {
	return []Rule{
		{ID: "aws-sagemaker-001", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeSageMakerNotebook},
			Title:       "SageMaker notebook instance has direct internet access",
			Description: "The notebook reaches the internet through SageMaker's own network, bypassing the VPC's controls, and data can leave without passing any egress filter.",
			Remediation: "Recreate the notebook in a VPC subnet with --direct-internet-access Disabled (Terraform: direct_internet_access = \"Disabled\"), routing egress through a NAT gateway or endpoints.",
			Check: func(s *Subject) Result {
				n := get[inv.SageMakerNotebook](s)
				return failIf(s, n.DirectInternetAccess == "Enabled", func() map[string]any {
					return map[string]any{"notebook": n.Name, "direct_internet_access": n.DirectInternetAccess}
				})
			}},
		{ID: "aws-sagemaker-002", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeSageMakerNotebook},
			Title:       "SageMaker notebook instance gives users root access",
			Description: "Notebook users can become root on the instance, install anything and change its configuration.",
			Remediation: "aws sagemaker update-notebook-instance --notebook-instance-name NAME --root-access Disabled (Terraform: root_access = \"Disabled\").",
			Check: func(s *Subject) Result {
				n := get[inv.SageMakerNotebook](s)
				if n.RootAccess == "" {
					return notEvaluated("root_access")
				}
				return failIf(s, n.RootAccess == "Enabled", func() map[string]any { return map[string]any{"notebook": n.Name, "root_access": n.RootAccess} })
			}},
		{ID: "aws-sagemaker-003", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeSageMakerNotebook},
			Title:       "SageMaker notebook storage has no KMS key",
			Description: "The notebook's ML storage volume is not encrypted with a KMS key of the account.",
			Remediation: "Recreate the notebook with --kms-key-id KEY (Terraform: kms_key_id), copying its data from the old volume.",
			Check: func(s *Subject) Result {
				n := get[inv.SageMakerNotebook](s)
				return escalateIfSensitive(failIfRecorded(s, n.KMSKeyID == "", "kms_key_id", func() map[string]any { return map[string]any{"notebook": n.Name, "kms_key_id": n.KMSKeyID} }), s, high)
			}},
		{ID: "aws-sagemaker-004", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeSageMakerNotebook},
			Title:       "SageMaker notebook instance is not in a VPC",
			Description: "The notebook has no VPC subnet: security groups, flow logs and VPC endpoints do not apply to it.",
			Remediation: "Recreate the notebook with --subnet-id and --security-group-ids (Terraform: subnet_id, security_groups).",
			Check: func(s *Subject) Result {
				n := get[inv.SageMakerNotebook](s)
				return failIfRecorded(s, n.SubnetID == "", "subnet_id", func() map[string]any { return map[string]any{"notebook": n.Name, "subnet_id": n.SubnetID} })
			}},
		{ID: "aws-sagemaker-005", Dimension: cost, Severity: low, ResourceTypes: []string{inv.TypeSageMakerNotebook},
			Title:       "SageMaker notebook uses a previous-generation instance type",
			Description: "Previous-generation notebook instances (ml.t2, ml.m4, ml.c4, ml.p2…) cost more for less than current ones.",
			Remediation: "aws sagemaker update-notebook-instance --notebook-instance-name NAME --instance-type ml.t3.medium (or ml.m5/ml.m6i) while it is stopped.",
			Check: func(s *Subject) Result {
				n := get[inv.SageMakerNotebook](s)
				return failIf(s, previousGenerationManaged(instanceFamily(strings.TrimPrefix(n.InstanceType, "ml."))),
					func() map[string]any {
						return notEstimated(map[string]any{"notebook": n.Name, "instance_type": n.InstanceType}, unpriced("SageMaker instances"))
					})
			}},
		{ID: "aws-sagemaker-006", Dimension: security, Severity: low, ResourceTypes: []string{inv.TypeSageMakerEndpointConfig},
			Title:       "SageMaker endpoint configuration has no KMS key",
			Description: "The ML storage volumes of the endpoint's instances are not encrypted with a KMS key of the account.",
			Remediation: "Create a new endpoint configuration with --kms-key-id KEY (Terraform: kms_key_arn) and update the endpoint to it.",
			Check: func(s *Subject) Result {
				e := get[inv.SageMakerEndpointConfig](s)
				instances := false
				for _, v := range e.Variants {
					instances = instances || !v.Serverless
				}
				if !instances {
					return passed(s, func() map[string]any { return map[string]any{"endpoint_config": e.Name, "serverless": true} })
				}
				return failIfRecorded(s, e.KMSKeyID == "", "kms_key_id", func() map[string]any { return map[string]any{"endpoint_config": e.Name, "kms_key_id": e.KMSKeyID} })
			}},
		{ID: "aws-sagemaker-007", Dimension: architecture, Severity: medium, ResourceTypes: []string{inv.TypeSageMakerEndpointConfig},
			Title:       "SageMaker endpoint variant runs on a single instance",
			Description: "A production variant starts with one instance: an instance or zone failure takes the model offline until SageMaker replaces it.",
			Remediation: "Create an endpoint configuration whose variants have InitialInstanceCount of 2 or more (SageMaker spreads them across zones) and update the endpoint.",
			Check: func(s *Subject) Result {
				e := get[inv.SageMakerEndpointConfig](s)
				var single []string
				for _, v := range e.Variants {
					if !v.Serverless && v.InitialInstanceCount < 2 {
						single = append(single, v.VariantName)
					}
				}
				return failIf(s, len(single) > 0, func() map[string]any {
					return map[string]any{"endpoint_config": e.Name, "single_instance_variants": single}
				})
			}},
		{ID: "aws-athena-001", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeAthenaWorkgroup},
			Title:       "Athena workgroup does not encrypt query results",
			Description: "Query results written to S3 by the workgroup are not encrypted by Athena.",
			Remediation: "aws athena update-work-group --work-group NAME --configuration-updates ResultConfigurationUpdates={EncryptionConfiguration={EncryptionOption=SSE_KMS,KmsKey=KEY}},EnforceWorkGroupConfiguration=true.",
			Check: func(s *Subject) Result {
				w := get[inv.AthenaWorkgroup](s)
				return escalateIfSensitive(failIfRecorded(s, w.ResultEncryption == "", "result_encryption", func() map[string]any {
					return map[string]any{"workgroup": w.Name, "state": w.State, "result_encryption": w.ResultEncryption}
				}), s, high)
			}},
		{ID: "aws-athena-002", Dimension: security, Severity: low, ResourceTypes: []string{inv.TypeAthenaWorkgroup},
			Title:       "Athena workgroup lets clients override its settings",
			Description: "EnforceWorkGroupConfiguration is off: each client may choose its own result location and encryption, bypassing the workgroup's.",
			Remediation: "aws athena update-work-group --work-group NAME --configuration-updates EnforceWorkGroupConfiguration=true.",
			Check: func(s *Subject) Result {
				w := get[inv.AthenaWorkgroup](s)
				return failIfRecorded(s, !w.EnforceConfiguration, "enforce_workgroup_configuration", func() map[string]any {
					return map[string]any{"workgroup": w.Name, "enforce_workgroup_configuration": w.EnforceConfiguration}
				})
			}},
		{ID: "aws-athena-003", Dimension: cost, Severity: low, ResourceTypes: []string{inv.TypeAthenaWorkgroup},
			Title:       "Athena workgroup has no per-query scan limit",
			Description: "No BytesScannedCutoffPerQuery is set: one query over an unpartitioned table can scan, and bill, terabytes.",
			Remediation: "aws athena update-work-group --work-group NAME --configuration-updates BytesScannedCutoffPerQuery=10737418240 (10 GiB, or what the workload needs).",
			Check: func(s *Subject) Result {
				w := get[inv.AthenaWorkgroup](s)
				if w.State == "DISABLED" {
					return passed(s, func() map[string]any { return map[string]any{"workgroup": w.Name, "state": w.State} })
				}
				if m := s.unrecorded("state", "bytes_scanned_cutoff_per_query"); w.BytesScannedCutoffPerQuery == 0 && len(m) > 0 {
					return notEvaluated(m...)
				}
				return failIf(s, w.BytesScannedCutoffPerQuery == 0, func() map[string]any {
					return notEstimated(map[string]any{"workgroup": w.Name, "state": w.State, "bytes_scanned_cutoff_per_query": 0}, unpriced("Athena scans"))
				})
			}},
		{ID: "aws-athena-004", Dimension: compliance, Severity: low, ResourceTypes: []string{inv.TypeAthenaWorkgroup},
			Title:       "Athena workgroup publishes no CloudWatch metrics",
			Description: "Query metrics (data scanned, run time, failures) are not published, so usage and anomalies go unmonitored.",
			Remediation: "aws athena update-work-group --work-group NAME --configuration-updates PublishCloudWatchMetricsEnabled=true.",
			Check: func(s *Subject) Result {
				w := get[inv.AthenaWorkgroup](s)
				return failIfRecorded(s, !w.PublishCloudWatchMetrics, "publish_cloudwatch_metrics_enabled", func() map[string]any {
					return map[string]any{"workgroup": w.Name, "publish_cloudwatch_metrics_enabled": w.PublishCloudWatchMetrics}
				})
			}},
		{ID: "aws-glue-001", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeGlueJob},
			Title:       "Glue job has no security configuration",
			Description: "The job runs without a security configuration, so the data it writes to S3, its CloudWatch logs and its bookmarks are not encrypted by the job.",
			Remediation: "Create a security configuration with S3, CloudWatch and job bookmark encryption (aws glue create-security-configuration) and set it on the job (Terraform: security_configuration).",
			Check: func(s *Subject) Result {
				j := get[inv.GlueJob](s)
				return escalateIfSensitive(failIfRecorded(s, j.SecurityConfiguration == "", "security_configuration", func() map[string]any {
					return map[string]any{"job": j.Name, "security_configuration": j.SecurityConfiguration}
				}), s, high)
			}},
		{ID: "aws-glue-002", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeGlueJob},
			Title:       "Glue job runs on an unsupported Glue version",
			Description: "Glue 0.9, 1.0 and 2.0 are past end of support: no security patches, and AWS may stop running the job.",
			Remediation: "Test the job on Glue 4.0 or later and set --glue-version (Terraform: glue_version = \"4.0\").",
			Check: func(s *Subject) Result {
				j := get[inv.GlueJob](s)
				if j.GlueVersion == "" {
					return notEvaluated("glue_version")
				}
				return failIf(s, deprecatedGlue[j.GlueVersion], func() map[string]any { return map[string]any{"job": j.Name, "glue_version": j.GlueVersion} })
			}},
	}
}
