package rules

import inv "github.com/fourd-dev/fourd/engine/inventory"

// previousGenerationRedshift are the Redshift node families AWS has
// deprecated (dc1) or retires in favour of RA3 (ds2).
var previousGenerationRedshift = map[string]bool{"dc1": true, "ds1": true, "ds2": true}

// dataRedshiftRules are the checks of Redshift clusters (issue 29 §4).
func dataRedshiftRules() []Rule {
	return []Rule{
		{ID: "aws-redshift-001", Dimension: security, Severity: high, ResourceTypes: []string{inv.TypeRedshiftCluster},
			Title:       "Redshift cluster is publicly accessible",
			Description: "The cluster has a public endpoint reachable from the internet.",
			Remediation: "aws redshift modify-cluster --cluster-identifier ID --no-publicly-accessible; Terraform: publicly_accessible = false.",
			Check: func(s *Subject) Result {
				c := get[inv.RedshiftCluster](s)
				return escalateIfSensitive(failIf(s, c.PubliclyAccessible, func() map[string]any {
					return map[string]any{"cluster": c.ClusterIdentifier, "publicly_accessible": c.PubliclyAccessible}
				}), s, critical)
			}},
		{ID: "aws-redshift-002", Dimension: security, Severity: high, ResourceTypes: []string{inv.TypeRedshiftCluster},
			Title:       "Redshift cluster is not encrypted",
			Description: "The cluster's data blocks, system metadata and snapshots are not encrypted at rest.",
			Remediation: "aws redshift modify-cluster --cluster-identifier ID --encrypted --kms-key-id KEY; Terraform: encrypted = true.",
			Check: func(s *Subject) Result {
				c := get[inv.RedshiftCluster](s)
				return escalateIfSensitive(failIfRecorded(s, !c.Encrypted, "encrypted", func() map[string]any { return map[string]any{"cluster": c.ClusterIdentifier, "encrypted": c.Encrypted} }), s, critical)
			}},
		{ID: "aws-redshift-003", Dimension: compliance, Severity: medium, ResourceTypes: []string{inv.TypeRedshiftCluster},
			Title:       "Redshift cluster audit logging is disabled",
			Description: "Connections, user changes and queries are not logged, which leaves no record for an investigation.",
			Remediation: "aws redshift enable-logging --cluster-identifier ID --log-destination-type cloudwatch --log-exports connectionlog useractivitylog userlog.",
			Check: func(s *Subject) Result {
				c := get[inv.RedshiftCluster](s)
				return failUnless(s, c.LoggingEnabled, "logging_enabled", func() map[string]any { return map[string]any{"cluster": c.ClusterIdentifier} })
			}},
		{ID: "aws-redshift-004", Dimension: architecture, Severity: high, ResourceTypes: []string{inv.TypeRedshiftCluster},
			Title:       "Redshift cluster has automated snapshots disabled",
			Description: "The automated snapshot retention period is 0: the cluster has no automated backups to restore from.",
			Remediation: "aws redshift modify-cluster --cluster-identifier ID --automated-snapshot-retention-period 7; Terraform: automated_snapshot_retention_period = 7.",
			Check: func(s *Subject) Result {
				c := get[inv.RedshiftCluster](s)
				return failIfRecorded(s, c.AutomatedSnapshotRetentionPeriod < 1, "automated_snapshot_retention_period", func() map[string]any {
					return map[string]any{"cluster": c.ClusterIdentifier, "automated_snapshot_retention_period": c.AutomatedSnapshotRetentionPeriod}
				})
			}},
		{ID: "aws-redshift-005", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeRedshiftCluster},
			Title:       "Redshift cluster does not allow version upgrades",
			Description: "Engine upgrades carrying security fixes are not applied in the maintenance window.",
			Remediation: "aws redshift modify-cluster --cluster-identifier ID --allow-version-upgrade; Terraform: allow_version_upgrade = true.",
			Check: func(s *Subject) Result {
				c := get[inv.RedshiftCluster](s)
				return failIfRecorded(s, !c.AllowVersionUpgrade, "allow_version_upgrade", func() map[string]any {
					return map[string]any{"cluster": c.ClusterIdentifier, "allow_version_upgrade": c.AllowVersionUpgrade}
				})
			}},
		{ID: "aws-redshift-006", Dimension: security, Severity: low, ResourceTypes: []string{inv.TypeRedshiftCluster},
			Title:       "Redshift cluster does not use enhanced VPC routing",
			Description: "COPY and UNLOAD traffic goes over the internet instead of through the VPC, where security groups, endpoint policies and flow logs apply.",
			Remediation: "aws redshift modify-cluster --cluster-identifier ID --enhanced-vpc-routing; Terraform: enhanced_vpc_routing = true.",
			Check: func(s *Subject) Result {
				c := get[inv.RedshiftCluster](s)
				return failIfRecorded(s, !c.EnhancedVPCRouting, "enhanced_vpc_routing", func() map[string]any {
					return map[string]any{"cluster": c.ClusterIdentifier, "enhanced_vpc_routing": c.EnhancedVPCRouting}
				})
			}},
		{ID: "aws-redshift-007", Dimension: security, Severity: low, ResourceTypes: []string{inv.TypeRedshiftCluster},
			Title:       "Redshift cluster uses the default admin user name",
			Description: "The admin user is called awsuser, the console's default and the first name a password-guessing attack tries.",
			Remediation: "Create the cluster (or a restore of it) with a distinct --master-username; Terraform: master_username.",
			Check: func(s *Subject) Result {
				c := get[inv.RedshiftCluster](s)
				return failIf(s, c.MasterUsername == "awsuser", func() map[string]any {
					return map[string]any{"cluster": c.ClusterIdentifier, "master_username": c.MasterUsername}
				})
			}},
		{ID: "aws-redshift-008", Dimension: cost, Severity: medium, ResourceTypes: []string{inv.TypeRedshiftCluster},
			Title:       "Redshift cluster uses a previous-generation node type",
			Description: "DC1 and DS2 nodes are retired generations: RA3 and DC2 nodes give more for the price, and RA3 separates storage from compute.",
			Remediation: "Resize to RA3 (aws redshift resize-cluster --cluster-identifier ID --node-type ra3.xlplus --number-of-nodes N) or DC2.",
			Check: func(s *Subject) Result {
				c := get[inv.RedshiftCluster](s)
				return failIf(s, previousGenerationRedshift[instanceFamily(c.NodeType)],
					func() map[string]any {
						return notEstimated(map[string]any{"cluster": c.ClusterIdentifier, "node_type": c.NodeType, "number_of_nodes": c.NumberOfNodes}, unpriced("Redshift nodes"))
					})
			}},
		{ID: "aws-redshift-009", Dimension: architecture, Severity: medium, ResourceTypes: []string{inv.TypeRedshiftCluster},
			Title:       "Production Redshift cluster has a single node",
			Description: "A single-node cluster keeps no mirror of its data on another node: a node failure means a restore from a snapshot. The cluster is tagged as production.",
			Remediation: "Resize to at least two nodes: aws redshift resize-cluster --cluster-identifier ID --cluster-type multi-node --number-of-nodes 2.",
			Check: func(s *Subject) Result {
				c := get[inv.RedshiftCluster](s)
				return failIf(s, c.NumberOfNodes == 1 && production(s), func() map[string]any {
					return map[string]any{"cluster": c.ClusterIdentifier, "number_of_nodes": c.NumberOfNodes}
				})
			}},
	}
}
