package inventory

import "time"

// Canonical types of the database family: RDS DB instances, DB snapshots,
// DB clusters and cluster snapshots, Redshift clusters, DynamoDB tables and
// ElastiCache clusters. Their attributes come from AWS Config's recorded properties
// (awslabs/aws-config-resource-schema,
// config/properties/resource-types/AWS::<Service>::<Type>.properties.json).
// A protective fact AWS Config may leave out is a pointer: nil is unknown.
const (
	TypeRDSCluster         = "aws_rds_cluster"
	TypeRDSClusterSnapshot = "aws_rds_cluster_snapshot"
	TypeRedshiftCluster    = "aws_redshift_cluster"
	TypeDBInstance         = "aws_db_instance"
	TypeElastiCacheCluster = "aws_elasticache_cluster"
	TypeDynamoDBTable      = "aws_dynamodb_table"
	TypeDBSnapshot         = "aws_db_snapshot"
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

// DBInstance is the canonical attributes of aws_db_instance.
type DBInstance struct {
	Identifier              string `json:"identifier"`
	Engine                  string `json:"engine"`
	EngineVersion           string `json:"engine_version,omitempty"`
	InstanceClass           string `json:"instance_class"`
	AllocatedStorage        int    `json:"allocated_storage"`
	StorageType             string `json:"storage_type"`
	StorageEncrypted        bool   `json:"storage_encrypted"`
	KMSKeyID                string `json:"kms_key_id,omitempty"`
	PubliclyAccessible      bool   `json:"publicly_accessible"`
	MultiAZ                 bool   `json:"multi_az"`
	BackupRetentionPeriod   int    `json:"backup_retention_period"`
	DeletionProtection      bool   `json:"deletion_protection"`
	AutoMinorVersionUpgrade bool   `json:"auto_minor_version_upgrade"`
	AvailabilityZone        string `json:"availability_zone,omitempty"`
	Status                  string `json:"status,omitempty"`
}

// ElastiCacheCluster is the canonical attributes of aws_elasticache_cluster.
type ElastiCacheCluster struct {
	ClusterID     string `json:"cluster_id"`
	Engine        string `json:"engine"` // redis, memcached, valkey
	EngineVersion string `json:"engine_version,omitempty"`
	NodeType      string `json:"node_type"`
	NumCacheNodes int    `json:"num_cache_nodes"`
	AZMode        string `json:"az_mode"` // single-az or cross-az
	// AtRestEncryptionEnabled and TransitEncryptionEnabled are null when
	// the source does not record them (Terraform states and configuration
	// items from before ElastiCache had them).
	AtRestEncryptionEnabled  *bool `json:"at_rest_encryption_enabled"`
	TransitEncryptionEnabled *bool `json:"transit_encryption_enabled"`
	SnapshotRetentionLimit   int   `json:"snapshot_retention_limit"`
}

// DynamoDBTable is the canonical attributes of aws_dynamodb_table.
type DynamoDBTable struct {
	Name          string `json:"name"`
	BillingMode   string `json:"billing_mode"` // PROVISIONED or PAY_PER_REQUEST
	ReadCapacity  int    `json:"read_capacity"`
	WriteCapacity int    `json:"write_capacity"`
	// AutoScalingEnabled and PointInTimeRecovery are null when the source
	// does not record them (AWS Config keeps them as supplements).
	AutoScalingEnabled  *bool `json:"autoscaling_enabled"`
	PointInTimeRecovery *bool `json:"point_in_time_recovery"`
	// DeletionProtectionEnabled is null when the source does not record it
	// (AWS Config items and Terraform states from before DynamoDB had it).
	DeletionProtectionEnabled *bool `json:"deletion_protection_enabled"`
	// SSEKMSKeyARN is the customer key encrypting the table, "" when AWS owns it.
	SSEKMSKeyARN string `json:"sse_kms_key_arn,omitempty"`
	// ItemCount is the table's item count as DynamoDB last reported it
	// (about every six hours); null when the source does not say.
	ItemCount *int64 `json:"item_count,omitempty"`
}

// DBSnapshot is the canonical attributes of aws_db_snapshot (an RDS DB
// instance snapshot).
type DBSnapshot struct {
	Identifier           string    `json:"db_snapshot_identifier"`
	DBInstanceIdentifier string    `json:"db_instance_identifier,omitempty"`
	Engine               string    `json:"engine,omitempty"`
	SnapshotType         string    `json:"snapshot_type,omitempty"` // manual, automated, …
	Encrypted            bool      `json:"encrypted"`
	KMSKeyID             string    `json:"kms_key_id,omitempty"`
	CreateTime           time.Time `json:"snapshot_create_time,omitzero"`
	// Public is true when the snapshot's restore attribute holds "all";
	// null when the source did not record its attributes.
	Public *bool `json:"public"`
}
