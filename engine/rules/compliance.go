package rules

import (
	inv "github.com/fourd-dev/fourd/engine/inventory"
)

// RequiredTags are the tags every taggable resource must carry. Keys match
// ignoring case, '-' and '_' ("Cost-Center", "cost_center").
var RequiredTags = []string{"owner", "environment", "costcenter"}

// taggable are the canonical types whose resources carry tags.
var taggable = []string{
	inv.TypeS3Bucket, inv.TypeSecurityGroup, inv.TypeInstance, inv.TypeEBSVolume, inv.TypeEBSSnapshot,
	inv.TypeDBInstance, inv.TypeEIP, inv.TypeLB, inv.TypeCloudTrail, inv.TypeKMSKey, inv.TypeIAMUser, inv.TypeVPC,
	inv.TypeLambdaFunction, inv.TypeAutoScalingGroup, inv.TypeElastiCacheCluster, inv.TypeDynamoDBTable,
	inv.TypeEFSFileSystem, inv.TypeCloudFrontDistribution, inv.TypeSQSQueue, inv.TypeSNSTopic, inv.TypeLogGroup,
	inv.TypeRDSCluster, inv.TypeRDSClusterSnapshot, inv.TypeRedshiftCluster,
	inv.TypeSubnet, inv.TypeRouteTable, inv.TypeNetworkACL, inv.TypeNATGateway, inv.TypeVPCEndpoint, inv.TypeTransitGateway, inv.TypeVPNConnection,
	inv.TypeECSTaskDefinition, inv.TypeECSCluster, inv.TypeECSService, inv.TypeEKSCluster,
	inv.TypeOpenSearchDomain, inv.TypeKinesisStream, inv.TypeFirehoseStream, inv.TypeMSKCluster,
	inv.TypeClassicLoadBalancer, inv.TypeLaunchTemplate, inv.TypeAPIGatewayStage, inv.TypeAPIGatewayV2Stage, inv.TypeWAFv2WebACL,
	inv.TypeRoute53Zone, inv.TypeACMCertificate, inv.TypeNetworkFirewall,
	inv.TypeCodeBuildProject, inv.TypeSFNStateMachine, inv.TypeCloudWatchAlarm, inv.TypeCognitoIdentityPool,
	inv.TypeACMPCACertAuthority, inv.TypeAccessAnalyzerAnalyzer,
	inv.TypeBackupPlan, inv.TypeBackupVault, inv.TypeSageMakerNotebook, inv.TypeSageMakerEndpointConfig, inv.TypeAthenaWorkgroup, inv.TypeGlueJob,
}

