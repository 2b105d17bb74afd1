package rules

import (
	"strings"
	"time"

	inv "github.com/fourd-dev/fourd/engine/inventory"
)

// defaultDBAdmins are the master user names the RDS and Aurora consoles
// and engines suggest (Prowler's rds_*_default_admin checks the same).
var defaultDBAdmins = map[string]bool{"admin": true, "postgres": true, "root": true, "sa": true}

// auroraMySQL reports whether an engine is Aurora MySQL, the one engine
// with backtrack ("aurora" is Aurora MySQL 1).
func auroraMySQL(engine string) bool { return engine == "aurora-mysql" || engine == "aurora" }

// iamAuthEngine reports whether an RDS cluster engine supports IAM
// database authentication (DocumentDB does not).
func iamAuthEngine(engine string) bool {
	return strings.HasPrefix(engine, "aurora") || engine == "mysql" || engine == "postgres" || engine == "neptune"
}

// dataRDSRules are the checks of RDS and Aurora clusters and cluster
// snapshots (issue 29 §4).
func dataRDSRules() []Rule {
	return []Rule{
		{ID: "aws-rds-011", Dimension: security, Severity: high, ResourceTypes: []string{inv.TypeRDSCluster},
			Title:       "RDS cluster storage is not encrypted",
			Description: "The cluster's storage, automated backups and snapshots are not encrypted at rest.",
			Remediation: "Snapshot the cluster, restore it with --storage-encrypted --kms-key-id KEY (aws rds restore-db-cluster-from-snapshot), and switch clients over; Terraform: storage_encrypted = true.",
			Check: func(s *Subject) Result {
				c := get[inv.RDSCluster](s)
				return escalateIfSensitive(failIfRecorded(s, !c.StorageEncrypted, "storage_encrypted", func() map[string]any {
					return map[string]any{"identifier": c.Identifier, "engine": c.Engine, "storage_encrypted": c.StorageEncrypted}
				}), s, critical)
			}},
		{ID: "aws-rds-012", Dimension: architecture, Severity: medium, ResourceTypes: []string{inv.TypeRDSCluster},
			Title:       "RDS cluster has no deletion protection",
			Description: "A single API call or a Terraform destroy can delete the cluster and its automated backups.",
			Remediation: "aws rds modify-db-cluster --db-cluster-identifier ID --deletion-protection; Terraform: deletion_protection = true.",
			Check: func(s *Subject) Result {
				c := get[inv.RDSCluster](s)
				return escalateIfProduction(failIfRecorded(s, !c.DeletionProtection, "deletion_protection", func() map[string]any {
					return map[string]any{"identifier": c.Identifier, "deletion_protection": c.DeletionProtection}
				}), s, high)
			}},
		{ID: "aws-rds-013", Dimension: architecture, Severity: medium, ResourceTypes: []string{inv.TypeRDSCluster},
			Title:       "RDS cluster keeps backups for less than 7 days",
			Description: "Automated backups are kept for fewer than 7 days, too short to recover from a problem noticed after a weekend.",
			Remediation: "aws rds modify-db-cluster --db-cluster-identifier ID --backup-retention-period 7 (or more); Terraform: backup_retention_period = 7.",
			Check: func(s *Subject) Result {
				c := get[inv.RDSCluster](s)
				return failIfZero(s, c.BackupRetentionPeriod < 7, c.BackupRetentionPeriod == 0, "backup_retention_period", func() map[string]any {
					return map[string]any{"identifier": c.Identifier, "backup_retention_period": c.BackupRetentionPeriod}
				})
			}},
		{ID: "aws-rds-014", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeRDSCluster},
			Title:       "RDS cluster does not use IAM database authentication",
			Description: "Database users authenticate with long-lived passwords only, instead of short-lived IAM tokens tied to IAM identities.",
			Remediation: "aws rds modify-db-cluster --db-cluster-identifier ID --enable-iam-database-authentication; Terraform: iam_database_authentication_enabled = true.",
			Check: func(s *Subject) Result {
				c := get[inv.RDSCluster](s)
				if !iamAuthEngine(c.Engine) {
					return passed(s, func() map[string]any { return map[string]any{"identifier": c.Identifier, "engine": c.Engine} })
				}
				return failIfRecorded(s, !c.IAMAuthEnabled, "iam_database_authentication_enabled", func() map[string]any {
					return map[string]any{"identifier": c.Identifier, "engine": c.Engine, "iam_database_authentication_enabled": c.IAMAuthEnabled}
				})
			}},
		{ID: "aws-rds-015", Dimension: compliance, Severity: medium, ResourceTypes: []string{inv.TypeRDSCluster},
			Title:       "RDS cluster exports no logs to CloudWatch Logs",
			Description: "None of the cluster's logs (audit, error, general, slow query, postgresql) are exported, so database activity leaves no record outside the instances.",
			Remediation: "aws rds modify-db-cluster --db-cluster-identifier ID --cloudwatch-logs-export-configuration EnableLogTypes=audit,error (postgresql for PostgreSQL); Terraform: enabled_cloudwatch_logs_exports.",
			Check: func(s *Subject) Result {
				c := get[inv.RDSCluster](s)
				if c.LogExports == nil {
					return notEvaluated("enabled_cloudwatch_logs_exports")
				}
				return failIf(s, len(c.LogExports) == 0, func() map[string]any { return map[string]any{"identifier": c.Identifier, "engine": c.Engine} })
			}},
		{ID: "aws-rds-016", Dimension: architecture, Severity: medium, ResourceTypes: []string{inv.TypeRDSCluster},
			Compliance:  []string{"CIS-AWS-4.0.1:2.2.4"},
			Title:       "RDS cluster runs in a single Availability Zone",
			Description: "All of the cluster's instances are in one zone: a zone outage takes the database down until a new instance is created elsewhere.",
			Remediation: "Add a reader instance in another zone (aws rds create-db-instance --db-cluster-identifier ID --availability-zone …), which Aurora promotes on failover.",
			Check: func(s *Subject) Result {
				c := get[inv.RDSCluster](s)
				if c.EngineMode == "serverless" {
					return passed(s, func() map[string]any { return map[string]any{"identifier": c.Identifier, "engine_mode": c.EngineMode} }) // Aurora Serverless v1 fails over by itself
				}
				if c.MultiAZ == nil {
					return notEvaluated("multi_az")
				}
				return escalateIfProduction(failIf(s, !*c.MultiAZ, func() map[string]any {
					return map[string]any{"identifier": c.Identifier, "availability_zones": c.AvailabilityZones}
				}), s, high)
			}},
		{ID: "aws-rds-017", Dimension: security, Severity: low, ResourceTypes: []string{inv.TypeRDSCluster},
			Title:       "RDS cluster uses a default master user name",
			Description: "The master user is called admin, postgres, root or sa: the first name a password-guessing attack tries.",
			Remediation: "Restore the cluster from a snapshot with a distinct --master-username, or create a named admin user and stop using the default one.",
			Check: func(s *Subject) Result {
				c := get[inv.RDSCluster](s)
				return failIf(s, defaultDBAdmins[strings.ToLower(c.MasterUsername)], func() map[string]any {
					return map[string]any{"identifier": c.Identifier, "master_username": c.MasterUsername}
				})
			}},
		{ID: "aws-rds-018", Dimension: architecture, Severity: low, ResourceTypes: []string{inv.TypeRDSCluster},
			Title:       "Aurora MySQL cluster has backtrack disabled",
			Description: "Backtrack rewinds an Aurora MySQL cluster to a point in time in minutes, without restoring from a backup; it is off.",
			Remediation: "Set a backtrack window: aws rds modify-db-cluster --db-cluster-identifier ID --backtrack-window 86400 (Terraform: backtrack_window).",
			Check: func(s *Subject) Result {
				c := get[inv.RDSCluster](s)
				if !auroraMySQL(c.Engine) || c.EngineMode == "serverless" {
					return passed(s, func() map[string]any {
						return map[string]any{"identifier": c.Identifier, "engine": c.Engine, "engine_mode": c.EngineMode}
					})
				}
				return failIfRecorded(s, c.BacktrackWindow == 0, "backtrack_window", func() map[string]any {
					return map[string]any{"identifier": c.Identifier, "engine": c.Engine, "backtrack_window": c.BacktrackWindow}
				})
			}},
		{ID: "aws-rds-019", Dimension: compliance, Severity: low, ResourceTypes: []string{inv.TypeRDSCluster},
			Title:       "RDS cluster does not copy tags to snapshots",
			Description: "Snapshots of the cluster carry none of its tags, so their owner, cost center and data classification are lost.",
			Remediation: "aws rds modify-db-cluster --db-cluster-identifier ID --copy-tags-to-snapshot; Terraform: copy_tags_to_snapshot = true.",
			Check: func(s *Subject) Result {
				c := get[inv.RDSCluster](s)
				return failUnless(s, c.CopyTagsToSnapshot, "copy_tags_to_snapshot", func() map[string]any { return map[string]any{"identifier": c.Identifier} })
			}},
		{ID: "aws-rds-020", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeRDSCluster},
			Title:       "RDS cluster does not upgrade minor versions automatically",
			Description: "Minor engine versions carrying security fixes are not applied in the maintenance window.",
			Remediation: "aws rds modify-db-cluster --db-cluster-identifier ID --auto-minor-version-upgrade; Terraform: auto_minor_version_upgrade = true.",
			Check: func(s *Subject) Result {
				c := get[inv.RDSCluster](s)
				return failUnless(s, c.AutoMinorVersionUpgrade, "auto_minor_version_upgrade", func() map[string]any {
					return map[string]any{"identifier": c.Identifier, "engine_version": c.EngineVersion}
				})
			}},
		{ID: "aws-rds-021", Dimension: security, Severity: high, ResourceTypes: []string{inv.TypeRDSCluster},
			Title:       "RDS cluster is publicly accessible",
			Description: "The Multi-AZ DB cluster has public endpoints that resolve to public IP addresses.",
			Remediation: "aws rds modify-db-cluster --db-cluster-identifier ID --no-publicly-accessible, and keep it in private subnets.",
			Check: func(s *Subject) Result {
				c := get[inv.RDSCluster](s)
				if c.PubliclyAccessible == nil {
					return notEvaluated("publicly_accessible")
				}
				return escalateIfSensitive(failIf(s, *c.PubliclyAccessible, func() map[string]any { return map[string]any{"identifier": c.Identifier, "engine": c.Engine} }), s, critical)
			}},
		{ID: "aws-rds-022", Dimension: cost, Severity: low, ResourceTypes: []string{inv.TypeRDSCluster},
			Title:       "RDS cluster has no DB instances",
			Description: "The cluster has no instances, so nothing can connect to it, but its storage and backups are still billed.",
			Remediation: "Take a final snapshot and delete the cluster (aws rds delete-db-cluster --db-cluster-identifier ID --final-db-snapshot-identifier …), or add the instance it was meant to have.",
			Check: func(s *Subject) Result {
				c := get[inv.RDSCluster](s)
				if c.EngineMode == "serverless" {
					return passed(s, func() map[string]any { return map[string]any{"identifier": c.Identifier, "engine_mode": c.EngineMode} }) // Aurora Serverless v1 has no instances
				}
				if c.MemberCount == nil {
					return notEvaluated("member_count")
				}
				return failIf(s, *c.MemberCount == 0, func() map[string]any {
					return notEstimated(map[string]any{"identifier": c.Identifier, "engine": c.Engine}, unpriced("Aurora storage"))
				})
			}},
		{ID: "aws-rds-023", Dimension: security, Severity: critical, ResourceTypes: []string{inv.TypeRDSClusterSnapshot},
			Title:       "RDS cluster snapshot is public",
			Description: "The snapshot's restore attribute holds \"all\": any AWS account can restore the cluster's data from it.",
			Remediation: "aws rds modify-db-cluster-snapshot-attribute --db-cluster-snapshot-identifier ID --attribute-name restore --values-to-remove all; share with named accounts instead.",
			Check: func(s *Subject) Result {
				sn := get[inv.RDSClusterSnapshot](s)
				if sn.Public == nil {
					return notEvaluated("public")
				}
				return failIf(s, *sn.Public, func() map[string]any {
					return map[string]any{"snapshot": sn.Identifier, "db_cluster": sn.DBClusterIdentifier}
				})
			}},
		{ID: "aws-rds-024", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeRDSClusterSnapshot},
			Title:       "RDS cluster snapshot is not encrypted",
			Description: "The snapshot holds a copy of the cluster's data without encryption at rest.",
			Remediation: "Copy the snapshot with a KMS key (aws rds copy-db-cluster-snapshot --kms-key-id …) and delete the unencrypted one.",
			Check: func(s *Subject) Result {
				sn := get[inv.RDSClusterSnapshot](s)
				return escalateIfSensitive(failIfRecorded(s, !sn.StorageEncrypted, "storage_encrypted", func() map[string]any {
					return map[string]any{"snapshot": sn.Identifier, "storage_encrypted": sn.StorageEncrypted}
				}), s, high)
			}},
		{ID: "aws-rds-025", Dimension: cost, Severity: low, ResourceTypes: []string{inv.TypeRDSClusterSnapshot},
			Joins:       []string{inv.TypeRDSCluster},
			Title:       "RDS cluster snapshot outlived its cluster",
			Description: "A manual cluster snapshot older than 30 days whose cluster is no longer in the inventory (which records other clusters of the region): its storage is billed until it is deleted, often long after anyone remembers why it was kept.",
			Remediation: "If it is not a retained final snapshot, delete it: aws rds delete-db-cluster-snapshot --db-cluster-snapshot-identifier ID; keep retained ones under an AWS Backup plan with a lifecycle instead.",
			Check: func(s *Subject) Result {
				sn := get[inv.RDSClusterSnapshot](s)
				return orphanedSnapshot(s, "cluster", sn.DBClusterIdentifier, sn.SnapshotType, sn.CreateTime,
					notEstimated(map[string]any{"snapshot": sn.Identifier, "db_cluster": sn.DBClusterIdentifier, "allocated_storage_gib": sn.AllocatedStorage}, unpriced("RDS snapshot storage")))
			}},
		{ID: "aws-rds-026", Dimension: cost, Severity: low, ResourceTypes: []string{inv.TypeDBSnapshot},
			Joins:       []string{inv.TypeDBInstance},
			Title:       "RDS snapshot outlived its DB instance",
			Description: "A manual DB snapshot older than 30 days whose instance is no longer in the inventory (which records other instances of the region): its storage is billed until it is deleted.",
			Remediation: "If it is not a retained final snapshot, delete it: aws rds delete-db-snapshot --db-snapshot-identifier ID; keep retained ones under an AWS Backup plan with a lifecycle instead.",
			Check: func(s *Subject) Result {
				sn := get[inv.DBSnapshot](s)
				return orphanedSnapshot(s, "instance", sn.DBInstanceIdentifier, sn.SnapshotType, sn.CreateTime,
					notEstimated(map[string]any{"snapshot": sn.Identifier, "db_instance": sn.DBInstanceIdentifier}, unpriced("RDS snapshot storage")))
			}},
	}
}

