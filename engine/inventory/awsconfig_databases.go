package inventory

import (
	"encoding/json"
	"slices"
)

// Mappers of the data family. Property names are those of
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
	return TypeRDSCluster, r, nil
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
	return TypeRDSClusterSnapshot, s, nil
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
	return TypeRedshiftCluster, r, nil
}
