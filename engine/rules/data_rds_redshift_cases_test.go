package rules

import (
	"maps"
	"strings"
	"testing"
)

// AWS Config cases of the data family. Shapes: awslabs/aws-config-resource-
// schema, config/properties/resource-types/AWS::RDS::DBCluster,
// AWS::RDS::DBClusterSnapshot (with the DBClusterSnapshotAttributes
// supplement) and AWS::Redshift::Cluster (with the LoggingStatus
// supplement) .properties.json; the envelope is AWS Config's configuration
// item (snapshot encoding: objects; history encoding: configuration and
// supplements as JSON strings, arn/accountId/version).

const dataAcct, dataRegion = "111122223333", "eu-west-1"

var dataKey = "arn:aws:kms:eu-west-1:111122223333:key/0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0"

// dataItem renders one configuration item of the data family's account.
func dataItem(rtype, id, arn string, conf, supp map[string]any, history bool) string {
	return configItemJSON(dataAcct, dataRegion, map[string]string{"owner": "data", "environment": "production", "cost-center": "cc-7"},
		rtype, id, arn, conf, supp, history)
}

// with is m with the given keys replaced (a nil value deletes the key).
func with(m map[string]any, kv ...any) map[string]any {
	out := maps.Clone(m)
	for i := 0; i < len(kv); i += 2 {
		if kv[i+1] == nil {
			delete(out, kv[i].(string))
			continue
		}
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

func goodCluster() map[string]any {
	return map[string]any{"dbclusterIdentifier": "orders", "dbclusterArn": "arn:aws:rds:eu-west-1:111122223333:cluster:orders",
		"engine": "aurora-postgresql", "engineMode": "provisioned", "engineVersion": "16.2", "status": "available",
		"storageEncrypted": true, "kmsKeyId": dataKey, "deletionProtection": true, "backupRetentionPeriod": 14,
		"iamdatabaseAuthenticationEnabled": true, "multiAZ": true, "availabilityZones": []string{"eu-west-1a", "eu-west-1b", "eu-west-1c"},
		"enabledCloudwatchLogsExports": []string{"postgresql"}, "masterUsername": "orders_owner", "copyTagsToSnapshot": true,
		"autoMinorVersionUpgrade": true, "publiclyAccessible": false, "port": 5432,
		"dbclusterMembers": []map[string]any{{"dbinstanceIdentifier": "orders-1", "isClusterWriter": true}, {"dbinstanceIdentifier": "orders-2", "isClusterWriter": false}}}
}

func clusterItem(conf map[string]any, history bool) string {
	return dataItem("AWS::RDS::DBCluster", "cluster-ABCDEFGHIJKLMNOPQRSTUVWXY0", "arn:aws:rds:eu-west-1:111122223333:cluster:orders", conf, nil, history)
}

func goodClusterSnapshot() map[string]any {
	return map[string]any{"dbclusterSnapshotIdentifier": "orders-2025-05-31", "dbclusterIdentifier": "orders", "engine": "aurora-postgresql",
		"snapshotType": "manual", "storageEncrypted": true, "kmsKeyId": dataKey, "allocatedStorage": 100, "status": "available",
		"snapshotCreateTime": "2025-05-31T03:00:00.000Z"}
}

func clusterSnapshotItem(conf map[string]any, restore []string, history bool) string {
	var supp map[string]any
	if restore != nil {
		supp = map[string]any{"DBClusterSnapshotAttributes": []map[string]any{{"attributeName": "restore", "attributeValues": restore}}}
	}
	return dataItem("AWS::RDS::DBClusterSnapshot", "orders-2025-05-31", "arn:aws:rds:eu-west-1:111122223333:cluster-snapshot:orders-2025-05-31", conf, supp, history)
}

// dbInstanceItem and dbSnapshotItem are an AWS::RDS::DBInstance and a
// manual AWS::RDS::DBSnapshot of instance id taken on 2025-02-01.
func dbInstanceItem(id string) string {
	return dataItem("AWS::RDS::DBInstance", "db-"+strings.ToUpper(id), "arn:aws:rds:eu-west-1:111122223333:db:"+id,
		map[string]any{"dBInstanceIdentifier": id, "dBInstanceClass": "db.r7g.large", "engine": "postgres", "engineVersion": "16.3",
			"dBInstanceStatus": "available", "allocatedStorage": 200, "storageType": "gp3", "storageEncrypted": true, "kmsKeyId": dataKey,
			"publiclyAccessible": false, "multiAZ": true, "backupRetentionPeriod": 14, "deletionProtection": true, "autoMinorVersionUpgrade": true}, nil, false)
}

func dbSnapshotItem(instance string) string {
	return dataItem("AWS::RDS::DBSnapshot", instance+"-final", "arn:aws:rds:eu-west-1:111122223333:snapshot:"+instance+"-final",
		map[string]any{"dBSnapshotIdentifier": instance + "-final", "dBInstanceIdentifier": instance, "engine": "postgres", "snapshotType": "manual",
			"encrypted": true, "kmsKeyId": dataKey, "snapshotCreateTime": "2025-02-01T03:00:00.000Z", "status": "available"},
		map[string]any{"DBSnapshotAttributes": []map[string]any{{"attributeName": "restore", "attributeValues": []string{}}}}, true)
}

func goodRedshift() map[string]any {
	return map[string]any{"clusterIdentifier": "warehouse", "nodeType": "ra3.xlplus", "numberOfNodes": 2, "publiclyAccessible": false,
		"encrypted": true, "kmsKeyId": dataKey, "automatedSnapshotRetentionPeriod": 7, "allowVersionUpgrade": true,
		"enhancedVpcRouting": true, "masterUsername": "warehouse_owner", "clusterStatus": "available",
		"endpoint": map[string]any{"address": "warehouse.abc123.eu-west-1.redshift.amazonaws.com", "port": 5439}}
}

func redshiftItem(conf map[string]any, logging any, history bool) string {
	var supp map[string]any
	if logging != nil {
		supp = map[string]any{"LoggingStatus": map[string]any{"loggingEnabled": logging, "bucketName": "acme-audit-logs", "s3KeyPrefix": "redshift/"}}
	}
	return dataItem("AWS::Redshift::Cluster", "warehouse", "arn:aws:redshift:eu-west-1:111122223333:cluster:warehouse", conf, supp, history)
}

func init() {
	c := goodCluster()
	mysql := with(c, "engine", "aurora-mysql", "enabledCloudwatchLogsExports", []string{"audit", "error"}, "backtrackWindow", 86400)
	cs := goodClusterSnapshot()
	r := goodRedshift()
	oldSnap := with(cs, "snapshotCreateTime", "2025-01-15T03:00:00.000Z")
	addConfigCases(map[string]configCase{
		"aws-rds-011": {pass: clusterItem(c, false), fail: clusterItem(with(c, "storageEncrypted", false, "kmsKeyId", nil), true)},
		"aws-rds-012": {pass: clusterItem(c, true), fail: clusterItem(with(c, "deletionProtection", false), false)},
		"aws-rds-013": {pass: clusterItem(c, false), fail: clusterItem(with(c, "backupRetentionPeriod", 1), false)},
		"aws-rds-014": {pass: clusterItem(c, false), fail: clusterItem(with(c, "iamdatabaseAuthenticationEnabled", false), true)},
		"aws-rds-015": {pass: clusterItem(c, false), fail: clusterItem(with(c, "enabledCloudwatchLogsExports", []string{}), false)},
		"aws-rds-016": {pass: clusterItem(c, false), fail: clusterItem(with(c, "multiAZ", false, "availabilityZones", []string{"eu-west-1a"}), false)},
		"aws-rds-017": {pass: clusterItem(c, false), fail: clusterItem(with(c, "masterUsername", "postgres"), false)},
		"aws-rds-018": {pass: clusterItem(mysql, false), fail: clusterItem(with(mysql, "backtrackWindow", 0), true)},
		"aws-rds-019": {pass: clusterItem(c, false), fail: clusterItem(with(c, "copyTagsToSnapshot", false), false)},
		"aws-rds-020": {pass: clusterItem(c, true), fail: clusterItem(with(c, "autoMinorVersionUpgrade", false), false)},
		"aws-rds-021": {pass: clusterItem(c, false), fail: clusterItem(with(c, "publiclyAccessible", true), true)},
		"aws-rds-022": {pass: clusterItem(c, false), fail: clusterItem(with(c, "dbclusterMembers", []any{}), false)},
		"aws-rds-023": {pass: clusterSnapshotItem(cs, []string{"444455556666"}, true), fail: clusterSnapshotItem(cs, []string{"all"}, true)},
		"aws-rds-024": {pass: clusterSnapshotItem(cs, []string{}, false), fail: clusterSnapshotItem(with(cs, "storageEncrypted", false, "kmsKeyId", nil), []string{}, false)},

		// The snapshot comes before its cluster: the check waits for the account's facts.
		"aws-rds-025": {pass: "[" + clusterSnapshotItem(oldSnap, []string{}, true) + "," + clusterItem(c, false) + "]",
			fail: "[" + clusterItem(with(c, "dbclusterIdentifier", "payments"), false) + "," + clusterSnapshotItem(oldSnap, []string{}, true) + "]"},
		"aws-rds-026": {pass: "[" + dbInstanceItem("orders-db") + "," + dbSnapshotItem("orders-db") + "]",
			fail: "[" + dbInstanceItem("billing-db") + "," + dbSnapshotItem("orders-db") + "]"},

		"aws-redshift-001": {pass: redshiftItem(r, true, false), fail: redshiftItem(with(r, "publiclyAccessible", true), true, false)},
		"aws-redshift-002": {pass: redshiftItem(r, true, true), fail: redshiftItem(with(r, "encrypted", false, "kmsKeyId", nil), true, true)},
		"aws-redshift-003": {pass: redshiftItem(r, true, true), fail: redshiftItem(r, false, true)},
		"aws-redshift-004": {pass: redshiftItem(r, true, false), fail: redshiftItem(with(r, "automatedSnapshotRetentionPeriod", 0), true, false)},
		"aws-redshift-005": {pass: redshiftItem(r, true, false), fail: redshiftItem(with(r, "allowVersionUpgrade", false), true, false)},
		"aws-redshift-006": {pass: redshiftItem(r, true, false), fail: redshiftItem(with(r, "enhancedVpcRouting", false), true, true)},
		"aws-redshift-007": {pass: redshiftItem(r, true, false), fail: redshiftItem(with(r, "masterUsername", "awsuser"), true, false)},
		"aws-redshift-008": {pass: redshiftItem(r, true, false), fail: redshiftItem(with(r, "nodeType", "ds2.xlarge"), true, false)},
		"aws-redshift-009": {pass: redshiftItem(r, true, false), fail: redshiftItem(with(r, "numberOfNodes", 1), true, false)},
	})
}

// dataUnknownCases are configuration items in AWS Config's shape that
// lack the fact a rule needs: the rule must report it not evaluated,
// naming the canonical attribute, and raise nothing.
var dataUnknownCases = map[string]struct {
	item    string
	missing string
}{
	"aws-rds-015":      {clusterItem(with(goodCluster(), "enabledCloudwatchLogsExports", nil), false), "enabled_cloudwatch_logs_exports"},
	"aws-rds-016":      {clusterItem(with(goodCluster(), "multiAZ", nil), true), "multi_az"},
	"aws-rds-019":      {clusterItem(with(goodCluster(), "copyTagsToSnapshot", nil), false), "copy_tags_to_snapshot"},
	"aws-rds-020":      {clusterItem(with(goodCluster(), "autoMinorVersionUpgrade", nil), false), "auto_minor_version_upgrade"},
	"aws-rds-021":      {clusterItem(with(goodCluster(), "publiclyAccessible", nil), true), "publicly_accessible"},
	"aws-rds-022":      {clusterItem(with(goodCluster(), "dbclusterMembers", nil), false), "member_count"},
	"aws-rds-023":      {clusterSnapshotItem(goodClusterSnapshot(), nil, true), "public"},
	"aws-redshift-003": {redshiftItem(goodRedshift(), nil, false), "logging_enabled"},
	// Without the Auditor's account facts, or with no cluster of the region
	// recorded, a cluster's absence proves nothing.
	"aws-rds-025": {clusterSnapshotItem(with(goodClusterSnapshot(), "snapshotCreateTime", "2024-01-01T00:00:00Z"), []string{}, false), "aws_rds_cluster.identifier"},
	"aws-rds-026": {dbSnapshotItem("orders-db"), "aws_rds_instance.identifier"},
}

func TestDataRules_UnknownIsNotEvaluated(t *testing.T) {
	for id, c := range dataUnknownCases {
		t.Run(id, func(t *testing.T) {
			res := decodeItems(t, c.item)
			if len(res) != 1 {
				t.Fatalf("%d resources", len(res))
			}
			assertNotEvaluated(t, res[0], id, []string{c.missing})
		})
	}
}
