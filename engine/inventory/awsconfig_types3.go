package inventory

import (
	"encoding/json"
	"slices"
)

// cfgAccountPAB maps AWS::S3::AccountPublicAccessBlock, whose configuration
// is the four camelCase switches (awslabs/aws-config-resource-schema:
// configuration.blockPublicAcls, …).
func cfgAccountPAB(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	p, err := cfgPublicAccessBlock(conf)
	if err != nil {
		return "", nil, err
	}
	a := S3AccountPublicAccessBlock{AccountID: ci.AWSAccountID}
	if a.AccountID == "" {
		a.AccountID = ci.AccountID
	}
	if p != nil {
		a.PublicAccessBlock = *p
	}
	return TypeS3AccountPublicAccessBlock, a, nil
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
	return TypeDBSnapshot, s, nil
}

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