// observeRDS records an RDS cluster or instance of the account.
func (f *accountFacts) observeRDS(kind, region, id string) {
	if f.rds == nil {
		f.rds = map[string]bool{}
	}
	f.rds[kind+"/"+region] = true
	if id != "" {
		f.rds[kind+"/"+region+"/"+strings.ToLower(id)] = true
	}
}

// orphanedSnapshot judges a manual snapshot whose source (kind "cluster"
// or "instance", named id) may be gone: it fails when the inventory
// records that kind in the snapshot's region but not the source, and the
// snapshot is older than 30 days (or of unknown age). Without any record
// of the kind in the region the source may merely be unrecorded: not
// evaluated.
func orphanedSnapshot(s *Subject, kind, id, snapType string, created time.Time, ev map[string]any) Result {
	if snapType != "manual" || id == "" {
		return passed(s, func() map[string]any { return withEvidence(ev, "snapshot_type", snapType) }) // automated and AWS Backup snapshots go with their source or their plan
	}
	if s.pending {
		return Result{deferred: true}
	}
	region := s.Resource.Region
	if s.account == nil || !s.account.rds[kind+"/"+region] {
		return notEvaluated("aws_rds_" + kind + ".identifier")
	}
	if s.account.rds[kind+"/"+region+"/"+strings.ToLower(id)] {
		return passed(s, func() map[string]any { return withEvidence(ev, "source_in_inventory", true) })
	}
	age := days(created, s.Now)
	if age >= 0 && age <= 30 {
		return passed(s, func() map[string]any {
			return withEvidence(withEvidence(ev, "source_in_inventory", false), "age_days", age)
		})
	}
	ev["age_days"] = age
	ev["source_in_inventory"] = false
	return fail(ev)
}
