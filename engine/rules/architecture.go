package rules

import (
	inv "github.com/fourd-dev/fourd/engine/inventory"
)

func architectureRules() []Rule {
	return []Rule{
		{ID: "aws-rds-005", Dimension: architecture, Severity: medium, ResourceTypes: []string{inv.TypeDBInstance},
			Compliance:  []string{"CIS-AWS-4.0.1:2.2.4"},
			Title:       "RDS instance runs in a single Availability Zone",
			Description: "Without Multi-AZ, an AZ outage or a host failure takes the database down until it is restored.",
			Remediation: "Enable Multi-AZ (a standby in another AZ with automatic failover).",
			Check: func(s *Subject) Result {
				d := get[inv.DBInstance](s)
				r := failIfRecorded(s, !d.MultiAZ, "multi_az", func() map[string]any {
					return map[string]any{"identifier": d.Identifier, "availability_zone": d.AvailabilityZone, "multi_az": d.MultiAZ}
				})
				return escalateIfProduction(r, s, high)
			}},
		{ID: "aws-rds-006", Dimension: architecture, Severity: high, ResourceTypes: []string{inv.TypeDBInstance},
			Title:       "RDS automated backups are disabled",
			Description: "The backup retention period is 0: no automated backups and no point-in-time restore.",
			Remediation: "Set the backup retention period to at least 7 days.",
			Check: func(s *Subject) Result {
				d := get[inv.DBInstance](s)
				return failIfRecorded(s, d.BackupRetentionPeriod == 0, "backup_retention_period", func() map[string]any {
					return map[string]any{"identifier": d.Identifier, "backup_retention_period": d.BackupRetentionPeriod}
				})
			}},
		{ID: "aws-rds-007", Dimension: architecture, Severity: medium, ResourceTypes: []string{inv.TypeDBInstance},
			Title:       "RDS deletion protection is disabled",
			Description: "The database can be deleted by a single API call or a mistaken Terraform apply.",
			Remediation: "Enable deletion protection: aws rds modify-db-instance --deletion-protection.",
			Check: func(s *Subject) Result {
				d := get[inv.DBInstance](s)
				return escalateIfProduction(failIfRecorded(s, !d.DeletionProtection, "deletion_protection", func() map[string]any {
					return map[string]any{"identifier": d.Identifier, "deletion_protection": d.DeletionProtection}
				}), s, high)
			}},
		{ID: "aws-ec2-012", Dimension: architecture, Severity: low, ResourceTypes: []string{inv.TypeInstance},
			Title:       "EC2 instance is not part of an Auto Scaling group",
			Description: "A standalone instance is not replaced automatically when it or its AZ fails.",
			Remediation: "Run the workload from a launch template in an Auto Scaling group (even of size 1) spanning several AZs.",
			Check: func(s *Subject) Result {
				in := get[inv.Instance](s)
				return failIfRecorded(s, in.State == "running" && in.AutoScalingGroup == "", "autoscaling_group",
					func() map[string]any {
						return map[string]any{"instance_id": in.InstanceID, "state": in.State, "autoscaling_group": in.AutoScalingGroup}
					})
			}},
		{ID: "aws-asg-001", Dimension: architecture, Severity: medium, ResourceTypes: []string{inv.TypeAutoScalingGroup},
			Title:       "Auto Scaling group uses a single Availability Zone",
			Description: "All of the group's instances run in one AZ, so an AZ outage takes them all.",
			Remediation: "Add subnets in at least two more AZs to the group.",
			Check: func(s *Subject) Result {
				g := get[inv.AutoScalingGroup](s)
				return failIf(s, len(g.AvailabilityZones) == 1, func() map[string]any {
					return map[string]any{"name": g.Name, "availability_zones": g.AvailabilityZones}
				})
			}},
		{ID: "aws-asg-002", Dimension: architecture, Severity: low, ResourceTypes: []string{inv.TypeAutoScalingGroup},
			Title:       "Auto Scaling group behind a load balancer uses EC2 health checks",
			Description: "The group replaces only instances whose hardware fails, not those the load balancer sees as unhealthy.",
			Remediation: "Set the group's health check type to ELB.",
			Check: func(s *Subject) Result {
				g := get[inv.AutoScalingGroup](s)
				behindLB := len(g.TargetGroupARNs)+len(g.LoadBalancers) > 0
				return failIfZero(s, behindLB && g.HealthCheckType != "ELB", g.HealthCheckType == "", "health_check_type",
					func() map[string]any {
						return map[string]any{"name": g.Name, "health_check_type": g.HealthCheckType, "target_group_arns": g.TargetGroupARNs, "load_balancers": g.LoadBalancers}
					})
			}},
		{ID: "aws-elb-002", Dimension: architecture, Severity: low, ResourceTypes: []string{inv.TypeLB},
			Title:       "Load balancer deletion protection is disabled",
			Description: "The load balancer, and the traffic it carries, can be deleted by one call.",
			Remediation: "Enable the deletion_protection.enabled attribute.",
			Check: func(s *Subject) Result {
				lb := get[inv.LoadBalancer](s)
				return escalateIfProduction(failUnless(s, lb.DeletionProtection, "deletion_protection", func() map[string]any { return map[string]any{"name": lb.Name} }), s, medium)
			}},
		{ID: "aws-elb-003", Dimension: architecture, Severity: medium, ResourceTypes: []string{inv.TypeLB},
			Title:       "Load balancer spans fewer than two Availability Zones",
			Description: "A load balancer in one AZ fails with that AZ.",
			Remediation: "Enable subnets in at least two AZs for the load balancer.",
			Check: func(s *Subject) Result {
				lb := get[inv.LoadBalancer](s)
				return failIf(s, len(lb.AvailabilityZones) == 1, func() map[string]any {
					return map[string]any{"name": lb.Name, "availability_zones": lb.AvailabilityZones}
				})
			}},
		{ID: "aws-dynamodb-002", Dimension: architecture, Severity: medium, ResourceTypes: []string{inv.TypeDynamoDBTable},
			Title:       "DynamoDB point-in-time recovery is disabled",
			Description: "A bad write or delete cannot be undone by restoring the table to an earlier second.",
			Remediation: "Enable point-in-time recovery on the table.",
			Check: func(s *Subject) Result {
				t := get[inv.DynamoDBTable](s)
				return escalateIfProduction(failUnless(s, t.PointInTimeRecovery, "point_in_time_recovery", func() map[string]any { return map[string]any{"table": t.Name} }), s, high)
			}},
		{ID: "aws-dynamodb-003", Dimension: architecture, Severity: low, ResourceTypes: []string{inv.TypeDynamoDBTable},
			Title:       "DynamoDB deletion protection is disabled",
			Description: "The table can be deleted by one API call.",
			Remediation: "Enable deletion protection on the table.",
			Check: func(s *Subject) Result {
				t := get[inv.DynamoDBTable](s)
				return failUnless(s, t.DeletionProtectionEnabled, "deletion_protection_enabled", func() map[string]any { return map[string]any{"table": t.Name} })
			}},
		{ID: "aws-elasticache-003", Dimension: architecture, Severity: medium, ResourceTypes: []string{inv.TypeElastiCacheCluster},
			Title:       "ElastiCache cluster has a single node or a single AZ",
			Description: "A node or AZ failure loses the cache and its data.",
			Remediation: "Use a replication group with replicas in other AZs and automatic failover (Redis/Valkey), or spread Memcached nodes across AZs.",
			Check: func(s *Subject) Result {
				c := get[inv.ElastiCacheCluster](s)
				single := c.NumCacheNodes == 1 || s.recorded("num_cache_nodes") && c.NumCacheNodes <= 1
				oneZone := c.AZMode == "single-az" || c.AZMode != "cross-az" && s.recorded("az_mode")
				if !single && !oneZone && (c.NumCacheNodes <= 1 || c.AZMode != "cross-az") {
					return notEvaluated(s.unrecorded("num_cache_nodes", "az_mode")...)
				}
				return failIf(s, single || oneZone,
					func() map[string]any {
						return map[string]any{"cluster_id": c.ClusterID, "num_cache_nodes": c.NumCacheNodes, "az_mode": c.AZMode}
					})
			}},
		{ID: "aws-elasticache-004", Dimension: architecture, Severity: low, ResourceTypes: []string{inv.TypeElastiCacheCluster},
			Title:       "ElastiCache cluster keeps no snapshots",
			Description: "The snapshot retention limit is 0, so the cache cannot be restored after a failure.",
			Remediation: "Set a snapshot retention limit of at least 1 day.",
			Check: func(s *Subject) Result {
				c := get[inv.ElastiCacheCluster](s)
				return failIfRecorded(s, c.Engine != "memcached" && c.SnapshotRetentionLimit == 0, "snapshot_retention_limit",
					func() map[string]any {
						return map[string]any{"cluster_id": c.ClusterID, "engine": c.Engine, "snapshot_retention_limit": c.SnapshotRetentionLimit}
					})
			}},
		{ID: "aws-efs-002", Dimension: architecture, Severity: medium, ResourceTypes: []string{inv.TypeEFSFileSystem},
			Title:       "EFS automatic backups are disabled",
			Description: "The file system is not backed up by AWS Backup.",
			Remediation: "Enable the file system's backup policy (automatic backups), or add it to an AWS Backup plan.",
			Check: func(s *Subject) Result {
				f := get[inv.EFSFileSystem](s)
				return failIf(s, f.BackupPolicy == "DISABLED", func() map[string]any {
					return map[string]any{"file_system_id": f.FileSystemID, "backup_policy": f.BackupPolicy}
				})
			}},
		{ID: "aws-s3-007", Dimension: architecture, Severity: low, ResourceTypes: []string{inv.TypeS3Bucket},
			Title:       "S3 bucket versioning is not enabled",
			Description: "Overwritten or deleted objects cannot be recovered.",
			Remediation: "Enable versioning and add a lifecycle rule to expire noncurrent versions.",
			Check: func(s *Subject) Result {
				b := get[inv.S3Bucket](s)
				return escalateIfSensitive(failIfZero(s, b.Versioning != "Enabled", b.Versioning == "", "versioning", func() map[string]any { return map[string]any{"bucket": b.Bucket, "versioning": b.Versioning} }), s, medium)
			}},
		{ID: "aws-sqs-001", Dimension: architecture, Severity: low, ResourceTypes: []string{inv.TypeSQSQueue},
			Title:       "SQS queue has no dead-letter queue",
			Description: "Messages that keep failing are retried until they expire, blocking or silently losing work.",
			Remediation: "Configure a redrive policy with a dead-letter queue and alarm on its depth.",
			Check: func(s *Subject) Result {
				q := get[inv.SQSQueue](s)
				if isDeadLetterQueue(q.Name) {
					return passed(s, func() map[string]any { return map[string]any{"queue": q.Name, "is_dead_letter_queue": true} })
				}
				if m := s.unrecorded("name", "dead_letter_target_arn"); q.DeadLetterTargetARN == "" && len(m) > 0 {
					return notEvaluated(m...)
				}
				return failIf(s, q.DeadLetterTargetARN == "", func() map[string]any {
					return map[string]any{"queue": q.Name, "dead_letter_target_arn": q.DeadLetterTargetARN}
				})
			}},
		{ID: "aws-lambda-004", Dimension: architecture, Severity: low, ResourceTypes: []string{inv.TypeLambdaFunction},
			Title:       "Lambda function has no dead-letter queue",
			Description: "Asynchronous invocations that fail every retry are dropped without a trace.",
			Remediation: "Configure a dead-letter queue or an on-failure destination for the function.",
			Check: func(s *Subject) Result {
				f := get[inv.LambdaFunction](s)
				return failIfRecorded(s, f.DeadLetterTargetARN == "", "dead_letter_target_arn", func() map[string]any {
					return map[string]any{"function_name": f.FunctionName, "dead_letter_target_arn": f.DeadLetterTargetARN}
				})
			}},
		{ID: "aws-kms-002", Dimension: architecture, Severity: high, ResourceTypes: []string{inv.TypeKMSKey},
			Title:       "KMS key is scheduled for deletion",
			Description: "Once deleted, everything encrypted under the key becomes unreadable for good.",
			Remediation: "If anything still uses the key, cancel the deletion: aws kms cancel-key-deletion --key-id ID.",
			Check: func(s *Subject) Result {
				k := get[inv.KMSKey](s)
				ev := map[string]any{"key_id": k.KeyID, "key_state": k.KeyState}
				if !k.DeletionDate.IsZero() {
					ev["deletion_date"] = k.DeletionDate
				}
				return failIf(s, k.KeyState == "PendingDeletion", func() map[string]any { return ev })
			}},
	}
}

// isDeadLetterQueue guesses from its name whether a queue is itself a DLQ.
func isDeadLetterQueue(name string) bool {
	for _, suffix := range [...]string{"-dlq", "_dlq", "-deadletter", "-dead-letter", "dlq.fifo", "-dlq.fifo"} {
		if len(name) >= len(suffix) && name[len(name)-len(suffix):] == suffix {
			return true
		}
	}
	return false
}
