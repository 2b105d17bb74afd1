package rules

import (
	inv "github.com/fourd-dev/fourd/engine/inventory"
	"github.com/fourd-dev/fourd/engine/rules/iampolicy"
)

// decryptActions are the KMS actions that reveal plaintext (AWS Security
// Hub KMS.1/KMS.2 judge the same pair).
var decryptActions = []string{"kms:Decrypt", "kms:ReEncryptFrom"}

// trailOffActions stop or remove CloudTrail's record of the account.
var trailOffActions = []string{"cloudtrail:StopLogging", "cloudtrail:DeleteTrail", "cloudtrail:UpdateTrail", "cloudtrail:PutEventSelectors"}

// allowedOnAll returns the actions of want the document allows on every
// resource whatever the context. A full-administrator document returns
// nothing: aws-iam-012/013/014/006 report it already.
func allowedOnAll(d *iampolicy.Document, want []string) []string {
	if d == nil {
		return nil
	}
	if _, admin := d.FullAdmin(); admin {
		return nil
	}
	var out []string
	for _, a := range want {
		if d.AllowsOnAll(a) {
			out = append(out, a)
		}
	}
	return out
}

// principalInline returns the merged inline policies of an IAM user, role
// or group and the principal's name.
func principalInline(s *Subject) (*iampolicy.Document, string) {
	switch a := s.attrs.(type) {
	case *inv.IAMUser:
		return inlinePolicy(a.InlinePolicies), a.UserName
	case *inv.IAMRole:
		return inlinePolicy(a.InlinePolicies), a.RoleName
	case *inv.IAMGroup:
		return inlinePolicy(a.InlinePolicies), a.GroupName
	}
	return nil, ""
}