func complianceRules() []Rule {
	return []Rule{
		{ID: "aws-tag-001", Dimension: compliance, Severity: low, ResourceTypes: taggable,
			Title:       "Resource is missing required tags",
			Description: "The resource lacks one of the tags owner, environment and cost-center that cost allocation, ownership and incident response rely on.",
			Remediation: "Add the missing tags, and enforce them with a tag policy or an SCP on creation.",
			Check: func(s *Subject) Result {
				var missing []string
				for _, k := range RequiredTags {
					if v, ok := tag(s.Resource.Tags, k); !ok || v == "" {
						missing = append(missing, k)
					}
				}
				return failIf(s, len(missing) > 0, func() map[string]any { return map[string]any{"missing_tags": missing} })
			}},
		{ID: "aws-s3-008", Dimension: compliance, Severity: low, ResourceTypes: []string{inv.TypeS3Bucket},
			Title:       "S3 bucket server access logging is disabled",
			Description: "Requests to the bucket are not logged, which leaves no record for an investigation.",
			Remediation: "Enable server access logging to a dedicated log bucket (or CloudTrail S3 data events).",
			Check: func(s *Subject) Result {
				b := get[inv.S3Bucket](s)
				return escalateIfSensitive(failIfRecorded(s, b.LoggingTargetBucket == "", "logging_target_bucket", func() map[string]any {
					return map[string]any{"bucket": b.Bucket, "logging_target_bucket": b.LoggingTargetBucket}
				}), s, medium)
			}},
		{ID: "aws-s3-009", Dimension: compliance, Severity: low, ResourceTypes: []string{inv.TypeS3Bucket},
			Compliance:  []string{"CIS-AWS-3.0.0:2.1.2", "CIS-AWS-4.0.1:2.1.2"},
			Title:       "S3 bucket versioning has no MFA delete",
			Description: "A versioned bucket without MFA delete lets stolen credentials delete versions permanently.",
			Remediation: "Enable MFA delete with the root user's MFA: aws s3api put-bucket-versioning --versioning-configuration Status=Enabled,MFADelete=Enabled --mfa ….",
			Check: func(s *Subject) Result {
				b := get[inv.S3Bucket](s)
				return failIfRecorded(s, b.Versioning == "Enabled" && !b.MFADelete, "mfa_delete", func() map[string]any {
					return map[string]any{"bucket": b.Bucket, "versioning": b.Versioning, "mfa_delete": b.MFADelete}
				})
			}},
		{ID: "aws-vpc-001", Dimension: compliance, Severity: medium, ResourceTypes: []string{inv.TypeVPC},
			Compliance:  []string{"CIS-AWS-3.0.0:3.7", "CIS-AWS-4.0.1:3.7"},
			Title:       "VPC flow logging is disabled",
			Description: "Network traffic in the VPC is not recorded, so rejected and suspicious connections leave no trace. Judged only when the input records flow logs: an AWS Config import with AWS::EC2::FlowLog items for the VPC's account, or a Terraform state with aws_flow_log resources, where a VPC without an active one has them off; an input with no flow log at all for the account leaves the check not evaluated.",
			Remediation: "Create a flow log for the VPC (at least REJECT traffic) to CloudWatch Logs or S3.",
			Check: func(s *Subject) Result {
				v := get[inv.VPC](s)
				return failUnless(s, v.FlowLogsEnabled, "flow_logs_enabled", func() map[string]any {
					return map[string]any{"vpc_id": v.VPCID, "is_default": v.IsDefault, "flow_logs_enabled": v.FlowLogsEnabled != nil && *v.FlowLogsEnabled}
				})
			}},
		{ID: "aws-cloudtrail-002", Dimension: compliance, Severity: medium, ResourceTypes: []string{inv.TypeCloudTrail},
			Compliance:  []string{"CIS-AWS-3.0.0:3.2", "CIS-AWS-4.0.1:3.2"},
			Title:       "CloudTrail log file validation is disabled",
			Description: "Without digest files, tampering with delivered logs cannot be detected.",
			Remediation: "Enable log file validation: aws cloudtrail update-trail --name TRAIL --enable-log-file-validation.",
			Check: func(s *Subject) Result {
				t := get[inv.CloudTrail](s)
				return failIfRecorded(s, !t.LogFileValidationEnabled, "log_file_validation_enabled", func() map[string]any {
					return map[string]any{"trail": t.Name, "log_file_validation_enabled": t.LogFileValidationEnabled}
				})
			}},
		{ID: "aws-cloudtrail-003", Dimension: compliance, Severity: medium, ResourceTypes: []string{inv.TypeCloudTrail},
			Compliance:  []string{"CIS-AWS-3.0.0:3.5", "CIS-AWS-4.0.1:3.5"},
			Title:       "CloudTrail logs are not encrypted with a KMS key",
			Description: "Logs are encrypted only with S3-managed keys, so anyone who can read the bucket can read them.",
			Remediation: "Configure the trail with a customer managed KMS key (SSE-KMS).",
			Check: func(s *Subject) Result {
				t := get[inv.CloudTrail](s)
				return failIfRecorded(s, t.KMSKeyID == "", "kms_key_id", func() map[string]any { return map[string]any{"trail": t.Name, "kms_key_id": t.KMSKeyID} })
			}},
		{ID: "aws-cloudtrail-004", Dimension: compliance, Severity: low, ResourceTypes: []string{inv.TypeCloudTrail},
			Title:       "CloudTrail is not integrated with CloudWatch Logs",
			Description: "Events are not delivered to CloudWatch Logs, so the CIS monitoring metric filters and alarms cannot work.",
			Remediation: "Configure the trail to deliver to a CloudWatch Logs log group.",
			Check: func(s *Subject) Result {
				t := get[inv.CloudTrail](s)
				return failIfRecorded(s, t.CloudWatchLogsLogGroupARN == "", "cloud_watch_logs_log_group_arn", func() map[string]any {
					return map[string]any{"trail": t.Name, "cloud_watch_logs_log_group_arn": t.CloudWatchLogsLogGroupARN}
				})
			}},
		{ID: "aws-cloudtrail-005", Dimension: compliance, Severity: low, ResourceTypes: []string{inv.TypeCloudTrail},
			Compliance:  []string{"CIS-AWS-3.0.0:3.8", "CIS-AWS-3.0.0:3.9", "CIS-AWS-4.0.1:3.8", "CIS-AWS-4.0.1:3.9"},
			Title:       "CloudTrail does not record S3 object-level events",
			Description: "Reads and writes of S3 objects are not logged.",
			Remediation: "Add a data event selector for AWS::S3::Object (all buckets, read and write) to a multi-region trail.",
			Check: func(s *Subject) Result {
				t := get[inv.CloudTrail](s)
				return failUnless(s, t.S3DataEvents, "s3_data_events", func() map[string]any { return map[string]any{"trail": t.Name, "s3_data_events": t.S3DataEvents} })
			}},
		{ID: "aws-iam-008", Dimension: compliance, Severity: medium, ResourceTypes: []string{inv.TypeIAMAccount},
			Compliance:  []string{"CIS-AWS-3.0.0:1.8", "CIS-AWS-4.0.1:1.8"},
			Title:       "IAM password policy requires fewer than 14 characters",
			Description: "The account has no password policy, or it accepts passwords shorter than 14 characters.",
			Remediation: "aws iam update-account-password-policy --minimum-password-length 14 (with the other settings you need).",
			Check: func(s *Subject) Result {
				p := get[inv.IAMAccount](s).PasswordPolicy
				if p == nil {
					return failIfRecorded(s, true, "password_policy", func() map[string]any { return map[string]any{"password_policy": nil} })
				}
				return failIf(s, p.MinimumPasswordLength < 14, func() map[string]any { return map[string]any{"minimum_password_length": p.MinimumPasswordLength} })
			}},
		{ID: "aws-iam-009", Dimension: compliance, Severity: low, ResourceTypes: []string{inv.TypeIAMAccount},
			Compliance:  []string{"CIS-AWS-3.0.0:1.9", "CIS-AWS-4.0.1:1.9"},
			Title:       "IAM password policy allows password reuse",
			Description: "The password policy does not prevent reusing any of the last 24 passwords.",
			Remediation: "aws iam update-account-password-policy --password-reuse-prevention 24.",
			Check: func(s *Subject) Result {
				p := get[inv.IAMAccount](s).PasswordPolicy
				if p == nil {
					return failIfRecorded(s, true, "password_policy", func() map[string]any { return map[string]any{"password_policy": nil} })
				}
				return failIf(s, p.PasswordReusePrevention < 24, func() map[string]any { return map[string]any{"password_reuse_prevention": p.PasswordReusePrevention} })
			}},
		{ID: "aws-iam-010", Dimension: compliance, Severity: low, ResourceTypes: []string{inv.TypeIAMUser},
			Compliance:  []string{"CIS-AWS-3.0.0:1.15", "CIS-AWS-4.0.1:1.15"},
			Title:       "IAM user has policies attached directly",
			Description: "Permissions granted to individual users instead of groups or roles are hard to review and to revoke.",
			Remediation: "Move the user's managed and inline policies to a group (or a role) and add the user to it.",
			Check: func(s *Subject) Result {
				u := get[inv.IAMUser](s)
				n := len(u.AttachedPolicyARNs) + len(u.InlinePolicyNames)
				return failIf(s, n > 0, func() map[string]any {
					return map[string]any{"user_name": u.UserName, "attached_policies": u.AttachedPolicyARNs, "inline_policies": u.InlinePolicyNames}
				})
			}},
		{ID: "aws-iam-011", Dimension: compliance, Severity: medium, ResourceTypes: []string{inv.TypeIAMAccount},
			Compliance:  []string{"CIS-AWS-3.0.0:1.6", "CIS-AWS-4.0.1:1.6"},
			Title:       "Root user has no hardware MFA",
			Description: "The root user's MFA is a virtual device (or none), which CIS level 2 does not accept.",
			Remediation: "Register a hardware MFA device (FIDO2 security key) for the root user.",
			Check: func(s *Subject) Result {
				a := get[inv.IAMAccount](s)
				if !a.RootHardwareMFA && !s.recorded("root_hardware_mfa") && !(s.recorded("root_mfa_enabled") && !a.RootMFAEnabled) {
					return notEvaluated("root_hardware_mfa")
				}
				return failIf(s, !a.RootHardwareMFA, func() map[string]any {
					return map[string]any{"account_id": s.Resource.Account, "root_mfa_enabled": a.RootMFAEnabled, "root_hardware_mfa": a.RootHardwareMFA}
				})
			}},
		{ID: "aws-kms-001", Dimension: compliance, Severity: medium, ResourceTypes: []string{inv.TypeKMSKey},
			Compliance:  []string{"CIS-AWS-3.0.0:3.6", "CIS-AWS-4.0.1:3.6"},
			Title:       "KMS key rotation is disabled",
			Description: "A customer managed symmetric key is not rotated yearly.",
			Remediation: "aws kms enable-key-rotation --key-id ID.",
			Check: func(s *Subject) Result {
				k := get[inv.KMSKey](s)
				applies := k.KeyManager == "CUSTOMER" && k.KeyState == "Enabled" && (k.KeySpec == "" || k.KeySpec == "SYMMETRIC_DEFAULT")
				if !applies {
					return passed(s, func() map[string]any {
						return map[string]any{"key_id": k.KeyID, "key_manager": k.KeyManager, "key_state": k.KeyState, "key_spec": k.KeySpec, "rotation_applies": false}
					})
				}
				return failUnless(s, k.KeyRotationEnabled, "key_rotation_enabled", func() map[string]any {
					return map[string]any{"key_id": k.KeyID, "key_manager": k.KeyManager, "key_state": k.KeyState}
				})
			}},
		{ID: "aws-rds-008", Dimension: compliance, Severity: low, ResourceTypes: []string{inv.TypeDBInstance},
			Compliance:  []string{"CIS-AWS-3.0.0:2.3.2", "CIS-AWS-4.0.1:2.2.2"},
			Title:       "RDS auto minor version upgrade is disabled",
			Description: "Security patches in minor engine versions are not applied automatically.",
			Remediation: "Enable auto minor version upgrade on the instance.",
			Check: func(s *Subject) Result {
				d := get[inv.DBInstance](s)
				return failIfRecorded(s, !d.AutoMinorVersionUpgrade, "auto_minor_version_upgrade", func() map[string]any {
					return map[string]any{"identifier": d.Identifier, "engine_version": d.EngineVersion, "auto_minor_version_upgrade": d.AutoMinorVersionUpgrade}
				})
			}},
		{ID: "aws-efs-003", Dimension: compliance, Severity: medium, ResourceTypes: []string{inv.TypeEFSFileSystem},
			Compliance:  []string{"CIS-AWS-3.0.0:2.4.1", "CIS-AWS-4.0.1:2.3.1"},
			Title:       "EFS file system is not encrypted",
			Description: "The file system's data is not encrypted at rest.",
			Remediation: "Create an encrypted file system, copy the data (AWS DataSync), and switch clients over.",
			Check: func(s *Subject) Result {
				f := get[inv.EFSFileSystem](s)
				return escalateIfSensitive(failIfRecorded(s, !f.Encrypted, "encrypted", func() map[string]any {
					return map[string]any{"file_system_id": f.FileSystemID, "encrypted": f.Encrypted}
				}), s, high)
			}},
		{ID: "aws-sqs-002", Dimension: compliance, Severity: low, ResourceTypes: []string{inv.TypeSQSQueue},
			Title:       "SQS queue is not encrypted at rest",
			Description: "Neither SQS-managed nor KMS server-side encryption is enabled.",
			Remediation: "Enable SqsManagedSseEnabled, or set KmsMasterKeyId to a customer managed key.",
			Check: func(s *Subject) Result {
				q := get[inv.SQSQueue](s)
				switch {
				case q.KMSMasterKeyID != "":
					return passed(s, func() map[string]any { return map[string]any{"queue": q.Name, "kms_master_key_id": q.KMSMasterKeyID} })
				case q.SQSManagedSSEEnabled == nil:
					return notEvaluated("sqs_managed_sse_enabled")
				}
				return failIf(s, !*q.SQSManagedSSEEnabled, func() map[string]any {
					return map[string]any{"queue": q.Name, "sqs_managed_sse_enabled": *q.SQSManagedSSEEnabled}
				})
			}},
		{ID: "aws-sns-001", Dimension: compliance, Severity: low, ResourceTypes: []string{inv.TypeSNSTopic},
			Title:       "SNS topic is not encrypted with KMS",
			Description: "Messages published to the topic are stored without KMS encryption.",
			Remediation: "Set the topic's KmsMasterKeyId (alias/aws/sns or a customer managed key).",
			Check: func(s *Subject) Result {
				t := get[inv.SNSTopic](s)
				return failIfRecorded(s, t.KMSMasterKeyID == "", "kms_master_key_id", func() map[string]any { return map[string]any{"topic": t.Name, "kms_master_key_id": t.KMSMasterKeyID} })
			}},
		{ID: "aws-elasticache-005", Dimension: compliance, Severity: medium, ResourceTypes: []string{inv.TypeElastiCacheCluster},
			Title:       "ElastiCache cluster is not encrypted at rest",
			Description: "The cache's data on disk and in backups is not encrypted.",
			Remediation: "Create a new cluster with at-rest encryption from a backup and switch clients over.",
			Check: func(s *Subject) Result {
				c := get[inv.ElastiCacheCluster](s)
				if c.Engine == "memcached" {
					return passed(s, func() map[string]any { return map[string]any{"cluster_id": c.ClusterID, "engine": c.Engine} })
				}
				return failUnless(s, c.AtRestEncryptionEnabled, "at_rest_encryption_enabled", func() map[string]any {
					return map[string]any{"cluster_id": c.ClusterID, "engine": c.Engine, "at_rest_encryption_enabled": c.AtRestEncryptionEnabled}
				})
			}},
		{ID: "aws-elb-004", Dimension: compliance, Severity: low, ResourceTypes: []string{inv.TypeLB},
			Title:       "Load balancer access logging is disabled",
			Description: "Requests through the load balancer are not logged.",
			Remediation: "Enable access logs to an S3 bucket (attribute access_logs.s3.enabled).",
			Check: func(s *Subject) Result {
				lb := get[inv.LoadBalancer](s)
				return failUnless(s, lb.AccessLogsEnabled, "access_logs_enabled", func() map[string]any { return map[string]any{"name": lb.Name} })
			}},
		{ID: "aws-cloudfront-003", Dimension: compliance, Severity: low, ResourceTypes: []string{inv.TypeCloudFrontDistribution},
			Title:       "CloudFront access logging is disabled",
			Description: "Viewer requests are not logged.",
			Remediation: "Enable standard logging to an S3 bucket.",
			Check: func(s *Subject) Result {
				d := get[inv.CloudFrontDistribution](s)
				return failIfRecorded(s, d.LoggingBucket == "", "logging_bucket", func() map[string]any {
					return map[string]any{"distribution_id": d.DistributionID, "logging_bucket": d.LoggingBucket}
				})
			}},
		{ID: "aws-config-001", Dimension: compliance, Severity: low, ResourceTypes: []string{inv.TypeConfigRecorder},
			Compliance:  []string{"CIS-AWS-3.0.0:3.3", "CIS-AWS-4.0.1:3.3"},
			Title:       "AWS Config recorder does not record all resource types",
			Description: "The recorder is off, or skips resource types or global resources, leaving gaps in the configuration history.",
			Remediation: "Record all supported resource types (and global ones in one region), and start the recorder.",
			Check: func(s *Subject) Result {
				r := get[inv.ConfigRecorder](s)
				off := r.Recording != nil && !*r.Recording
				switch {
				case !off && !r.AllSupported && !s.recorded("all_supported"):
					return notEvaluated("all_supported")
				case !off && r.AllSupported && r.Recording == nil:
					return notEvaluated("recording")
				}
				return failIf(s, off || !r.AllSupported, func() map[string]any {
					return map[string]any{"recorder": r.Name, "recording": r.Recording, "all_supported": r.AllSupported}
				})
			}},
		{ID: "aws-logs-002", Dimension: compliance, Severity: low, ResourceTypes: []string{inv.TypeLogGroup},
			Title:       "CloudWatch log group is not encrypted with KMS",
			Description: "Log data is encrypted only with CloudWatch's own keys; access cannot be governed with a key policy.",
			Remediation: "Associate a customer managed KMS key: aws logs associate-kms-key.",
			Check: func(s *Subject) Result {
				l := get[inv.LogGroup](s)
				return failIfRecorded(s, l.KMSKeyID == "", "kms_key_id", func() map[string]any { return map[string]any{"log_group": l.Name, "kms_key_id": l.KMSKeyID} })
			}},
	}
}
