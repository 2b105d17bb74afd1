package inventory

import (
	"encoding/json"
	"slices"
)

// Mappers of the database family: AWS::RDS::DBInstance,
// AWS::RDS::DBSnapshot, AWS::DynamoDB::Table, AWS::ElastiCache::CacheCluster,
// and the cluster types, whose property names are those of
// awslabs/aws-config-resource-schema (config/properties/resource-types/
// AWS::RDS::DBCluster, AWS::RDS::DBClusterSnapshot, AWS::Redshift::Cluster
// .properties.json). encoding/json matches keys ignoring case, so the
// schema's "dbclusterIdentifier" and the SDK's "dBClusterIdentifier" both
// decode.

// zoneList reads a list of availability zones written as strings or as
// {"value": …} objects (the schema's availabilityZones.value).
type zoneList []string

func (z *zoneList) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil // an unreadable list is unknown
	}
	for _, r := range raw {
		var s string
		if json.Unmarshal(r, &s) == nil {
			*z = append(*z, s)
			continue
		}
		var o struct {
			Value string `json:"value"`
		}
		if json.Unmarshal(r, &o) == nil && o.Value != "" {
			*z = append(*z, o.Value)
		}
	}
	return nil
}

// cfgRDSCluster maps AWS::RDS::DBCluster.
func cfgRDSCluster(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Identifier     string             `json:"dbclusterIdentifier"`
		Engine         string             `json:"engine"`
		EngineMode     string             `json:"engineMode"`
		EngineVersion  string             `json:"engineVersion"`
		Encrypted      flexBool           `json:"storageEncrypted"`
		DeletionProt   flexBool           `json:"deletionProtection"`
		Retention      flexInt            `json:"backupRetentionPeriod"`
		IAMAuth        flexBool           `json:"iamdatabaseAuthenticationEnabled"`
		MultiAZ        *flexBool          `json:"multiAZ"`
		AZs            zoneList           `json:"availabilityZones"`
		LogExports     *[]string          `json:"enabledCloudwatchLogsExports"`
		MasterUsername string             `json:"masterUsername"`
		Backtrack      flexInt            `json:"backtrackWindow"`
		CopyTags       *flexBool          `json:"copyTagsToSnapshot"`
		AutoMinor      *flexBool          `json:"autoMinorVersionUpgrade"`
		Public         *flexBool          `json:"publiclyAccessible"`
		Members        *[]json.RawMessage `json:"dbclusterMembers"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	r := RDSCluster{Identifier: c.Identifier, Engine: c.Engine, EngineMode: c.EngineMode, EngineVersion: c.EngineVersion,
		StorageEncrypted: bool(c.Encrypted), DeletionProtection: bool(c.DeletionProt),
		BackupRetentionPeriod: int(c.Retention), IAMAuthEnabled: bool(c.IAMAuth), MultiAZ: c.MultiAZ.ptr(),
		AvailabilityZones: c.AZs, MasterUsername: c.MasterUsername, BacktrackWindow: int(c.Backtrack),
		CopyTagsToSnapshot: c.CopyTags.ptr(), AutoMinorVersionUpgrade: c.AutoMinor.ptr(), PubliclyAccessible: c.Public.ptr(),
	}
	if c.Members != nil {
		n := len(*c.Members)
		r.MemberCount = &n
	}
	if c.LogExports != nil {
		r.LogExports = append([]string{}, *c.LogExports...)
	}
	if r.Identifier == "" {
		r.Identifier = ci.ResourceName
	}
	return TypeRDSCluster, recordedOnly(ci, conf, r, "storage_encrypted=storageEncrypted", "deletion_protection=deletionProtection",
		"backup_retention_period=backupRetentionPeriod", "iam_database_authentication_enabled=iamdatabaseAuthenticationEnabled",
		"backtrack_window=?backtrackWindow", "engine=engine", "engine_mode=engineMode"), nil
}

// cfgRDSClusterSnapshot maps AWS::RDS::DBClusterSnapshot; whether it is
// public lives in supplementaryConfiguration.DBClusterSnapshotAttributes
// (a "restore" attribute whose values hold "all").
func cfgRDSClusterSnapshot(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Identifier string   `json:"dbclusterSnapshotIdentifier"`
		Cluster    string   `json:"dbclusterIdentifier"`
		Type       string   `json:"snapshotType"`
		Encrypted  flexBool `json:"storageEncrypted"`
		Storage    flexInt  `json:"allocatedStorage"`
		Created    flexTime `json:"snapshotCreateTime"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	s := RDSClusterSnapshot{Identifier: c.Identifier, DBClusterIdentifier: c.Cluster, SnapshotType: c.Type,
		StorageEncrypted: bool(c.Encrypted), AllocatedStorage: int(c.Storage), CreateTime: c.Created.t()}
	if s.Identifier == "" {
		s.Identifier = ci.ResourceName
	}
	pub, err := restoreIsPublic(ci, "DBClusterSnapshotAttributes")
	if err != nil {
		return "", nil, err
	}
	s.Public = pub
	return TypeRDSClusterSnapshot, recordedOnly(ci, conf, s, "storage_encrypted=storageEncrypted", "snapshot_type=snapshotType",
		"db_cluster_identifier=dbclusterIdentifier"), nil
}