// platformServiceRules are the family's checks of types that predate it
// (GuardDuty detectors, KMS keys, ECR repositories, secrets, SQS queues,
// IAM policies and principals, ECS clusters).
func platformServiceRules() []Rule {
	principals := []string{inv.TypeIAMUser, inv.TypeIAMRole, inv.TypeIAMGroup}
	return []Rule{
		{ID: "aws-guardduty-001", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeGuardDutyDetector},
			Title:       "GuardDuty S3 Protection is off",
			Description: "The detector does not analyse S3 data events: data exfiltration and suspicious access to buckets go undetected.",
			Remediation: "aws guardduty update-detector --detector-id ID --features Name=S3_DATA_EVENTS,Status=ENABLED (or from the organization's delegated administrator).",
			Check: func(s *Subject) Result {
				d := get[inv.GuardDutyDetector](s)
				if !d.Enabled {
					return passed(s, func() map[string]any { return map[string]any{"detector_id": d.DetectorID, "enabled": false} })
				}
				return failUnless(s, d.S3Protection, "s3_protection", func() map[string]any { return map[string]any{"detector_id": d.DetectorID} })
			}},
		{ID: "aws-guardduty-002", Dimension: security, Severity: low, ResourceTypes: []string{inv.TypeGuardDutyDetector},
			Title:       "GuardDuty EKS Audit Log Monitoring is off",
			Description: "The detector does not analyse EKS audit logs: suspicious activity in the region's Kubernetes clusters goes undetected (it costs nothing without clusters).",
			Remediation: "aws guardduty update-detector --detector-id ID --features Name=EKS_AUDIT_LOGS,Status=ENABLED.",
			Check: func(s *Subject) Result {
				d := get[inv.GuardDutyDetector](s)
				if !d.Enabled {
					return passed(s, func() map[string]any { return map[string]any{"detector_id": d.DetectorID, "enabled": false} })
				}
				return failUnless(s, d.EKSAuditLogs, "eks_audit_logs", func() map[string]any { return map[string]any{"detector_id": d.DetectorID} })
			}},
		{ID: "aws-kms-004", Dimension: cost, Severity: low, ResourceTypes: []string{inv.TypeKMSKey},
			Title:       "Customer managed KMS key is disabled",
			Description: "A disabled customer managed key cannot be used but is still billed every month; disabled keys are usually leftovers.",
			Remediation: "If nothing encrypted under it is still needed, schedule its deletion (aws kms schedule-key-deletion --key-id ID --pending-window-in-days 30); otherwise re-enable it.",
			Check: func(s *Subject) Result {
				k := get[inv.KMSKey](s)
				return failIf(s, k.KeyManager == "CUSTOMER" && k.KeyState == "Disabled", func() map[string]any { return map[string]any{"key_id": k.KeyID, "key_state": k.KeyState} })
			}},
		{ID: "aws-ecr-002", Dimension: security, Severity: low, ResourceTypes: []string{inv.TypeECRRepository},
			Title:       "ECR repository allows image tags to be overwritten",
			Description: "Tag mutability is MUTABLE: pushing an image under an existing tag silently changes what every deployment of that tag runs.",
			Remediation: "aws ecr put-image-tag-mutability --repository-name NAME --image-tag-mutability IMMUTABLE; Terraform: image_tag_mutability = \"IMMUTABLE\".",
			Check: func(s *Subject) Result {
				r := get[inv.ECRRepository](s)
				if r.ImageTagMutability == "" {
					return notEvaluated("image_tag_mutability")
				}
				return failIf(s, r.ImageTagMutability == "MUTABLE", func() map[string]any {
					return map[string]any{"repository_name": r.RepositoryName, "image_tag_mutability": r.ImageTagMutability}
				})
			}},
		{ID: "aws-secretsmanager-002", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeSecretsManagerSecret},
			Title:       "Secrets Manager secret is not rotated automatically",
			Description: "Automatic rotation is off: the secret keeps the same value until someone changes it, so a leaked value stays valid.",
			Remediation: "aws secretsmanager rotate-secret --secret-id NAME --rotation-lambda-arn ARN --rotation-rules AutomaticallyAfterDays=30 (managed rotation for RDS, Redshift and DocumentDB secrets).",
			Check: func(s *Subject) Result {
				x := get[inv.SecretsManagerSecret](s)
				return failIfRecorded(s, !x.RotationEnabled, "rotation_enabled", func() map[string]any { return map[string]any{"secret": x.Name, "rotation_enabled": x.RotationEnabled} })
			}},
		{ID: "aws-secretsmanager-003", Dimension: security, Severity: low, ResourceTypes: []string{inv.TypeSecretsManagerSecret},
			Title:       "Secrets Manager secret is rotated less often than every 90 days",
			Description: "Rotation is on but its schedule is longer than 90 days, so a leaked value stays valid for a quarter or more.",
			Remediation: "aws secretsmanager rotate-secret --secret-id NAME --rotation-rules AutomaticallyAfterDays=30 (or a schedule expression of 90 days or less).",
			Check: func(s *Subject) Result {
				x := get[inv.SecretsManagerSecret](s)
				if !x.RotationEnabled {
					return passed(s, func() map[string]any { return map[string]any{"secret": x.Name, "rotation_enabled": false} }) // aws-secretsmanager-002
				}
				if x.RotationIntervalDays == 0 {
					return notEvaluated("rotation_interval_days")
				}
				return failIf(s, x.RotationIntervalDays > 90, func() map[string]any {
					return map[string]any{"secret": x.Name, "rotation_interval_days": x.RotationIntervalDays}
				})
			}},
		{ID: "aws-sqs-004", Dimension: architecture, Severity: medium, ResourceTypes: []string{inv.TypeSQSQueue}, Joins: []string{inv.TypeSQSQueue},
			Title:       "SQS dead-letter queue keeps messages no longer than its source queue",
			Description: "A message's age counts from when it entered the source queue: a dead-letter queue whose retention is not longer than the source's deletes failed messages soon after they arrive, or at once.",
			Remediation: "Set the dead-letter queue's retention above the source queue's (aws sqs set-queue-attributes --queue-url DLQ --attributes MessageRetentionPeriod=1209600).",
			Check: func(s *Subject) Result {
				q := get[inv.SQSQueue](s)
				if q.DeadLetterTargetARN == "" {
					return passed(s, func() map[string]any { return map[string]any{"queue": q.Name, "dead_letter_target_arn": ""} })
				}
				if s.pending {
					return Result{deferred: true}
				}
				var dlq int
				var known bool
				if s.account != nil {
					dlq, known = s.account.platform.queueRetention[q.DeadLetterTargetARN]
				}
				if !known || dlq == 0 {
					return notEvaluated("dead_letter_queue.message_retention_seconds")
				}
				if q.MessageRetentionSeconds == 0 {
					return notEvaluated("message_retention_seconds")
				}
				return failIf(s, dlq <= q.MessageRetentionSeconds, func() map[string]any {
					return map[string]any{"queue": q.Name, "message_retention_seconds": q.MessageRetentionSeconds,
						"dead_letter_target_arn": q.DeadLetterTargetARN, "dead_letter_retention_seconds": dlq}
				})
			}},
		{ID: "aws-iam-022", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeIAMPolicy},
			Title:       "Customer managed IAM policy allows decrypting with every KMS key",
			Description: "The policy allows kms:Decrypt or kms:ReEncryptFrom on \"*\": whoever has it can read data encrypted under any key whose key policy defers to IAM.",
			Remediation: "Name the key ARNs in the statement's Resource (or restrict with kms:ViaService / kms:EncryptionContext conditions), then set the new version as default.",
			Check: func(s *Subject) Result {
				p := get[inv.IAMPolicy](s)
				if p.Document == nil {
					return notEvaluated("document")
				}
				acts := allowedOnAll(s.policy(p.Document), decryptActions)
				return failIf(s, len(acts) > 0, func() map[string]any { return map[string]any{"policy_name": p.PolicyName, "actions": acts} })
			}},
		{ID: "aws-iam-023", Dimension: security, Severity: medium, ResourceTypes: principals,
			Title:       "IAM principal's inline policy allows decrypting with every KMS key",
			Description: "An inline policy of the user, role or group allows kms:Decrypt or kms:ReEncryptFrom on \"*\": the principal can read data encrypted under any key whose key policy defers to IAM.",
			Remediation: "Name the key ARNs in the inline statement's Resource (aws iam put-role-policy / put-user-policy / put-group-policy with the narrowed document).",
			Check: func(s *Subject) Result {
				d, name := principalInline(s)
				acts := allowedOnAll(d, decryptActions)
				return failIf(s, len(acts) > 0, func() map[string]any { return map[string]any{"principal": name, "actions": acts} })
			}},
		{ID: "aws-iam-024", Dimension: security, Severity: medium, ResourceTypes: append([]string{inv.TypeIAMPolicy}, principals...),
			Title:       "IAM policy allows turning CloudTrail off",
			Description: "A customer managed or inline policy allows stopping, deleting or reconfiguring every trail (cloudtrail:StopLogging, DeleteTrail, UpdateTrail, PutEventSelectors on \"*\"): its holder can blind the account's audit log before acting.",
			Remediation: "Remove these actions from everyone but a break-glass role, and deny them in a service control policy for the organization's accounts.",
			Check: func(s *Subject) Result {
				var d *iampolicy.Document
				var name string
				if p, ok := s.attrs.(*inv.IAMPolicy); ok {
					if p.Document == nil {
						return notEvaluated("document")
					}
					d, name = s.policy(p.Document), p.PolicyName
				} else {
					d, name = principalInline(s)
				}
				acts := allowedOnAll(d, trailOffActions)
				return failIf(s, len(acts) > 0, func() map[string]any { return map[string]any{"name": name, "actions": acts} })
			}},
		{ID: "aws-ecs-017", Dimension: compliance, Severity: low, ResourceTypes: []string{inv.TypeECSCluster},
			Title:       "ECS cluster writes ECS Exec session logs unencrypted",
			Description: "The cluster sends ECS Exec session logs to CloudWatch Logs or S3 with encryption turned off: commands and their output, which can include secrets, are stored in clear.",
			Remediation: "aws ecs update-cluster --cluster NAME --configuration executeCommandConfiguration={logging=OVERRIDE,logConfiguration={cloudWatchEncryptionEnabled=true,s3EncryptionEnabled=true,…}}.",
			Check: func(s *Subject) Result {
				c := get[inv.ECSCluster](s)
				if c.ExecuteCommandLogEncrypted == nil {
					return passed(s, func() map[string]any {
						return map[string]any{"cluster": c.ClusterName, "execute_command_logging": c.ExecuteCommandLogging}
					})
				}
				return failIf(s, !*c.ExecuteCommandLogEncrypted, func() map[string]any {
					return map[string]any{"cluster": c.ClusterName, "execute_command_log_encrypted": *c.ExecuteCommandLogEncrypted}
				})
			}},
	}
}
