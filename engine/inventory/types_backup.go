package inventory

import "time"

// Canonical types of AWS Backup: plans, vaults and recovery points, from AWS
// Config's recorded properties (awslabs/aws-config-resource-schema,
// AWS::Backup::BackupPlan, AWS::Backup::BackupVault,
// AWS::Backup::RecoveryPoint .properties.json).
const (
	TypeBackupPlan          = "aws_backup_plan"
	TypeBackupVault         = "aws_backup_vault"
	TypeBackupRecoveryPoint = "aws_backup_recovery_point"
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
	NotificationEvents []string `json:"notification_events"`
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
