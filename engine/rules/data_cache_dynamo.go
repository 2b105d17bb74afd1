package rules

import (
	"strconv"
	"strings"
	"time"

	inv "github.com/fourd-dev/fourd/engine/inventory"
)

// redisStandardSupportEnds is when ElastiCache's standard support of a
// Redis OSS major version ended, from AWS's "Redis OSS versions end of life
// schedule" (AmazonElastiCache red-ug deprecated-engine-versions): 2.x on
// 2023-01-13, 3.x on 2023-07-31; 4.x and 5.x entered paid Extended Support
// after 2026-01-31.
var redisStandardSupportEnds = map[int]time.Time{
	2: time.Date(2023, 1, 13, 0, 0, 0, 0, time.UTC),
	3: time.Date(2023, 7, 31, 0, 0, 0, 0, time.UTC),
	4: time.Date(2026, 1, 31, 0, 0, 0, 0, time.UTC),
	5: time.Date(2026, 1, 31, 0, 0, 0, 0, time.UTC),
}

// majorVersion is the leading number of a version such as "5.0.6"; -1
// when there is none.
func majorVersion(v string) int {
	if i := strings.IndexByte(v, '.'); i >= 0 {
		v = v[:i]
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return -1
	}
	return n
}

// cacheDynamoRules are the family's further checks of types older than it
// (ElastiCache clusters, DynamoDB tables; issue 29 §4).
func cacheDynamoRules() []Rule {
	return []Rule{
		{ID: "aws-elasticache-006", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeElastiCacheCluster},
			Title:       "ElastiCache cluster runs a Redis OSS version past standard support",
			Description: "The cluster's Redis OSS major version is past the end of ElastiCache standard support (2.x and 3.x reached end of life in 2023; 4.x and 5.x left standard support on 2026-01-31): it gets no regular security patches, and 4.x/5.x are billed Extended Support.",
			Remediation: "Upgrade the engine to Valkey 8 or Redis OSS 7 (aws elasticache modify-cache-cluster --cache-cluster-id ID --engine valkey --engine-version 8.0 --apply-immediately, or the replication group); Terraform: engine_version.",
			Check: func(s *Subject) Result {
				c := get[inv.ElastiCacheCluster](s)
				major := majorVersion(c.EngineVersion)
				if c.Engine != "redis" || major < 0 {
					if c.Engine == "redis" && c.EngineVersion == "" {
						return notEvaluated("engine_version")
					}
					return passed(s, func() map[string]any {
						return map[string]any{"cluster_id": c.ClusterID, "engine": c.Engine, "engine_version": c.EngineVersion}
					})
				}
				end, listed := redisStandardSupportEnds[major]
				ev := map[string]any{"cluster_id": c.ClusterID, "engine_version": c.EngineVersion}
				if listed {
					ev["standard_support_ended"] = end.Format("2006-01-02")
				}
				return failIf(s, major < 2 || listed && !s.Now.Before(end), func() map[string]any { return ev })
			}},
		{ID: "aws-dynamodb-004", Dimension: cost, Severity: low, ResourceTypes: []string{inv.TypeDynamoDBTable},
			Title:       "Provisioned DynamoDB table holds no items",
			Description: "The table is billed for provisioned read and write capacity but DynamoDB reports it empty (the count is refreshed about every six hours).",
			Remediation: "Delete the table if it is unused (aws dynamodb delete-table --table-name NAME), or switch it to on-demand: aws dynamodb update-table --table-name NAME --billing-mode PAY_PER_REQUEST.",
			Check: func(s *Subject) Result {
				t := get[inv.DynamoDBTable](s)
				if t.BillingMode == "PROVISIONED" && t.ReadCapacity+t.WriteCapacity == 0 {
					// No capacity read may be none recorded: a pass needs both.
					if m := s.unrecorded("read_capacity", "write_capacity"); len(m) > 0 {
						return notEvaluated(m...)
					}
				}
				if t.BillingMode != "PROVISIONED" || t.ReadCapacity+t.WriteCapacity == 0 {
					return passed(s, func() map[string]any { return map[string]any{"table": t.Name, "billing_mode": t.BillingMode} })
				}
				if t.ItemCount == nil {
					return notEvaluated("item_count")
				}
				return failIf(s, *t.ItemCount == 0, func() map[string]any {
					return notEstimated(map[string]any{"table": t.Name, "read_capacity": t.ReadCapacity,
						"write_capacity": t.WriteCapacity, "item_count": *t.ItemCount}, unpriced("DynamoDB capacity"))
				})
			}},
	}
}