// restoreIsPublic reads a snapshot-attributes supplement: whether a
// "restore" attribute holds "all"; nil when the supplement is absent.
func restoreIsPublic(ci *configItem, key string) (*bool, error) {
	raw := jsonObject(ci.Supplementary[key])
	if raw == nil {
		return nil, nil
	}
	var attrs []struct {
		Name   string          `json:"attributeName"`
		Values json.RawMessage `json:"attributeValues"`
	}
	if err := json.Unmarshal(raw, &attrs); err != nil {
		return nil, err
	}
	public := false
	for _, a := range attrs {
		var vals StringList
		if b := jsonObject(a.Values); b != nil && json.Unmarshal(b, &vals) == nil && a.Name == "restore" {
			public = public || slices.Contains(vals, "all")
		}
	}
	return &public, nil
}

// cfgRedshiftCluster maps AWS::Redshift::Cluster; audit logging lives in
// supplementaryConfiguration.LoggingStatus.loggingEnabled.
func cfgRedshiftCluster(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Identifier     string   `json:"clusterIdentifier"`
		NodeType       string   `json:"nodeType"`
		Nodes          flexInt  `json:"numberOfNodes"`
		Public         flexBool `json:"publiclyAccessible"`
		Encrypted      flexBool `json:"encrypted"`
		Retention      flexInt  `json:"automatedSnapshotRetentionPeriod"`
		AllowUpgrade   flexBool `json:"allowVersionUpgrade"`
		EnhancedVPC    flexBool `json:"enhancedVpcRouting"`
		MasterUsername string   `json:"masterUsername"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	r := RedshiftCluster{ClusterIdentifier: c.Identifier, NodeType: c.NodeType, NumberOfNodes: int(c.Nodes),
		PubliclyAccessible: bool(c.Public), Encrypted: bool(c.Encrypted),
		AutomatedSnapshotRetentionPeriod: int(c.Retention), AllowVersionUpgrade: bool(c.AllowUpgrade),
		EnhancedVPCRouting: bool(c.EnhancedVPC), MasterUsername: c.MasterUsername}
	if r.ClusterIdentifier == "" {
		r.ClusterIdentifier = ci.ResourceName
	}
	var logging struct {
		Enabled *flexBool `json:"loggingEnabled"`
	}
	if err := supp(ci, "LoggingStatus", &logging); err != nil {
		return "", nil, err
	}
	r.LoggingEnabled = logging.Enabled.ptr()
	return TypeRedshiftCluster, recordedOnly(ci, conf, r, "publicly_accessible=publiclyAccessible", "encrypted=encrypted",
		"automated_snapshot_retention_period=automatedSnapshotRetentionPeriod", "allow_version_upgrade=allowVersionUpgrade",
		"enhanced_vpc_routing=enhancedVpcRouting", "node_type=nodeType", "number_of_nodes=numberOfNodes"), nil
}

func cfgDBInstance(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Identifier       string   `json:"dBInstanceIdentifier"`
		Engine           string   `json:"engine"`
		EngineVersion    string   `json:"engineVersion"`
		Class            string   `json:"dBInstanceClass"`
		AllocatedStorage flexInt  `json:"allocatedStorage"`
		StorageType      string   `json:"storageType"`
		StorageEncrypted flexBool `json:"storageEncrypted"`
		KMSKeyID         string   `json:"kmsKeyId"`
		Public           flexBool `json:"publiclyAccessible"`
		MultiAZ          flexBool `json:"multiAZ"`
		Retention        flexInt  `json:"backupRetentionPeriod"`
		DeletionProt     flexBool `json:"deletionProtection"`
		AutoMinor        flexBool `json:"autoMinorVersionUpgrade"`
		AZ               string   `json:"availabilityZone"`
		Status           string   `json:"dBInstanceStatus"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	db := DBInstance{Identifier: c.Identifier, Engine: c.Engine, EngineVersion: c.EngineVersion,
		InstanceClass: c.Class, AllocatedStorage: int(c.AllocatedStorage), StorageType: c.StorageType,
		StorageEncrypted: bool(c.StorageEncrypted), KMSKeyID: c.KMSKeyID, PubliclyAccessible: bool(c.Public),
		MultiAZ: bool(c.MultiAZ), BackupRetentionPeriod: int(c.Retention), DeletionProtection: bool(c.DeletionProt),
		AutoMinorVersionUpgrade: bool(c.AutoMinor), AvailabilityZone: c.AZ, Status: c.Status}
	if db.Identifier == "" {
		db.Identifier = ci.ResourceName // AWS Config names a DB instance by its identifier
	}
	return TypeDBInstance, recordedOnly(ci, conf, db, "storage_encrypted=storageEncrypted", "publicly_accessible=publiclyAccessible",
		"multi_az=multiAZ", "backup_retention_period=backupRetentionPeriod", "deletion_protection=deletionProtection",
		"auto_minor_version_upgrade=autoMinorVersionUpgrade", "instance_class=dBInstanceClass", "engine=engine",
		"engine_version=engineVersion", "allocated_storage=allocatedStorage", "storage_type=storageType",
		"kms_key_id=?kmsKeyId"), nil
}

