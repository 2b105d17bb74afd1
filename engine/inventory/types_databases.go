package inventory

import "time"

// Canonical types of the data, storage, analytics and ML family. Their
// attributes come from AWS Config's recorded properties
// (awslabs/aws-config-resource-schema,
// config/properties/resource-types/AWS::<Service>::<Type>.properties.json).
// A protective fact AWS Config may leave out is a pointer: nil is unknown.
const (
	TypeRDSCluster         = "aws_rds_cluster"
	TypeRDSClusterSnapshot = "aws_rds_cluster_snapshot"
	TypeRedshiftCluster    = "aws_redshift_cluster"
)

// RDSCluster is the canonical attributes of aws_rds_cluster: an Aurora
// cluster, a Multi-AZ DB cluster, or a DocumentDB or Neptune cluster (AWS
// Config records all of them as AWS::RDS::DBCluster).
type RDSCluster struct {
	Identifier            string `json:"identifier"`
	Engine                string `json:"engine"`      // aurora-mysql, aurora-postgresql, mysql, postgres, docdb, neptune
	EngineMode            string `json:"engine_mode"` // provisioned, serverless, parallelquery, global, multimaster
	EngineVersion         string `json:"engine_version,omitempty"`
	StorageEncrypted      bool   `json:"storage_encrypted"`
	DeletionProtection    bool   `json:"deletion_protection"`
	BackupRetentionPeriod int    `json:"backup_retention_period"`
	IAMAuthEnabled        bool   `json:"iam_database_authentication_enabled"`
	// MultiAZ is whether the cluster has instances in several zones; null
	// when not recorded.
	MultiAZ           *bool    `json:"multi_az"`
	AvailabilityZones []string `json:"availability_zones,omitempty"`
	// LogExports are the log types exported to CloudWatch Logs; null when
	// the source does not record them, empty when none are.
	LogExports     []string `json:"enabled_cloudwatch_logs_exports"`
	MasterUsername string   `json:"master_username,omitempty"`
	// BacktrackWindow is Aurora MySQL's backtrack target in seconds, 0 off.
	BacktrackWindow int `json:"backtrack_window"`
	// CopyTagsToSnapshot, AutoMinorVersionUpgrade and PubliclyAccessible
	// are null when the source leaves them out (Aurora records the last
	// two on its instances).
	CopyTagsToSnapshot      *bool `json:"copy_tags_to_snapshot"`
	AutoMinorVersionUpgrade *bool `json:"auto_minor_version_upgrade"`
	PubliclyAccessible      *bool `json:"publicly_accessible"`
	// MemberCount is the number of DB instances in the cluster; null
	// when the source does not list the members.
	MemberCount *int `json:"member_count"`
}

// RDSClusterSnapshot is the canonical attributes of aws_rds_cluster_snapshot.
type RDSClusterSnapshot struct {
	Identifier          string    `json:"db_cluster_snapshot_identifier"`
	DBClusterIdentifier string    `json:"db_cluster_identifier"`
	SnapshotType        string    `json:"snapshot_type"` // manual, automated, awsbackup
	StorageEncrypted    bool      `json:"storage_encrypted"`
	AllocatedStorage    int       `json:"allocated_storage"` // GiB
	CreateTime          time.Time `json:"snapshot_create_time,omitzero"`
	// Public is true when the restore attribute holds "all"; null when the
	// source does not record the snapshot's attributes.
	Public *bool `json:"public"`
}

// RedshiftCluster is the canonical attributes of aws_redshift_cluster.
type RedshiftCluster struct {
	ClusterIdentifier  string `json:"cluster_identifier"`
	NodeType           string `json:"node_type"`
	NumberOfNodes      int    `json:"number_of_nodes"`
	PubliclyAccessible bool   `json:"publicly_accessible"`
	Encrypted          bool   `json:"encrypted"`
	// AutomatedSnapshotRetentionPeriod is in days; 0 disables them.
	AutomatedSnapshotRetentionPeriod int    `json:"automated_snapshot_retention_period"`
	AllowVersionUpgrade              bool   `json:"allow_version_upgrade"`
	EnhancedVPCRouting               bool   `json:"enhanced_vpc_routing"`
	MasterUsername                   string `json:"master_username,omitempty"`
	// LoggingEnabled is the audit logging status (AWS Config's LoggingStatus
	// supplement); null when not recorded.
	LoggingEnabled *bool `json:"logging_enabled"`
}
