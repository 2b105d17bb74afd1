package rules

import inv "github.com/fourd-dev/fourd/engine/inventory"

// dataBackupRules are the checks of AWS Backup plans, vaults and recovery
// points (issue 29 §4).
func dataBackupRules() []Rule {
	return []Rule{
		{ID: "aws-backup-001", Dimension: architecture, Severity: medium, ResourceTypes: []string{inv.TypeBackupPlan},
			Title:       "Backup plan keeps backups for less than 7 days",
			Description: "A rule of the plan deletes its recovery points within a week: a problem noticed late has no backup left to restore from.",
			Remediation: "Set the rule's lifecycle to keep recovery points at least 7 days (aws backup update-backup-plan; Terraform: rule { lifecycle { delete_after = 35 } }).",
			Check: func(s *Subject) Result {
				p := get[inv.BackupPlan](s)
				var short []map[string]any
				for _, r := range p.Rules {
					if r.DeleteAfterDays > 0 && r.DeleteAfterDays < 7 {
						short = append(short, map[string]any{"rule": r.RuleName, "delete_after_days": r.DeleteAfterDays})
					}
				}
				return failIf(s, len(short) > 0, func() map[string]any {
					return map[string]any{"plan": p.Name, "short_rules": short, "rule_count": len(p.Rules)}
				})
			}},
		{ID: "aws-backup-002", Dimension: cost, Severity: low, ResourceTypes: []string{inv.TypeBackupPlan},
			Title:       "Backup plan keeps backups forever",
			Description: "A rule of the plan has no lifecycle: its recovery points are never deleted and their storage grows, and is billed, without end.",
			Remediation: "Give every rule a lifecycle matching the retention policy (delete_after, and cold_storage_after for long retention).",
			Check: func(s *Subject) Result {
				p := get[inv.BackupPlan](s)
				var forever []string
				for _, r := range p.Rules {
					if r.DeleteAfterDays == 0 {
						forever = append(forever, r.RuleName)
					}
				}
				return failIf(s, len(forever) > 0, func() map[string]any {
					return notEstimated(map[string]any{"plan": p.Name, "rules_without_expiry": forever}, unpriced("AWS Backup storage"))
				})
			}},
		{ID: "aws-backup-003", Dimension: architecture, Severity: low, ResourceTypes: []string{inv.TypeBackupVault},
			Title:       "Backup vault sends no notifications",
			Description: "No vault event (failed backup or restore jobs, recovery point changes) is sent to an SNS topic, so failed backups go unnoticed.",
			Remediation: "aws backup put-backup-vault-notifications --backup-vault-name NAME --sns-topic-arn ARN --backup-vault-events BACKUP_JOB_FAILED RESTORE_JOB_COMPLETED …",
			Check: func(s *Subject) Result {
				v := get[inv.BackupVault](s)
				return failIfRecorded(s, len(v.NotificationEvents) == 0, "notification_events", func() map[string]any {
					return map[string]any{"vault": v.Name, "notification_events": v.NotificationEvents}
				})
			}},
		{ID: "aws-backup-004", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeBackupRecoveryPoint},
			Title:       "Backup recovery point is not encrypted",
			Description: "The recovery point holds a copy of the resource's data without encryption at rest (backups of unencrypted sources that AWS Backup does not encrypt itself).",
			Remediation: "Encrypt the source (or copy the recovery point to a vault with a KMS key: aws backup start-copy-job), then delete the unencrypted recovery point.",
			Check: func(s *Subject) Result {
				r := get[inv.BackupRecoveryPoint](s)
				return escalateIfSensitive(failIfRecorded(s, !r.IsEncrypted, "is_encrypted", func() map[string]any {
					return map[string]any{"vault": r.BackupVaultName, "resource_type": r.ResourceType, "is_encrypted": r.IsEncrypted}
				}), s, high)
			}},
		{ID: "aws-backup-005", Dimension: cost, Severity: low, ResourceTypes: []string{inv.TypeBackupRecoveryPoint},
			Title:       "Backup recovery point never expires and is over a year old",
			Description: "The recovery point has no lifecycle and was created more than 365 days ago: it is billed until someone deletes it.",
			Remediation: "Delete it if no retention policy requires it (aws backup delete-recovery-point), or set a lifecycle (aws backup update-recovery-point-lifecycle).",
			Check: func(s *Subject) Result {
				r := get[inv.BackupRecoveryPoint](s)
				age := days(r.CreationDate, s.Now)
				if r.DeleteAfterDays > 0 || r.Status == "DELETING" || r.Status == "EXPIRED" {
					return passed(s, func() map[string]any {
						return map[string]any{"vault": r.BackupVaultName, "delete_after_days": r.DeleteAfterDays, "status": r.Status}
					})
				}
				if age < 0 {
					return notEvaluated("creation_date")
				}
				if m := s.unrecorded("delete_after_days", "status"); age > 365 && len(m) > 0 {
					return notEvaluated(m...)
				}
				return failIf(s, age > 365, func() map[string]any {
					return notEstimated(map[string]any{"vault": r.BackupVaultName, "resource_type": r.ResourceType, "age_days": age}, unpriced("AWS Backup storage"))
				})
			}},
	}
}