func cfgElastiCache(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		ID              string    `json:"cacheClusterId"`
		Engine          string    `json:"engine"`
		EngineVersion   string    `json:"engineVersion"`
		NodeType        string    `json:"cacheNodeType"`
		Nodes           flexInt   `json:"numCacheNodes"`
		PreferredAZ     string    `json:"preferredAvailabilityZone"`
		AtRest          *flexBool `json:"atRestEncryptionEnabled"`
		Transit         *flexBool `json:"transitEncryptionEnabled"`
		SnapshotRetains flexInt   `json:"snapshotRetentionLimit"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	mode := "single-az"
	if c.PreferredAZ == "Multiple" {
		mode = "cross-az"
	}
	return TypeElastiCacheCluster, recordedOnly(ci, conf, ElastiCacheCluster{ClusterID: c.ID, Engine: c.Engine, EngineVersion: c.EngineVersion,
		NodeType: c.NodeType, NumCacheNodes: int(c.Nodes), AZMode: mode, AtRestEncryptionEnabled: c.AtRest.ptr(),
		TransitEncryptionEnabled: c.Transit.ptr(), SnapshotRetentionLimit: int(c.SnapshotRetains)},
		"num_cache_nodes=numCacheNodes", "az_mode=preferredAvailabilityZone", "snapshot_retention_limit=snapshotRetentionLimit",
		"engine=engine", "node_type=cacheNodeType", "engine_version=engineVersion"), nil
}

func cfgDynamoDB(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Name    string `json:"tableName"`
		Billing struct {
			Mode string `json:"billingMode"`
		} `json:"billingModeSummary"`
		Throughput struct {
			Read  flexInt `json:"readCapacityUnits"`
			Write flexInt `json:"writeCapacityUnits"`
		} `json:"provisionedThroughput"`
		SSE struct {
			KMSKeyARN string `json:"kMSMasterKeyArn"`
		} `json:"sSEDescription"`
		ItemCount    *flexInt  `json:"itemCount"`
		DeletionProt *flexBool `json:"deletionProtectionEnabled"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	t := DynamoDBTable{Name: c.Name, BillingMode: c.Billing.Mode, ReadCapacity: int(c.Throughput.Read),
		WriteCapacity: int(c.Throughput.Write), SSEKMSKeyARN: c.SSE.KMSKeyARN,
		DeletionProtectionEnabled: c.DeletionProt.ptr()}
	if c.ItemCount != nil {
		n := int64(*c.ItemCount)
		t.ItemCount = &n
	}
	if t.BillingMode == "" {
		t.BillingMode = "PROVISIONED" // DynamoDB omits the summary for provisioned tables
	}
	var backups struct {
		PITR struct {
			Status string `json:"pointInTimeRecoveryStatus"`
		} `json:"pointInTimeRecoveryDescription"`
	}
	if err := supp(ci, "ContinuousBackupsDescription", &backups); err != nil {
		return "", nil, err
	}
	if backups.PITR.Status != "" {
		t.PointInTimeRecovery = boolPtr(backups.PITR.Status == "ENABLED")
	}
	var scaling *flexBool
	if err := supp(ci, "AutoScalingEnabled", &scaling); err != nil {
		return "", nil, err
	}
	t.AutoScalingEnabled = scaling.ptr()
	return TypeDynamoDBTable, t, nil
}

