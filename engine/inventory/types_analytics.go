package inventory

import "time"

// Backup, ML and analytics types of the data family (see types_data.go).
const (
	TypeBackupPlan              = "aws_backup_plan"
	TypeBackupVault             = "aws_backup_vault"
	TypeBackupRecoveryPoint     = "aws_backup_recovery_point"
	TypeSageMakerNotebook       = "aws_sagemaker_notebook_instance"
	TypeSageMakerEndpointConfig = "aws_sagemaker_endpoint_configuration"
	TypeAthenaWorkgroup         = "aws_athena_workgroup"
	TypeGlueJob                 = "aws_glue_job"
)

// BackupPlan is the canonical attributes of aws_backup_plan.
type BackupPlan struct {
	Name  string           `json:"name"`
	Rules []BackupPlanRule `json:"rules"`
}

// BackupPlanRule is one rule of a backup plan. DeleteAfterDays is 0 when
// the rule's backups never expire.
type BackupPlanRule struct {
	RuleName        string `json:"rule_name"`
	DeleteAfterDays int    `json:"delete_after_days"`
}

// BackupVault is the canonical attributes of aws_backup_vault.
type BackupVault struct {
	Name string `json:"name"`
	// NotificationEvents are the vault events sent to an SNS topic; empty
	// when the vault notifies nobody.
	NotificationEvents []string `json:"notification_events,omitempty"`
}

// BackupRecoveryPoint is the canonical attributes of aws_backup_recovery_point.
type BackupRecoveryPoint struct {
	BackupVaultName string    `json:"backup_vault_name"`
	ResourceType    string    `json:"resource_type"` // EBS, RDS, DynamoDB, EFS, …
	IsEncrypted     bool      `json:"is_encrypted"`
	Status          string    `json:"status"` // COMPLETED, PARTIAL, DELETING, EXPIRED
	CreationDate    time.Time `json:"creation_date,omitzero"`
	// DeleteAfterDays is 0 when the recovery point never expires.
	DeleteAfterDays int `json:"delete_after_days"`
}

// SageMakerNotebook is the canonical attributes of
// aws_sagemaker_notebook_instance.
type SageMakerNotebook struct {
	Name                 string `json:"name"`
	InstanceType         string `json:"instance_type"`
	DirectInternetAccess string `json:"direct_internet_access"` // Enabled or Disabled
	// RootAccess is Enabled or Disabled; "" when not recorded.
	RootAccess string `json:"root_access"`
	KMSKeyID   string `json:"kms_key_id,omitempty"`
	SubnetID   string `json:"subnet_id,omitempty"`
}

// SageMakerEndpointConfig is the canonical attributes of
// aws_sagemaker_endpoint_configuration.
type SageMakerEndpointConfig struct {
	Name     string             `json:"name"`
	KMSKeyID string             `json:"kms_key_id,omitempty"`
	Variants []SageMakerVariant `json:"production_variants"`
}

// SageMakerVariant is one production variant of an endpoint
// configuration; Serverless variants have no instances.
type SageMakerVariant struct {
	VariantName          string `json:"variant_name"`
	InitialInstanceCount int    `json:"initial_instance_count"`
	Serverless           bool   `json:"serverless"`
}

// AthenaWorkgroup is the canonical attributes of aws_athena_workgroup.
type AthenaWorkgroup struct {
	Name  string `json:"name"`
	State string `json:"state"` // ENABLED or DISABLED
	// ResultEncryption is SSE_S3, SSE_KMS or CSE_KMS; "" when query
	// results are not encrypted.
	ResultEncryption           string `json:"result_encryption,omitempty"`
	EnforceConfiguration       bool   `json:"enforce_workgroup_configuration"`
	BytesScannedCutoffPerQuery int64  `json:"bytes_scanned_cutoff_per_query,omitempty"`
	PublishCloudWatchMetrics   bool   `json:"publish_cloudwatch_metrics_enabled"`
}

// GlueJob is the canonical attributes of aws_glue_job.
type GlueJob struct {
	Name                  string `json:"name"`
	GlueVersion           string `json:"glue_version,omitempty"` // "" when not recorded
	SecurityConfiguration string `json:"security_configuration,omitempty"`
}
