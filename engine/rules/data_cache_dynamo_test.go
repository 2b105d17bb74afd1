package rules

import (
	"testing"
	"time"

	inv "github.com/fourd-dev/fourd/engine/inventory"
)

// AWS Config cases of aws-elasticache-006; shape: AWS::ElastiCache::CacheCluster
// as the existing decoder reads it (cacheClusterId, engine, engineVersion).
func cacheClusterItem(engine, version string, history bool) string {
	c := map[string]any{"cacheClusterId": "sessions", "engine": engine, "cacheNodeType": "cache.r7g.large", "numCacheNodes": 2,
		"preferredAvailabilityZone": "Multiple", "atRestEncryptionEnabled": true, "transitEncryptionEnabled": true,
		"snapshotRetentionLimit": 7, "cacheClusterStatus": "available"}
	if version != "" {
		c["engineVersion"] = version
	}
	return dataItem("AWS::ElastiCache::CacheCluster", "sessions", "arn:aws:elasticache:eu-west-1:111122223333:cluster:sessions", c, nil, history)
}

func init() {
	addConfigCases(map[string]configCase{
		"aws-elasticache-006": {pass: cacheClusterItem("redis", "7.1", false), fail: cacheClusterItem("redis", "3.2.10", true)},
	})
	dataUnknownCases["aws-elasticache-006"] = struct{ item, missing string }{cacheClusterItem("redis", "", false), "engine_version"}
}

// TestElastiCacheRedisSupportDates checks that 4.x and 5.x fail only once
// their standard support has ended, 3.x always, and other engines never.
func TestElastiCacheRedisSupportDates(t *testing.T) {
	before := time.Date(2026, 1, 30, 0, 0, 0, 0, time.UTC)
	after := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		engine, version string
		at              time.Time
		fires           bool
	}{
		{"redis", "5.0.6", before, false},
		{"redis", "5.0.6", after, true},
		{"redis", "4.0.10", after, true},
		{"redis", "3.2.10", before, true},
		{"redis", "6.2", after, false},
		{"redis", "7.1", after, false},
		{"valkey", "7.2", after, false},
		{"memcached", "1.4.5", after, false},
	} {
		res := mk(inv.TypeElastiCacheCluster, `{"cluster_id":"c","engine":"`+c.engine+`","engine_version":"`+c.version+`"}`)
		_, fired := firedIDs(Assess(res, c.at).Violations)["aws-elasticache-006"]
		if fired != c.fires {
			t.Errorf("%s %s at %s: fired %v, want %v", c.engine, c.version, c.at.Format("2006-01-02"), fired, c.fires)
		}
	}
}

// dynamoItem is an AWS::DynamoDB::Table item (awslabs/aws-config-resource-
// schema: tableName, billingModeSummary, provisionedThroughput, itemCount)
// with point-in-time recovery on.
func dynamoItem(conf map[string]any, history bool) string {
	base := map[string]any{"tableName": "orders", "tableArn": "arn:aws:dynamodb:eu-west-1:111122223333:table/orders", "tableStatus": "ACTIVE",
		"provisionedThroughput": map[string]any{"readCapacityUnits": 50, "writeCapacityUnits": 20}, "itemCount": 120000,
		"sSEDescription": map[string]any{"status": "ENABLED", "sSEType": "KMS", "kMSMasterKeyArn": dataKey}, "deletionProtectionEnabled": true}
	for k, v := range conf {
		base[k] = v
	}
	if conf["itemCount"] == "absent" {
		delete(base, "itemCount")
	}
	return dataItem("AWS::DynamoDB::Table", "orders", "arn:aws:dynamodb:eu-west-1:111122223333:table/orders", base,
		map[string]any{"ContinuousBackupsDescription": map[string]any{"continuousBackupsStatus": "ENABLED",
			"pointInTimeRecoveryDescription": map[string]any{"pointInTimeRecoveryStatus": "ENABLED"}}}, history)
}

func init() {
	addConfigCases(map[string]configCase{
		"aws-dynamodb-004": {pass: dynamoItem(nil, false), fail: dynamoItem(map[string]any{"itemCount": 0}, true)},
	})
	dataUnknownCases["aws-dynamodb-004"] = struct{ item, missing string }{dynamoItem(map[string]any{"itemCount": "absent"}, false), "item_count"}
}
