package inventory

import (
	"encoding/json"
	"slices"
)

// Terraform mappers of the database family: aws_db_instance,
// aws_db_snapshot, aws_elasticache_cluster and aws_dynamodb_table.

// tfDBSnapshot maps aws_db_snapshot; shared_accounts holding "all" makes
// it public, and a state without the attribute leaves that unknown.
func tfDBSnapshot(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		ARN        string    `json:"db_snapshot_arn"`
		Identifier string    `json:"db_snapshot_identifier"`
		Instance   string    `json:"db_instance_identifier"`
		Engine     string    `json:"engine"`
		Type       string    `json:"snapshot_type"`
		Encrypted  bool      `json:"encrypted"`
		KMSKeyID   string    `json:"kms_key_id"`
		Shared     *[]string `json:"shared_accounts"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	if c.ARN == "" {
		c.ARN = t.ARN
	}
	s := &DBSnapshot{Identifier: firstNonEmpty(t.Identifier, c.ID), DBInstanceIdentifier: t.Instance, Engine: t.Engine,
		SnapshotType: t.Type, Encrypted: t.Encrypted, KMSKeyID: t.KMSKeyID}
	if t.Shared != nil {
		s.Public = boolPtr(slices.Contains(*t.Shared, "all"))
	}
	return s, nil
}

func tfDBInstance(attrs []byte, c *tfCommon) (any, error) {
	var d DBInstance // Terraform's names are the canonical ones
	if err := json.Unmarshal(attrs, &d); err != nil {
		return nil, err
	}
	if d.Identifier == "" {
		d.Identifier = c.ID
	}
	return &d, nil
}

func tfElastiCache(attrs []byte, _ *tfCommon) (any, error) {
	var t struct {
		ClusterID string    `json:"cluster_id"`
		Engine    string    `json:"engine"`
		Version   string    `json:"engine_version"`
		NodeType  string    `json:"node_type"`
		Nodes     int       `json:"num_cache_nodes"`
		AZMode    string    `json:"az_mode"`
		AtRest    *flexBool `json:"at_rest_encryption_enabled"`
		Transit   *flexBool `json:"transit_encryption_enabled"`
		Snapshots int       `json:"snapshot_retention_limit"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	return &ElastiCacheCluster{ClusterID: t.ClusterID, Engine: t.Engine, EngineVersion: t.Version, NodeType: t.NodeType,
		NumCacheNodes: t.Nodes, AZMode: firstNonEmpty(t.AZMode, "single-az"), AtRestEncryptionEnabled: t.AtRest.ptr(),
		TransitEncryptionEnabled: t.Transit.ptr(), SnapshotRetentionLimit: t.Snapshots}, nil
}

func tfDynamoDB(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		BillingMode string `json:"billing_mode"`
		Read        int    `json:"read_capacity"`
		Write       int    `json:"write_capacity"`
		PITR        tfBlock[struct {
			Enabled bool `json:"enabled"`
		}] `json:"point_in_time_recovery"`
		DeletionProtection *bool `json:"deletion_protection_enabled"`
		SSE                tfBlock[struct {
			KMSKeyARN string `json:"kms_key_arn"`
		}] `json:"server_side_encryption"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	d := &DynamoDBTable{Name: c.Name, BillingMode: firstNonEmpty(t.BillingMode, "PROVISIONED"), ReadCapacity: t.Read,
		WriteCapacity: t.Write, DeletionProtectionEnabled: t.DeletionProtection}
	if t.PITR != nil { // an empty block list: not enabled
		p, _ := t.PITR.first()
		d.PointInTimeRecovery = boolPtr(p.Enabled)
	}
	if s, ok := t.SSE.first(); ok {
		d.SSEKMSKeyARN = s.KMSKeyARN
	}
	return d, nil
}