// cfgDBSnapshot maps AWS::RDS::DBSnapshot. Whether the snapshot is public
// lives in supplementaryConfiguration.DBSnapshotAttributes: a "restore"
// attribute whose values hold "all".
func cfgDBSnapshot(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Identifier string   `json:"dBSnapshotIdentifier"`
		Instance   string   `json:"dBInstanceIdentifier"`
		Engine     string   `json:"engine"`
		Type       string   `json:"snapshotType"`
		Encrypted  flexBool `json:"encrypted"`
		KMSKeyID   string   `json:"kmsKeyId"`
		Created    flexTime `json:"snapshotCreateTime"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	s := DBSnapshot{Identifier: c.Identifier, DBInstanceIdentifier: c.Instance, Engine: c.Engine, SnapshotType: c.Type,
		Encrypted: bool(c.Encrypted), KMSKeyID: c.KMSKeyID, CreateTime: c.Created.t()}
	if s.Identifier == "" {
		s.Identifier = ci.ResourceName
	}
	if raw := jsonObject(ci.Supplementary["DBSnapshotAttributes"]); raw != nil {
		var attrs []struct {
			Name   string          `json:"attributeName"`
			Values json.RawMessage `json:"attributeValues"`
		}
		if err := json.Unmarshal(raw, &attrs); err != nil {
			return "", nil, err
		}
		public := false
		for _, a := range attrs {
			var vals StringList
			if b := jsonObject(a.Values); b != nil && json.Unmarshal(b, &vals) == nil && a.Name == "restore" {
				public = public || slices.Contains(vals, "all")
			}
		}
		s.Public = &public
	}
	return TypeDBSnapshot, recordedOnly(ci, conf, s, "encrypted=encrypted", "snapshot_type=snapshotType",
		"db_instance_identifier=dBInstanceIdentifier"), nil
}
