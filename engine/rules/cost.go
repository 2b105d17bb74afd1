package rules

import (
	"strings"

	inv "github.com/fourd-dev/fourd/engine/inventory"
	"github.com/fourd-dev/fourd/engine/rules/pricing"
)

// previousGeneration are instance families AWS lists as previous generation.
var previousGeneration = map[string]bool{
	"t1": true, "m1": true, "m2": true, "m3": true, "m4": true, "c1": true, "c3": true, "c4": true,
	"r3": true, "r4": true, "i2": true, "g2": true, "cr1": true, "hs1": true, "cc2": true, "p2": true,
}

// previousGenerationManaged adds the families RDS and ElastiCache list as
// previous generation but EC2 does not.
func previousGenerationManaged(family string) bool {
	return previousGeneration[family] || family == "t2"
}

// prices is the embedded price table the cost rules estimate from.
var prices = pricing.Default()

// successor is the current-generation family a previous-generation family
// moves to at the same size, for the saving estimate; families without one
// are not estimated.
var successor = map[string]string{
	"t1": "t3", "m1": "m5", "m3": "m5", "m4": "m5", "c1": "c5", "c3": "c5", "c4": "c5", "r3": "r5", "r4": "r5",
}

// successorManaged adds the RDS and ElastiCache step from t2 to t3.
func successorManaged(family string) string {
	if family == "t2" {
		return "t3"
	}
	return successor[family]
}

// sameSize returns typ ("m4.large", "db.m4.large") in family to, same size.
func sameSize(typ, to string) string {
	prefix := ""
	for _, p := range []string{"db.", "cache."} {
		if strings.HasPrefix(typ, p) {
			prefix, typ = p, typ[len(p):]
		}
	}
	_, size, ok := strings.Cut(typ, ".")
	if !ok || to == "" {
		return ""
	}
	return prefix + to + "." + size
}

// estimated adds a monthly figure taken from the price table to ev under
// key ("estimated_monthly_usd" for money the finding wastes,
// "estimated_monthly_saving_usd" for money a change saves); when ok is
// false there is no price, and the evidence says why instead of guessing.
func estimated(ev map[string]any, key string, usd float64, ok bool, why string) map[string]any {
	if !ok {
		return notEstimated(ev, why)
	}
	ev[key] = pricing.Cents(usd)
	ev["estimate"] = "price_table"
	ev["price_table_as_of"] = prices.AsOf
	return ev
}

// notEstimated marks ev as carrying no monthly figure, with the reason.
func notEstimated(ev map[string]any, why string) map[string]any {
	ev["estimate"] = "not_estimated"
	ev["estimate_reason"] = why
	return ev
}

// noPrice is the reason of a figure missing from the price table.
func noPrice(what, region string) string {
	return "no price for " + what + " in " + region + " in the price table of " + prices.AsOf
}

// unpriced is the reason of a finding the price table does not cover.
func unpriced(what string) string { return "the price table has no " + what + " prices" }

// ebsWaste is the monthly storage price of an unattached volume.
func ebsWaste(v *inv.EBSVolume, region string) map[string]any {
	p, ok := prices.EBS(v.Type, region)
	ev := map[string]any{"volume_id": v.VolumeID, "size_gib": v.Size, "type": v.Type}
	if ok {
		ev["usd_per_gib_month"] = p
	}
	return estimated(ev, "estimated_monthly_usd", p*float64(v.Size), ok, noPrice("EBS "+v.Type, region))
}

// gp3Saving is the monthly saving of moving a gp2 volume to gp3.
func gp3Saving(v *inv.EBSVolume, region string) map[string]any {
	gp2, ok2 := prices.EBS("gp2", region)
	gp3, ok3 := prices.EBS("gp3", region)
	ev := map[string]any{"volume_id": v.VolumeID, "size_gib": v.Size}
	return estimated(ev, "estimated_monthly_saving_usd", (gp2-gp3)*float64(v.Size), ok2 && ok3, noPrice("EBS gp2 and gp3", region))
}

// snapshotCost is the monthly storage of a snapshot at most: snapshots
// are incremental, so the volume size bounds what is stored.
func snapshotCost(sn *inv.EBSSnapshot, age int, region string) map[string]any {
	p, ok := prices.Snapshot(region)
	ev := map[string]any{"snapshot_id": sn.SnapshotID, "age_days": age, "volume_size_gib": sn.VolumeSize}
	if ok {
		ev["usd_per_gib_month"] = p
		ev["estimate_basis"] = "volume_size_upper_bound"
	}
	return estimated(ev, "estimated_monthly_usd", p*float64(sn.VolumeSize), ok, noPrice("EBS snapshots", region))
}

// hourlyWaste is the monthly price of something billed by the hour.
func hourlyWaste(ev map[string]any, hourly float64, ok bool, why string) map[string]any {
	if ok {
		ev["usd_per_hour"] = hourly
	}
	return estimated(ev, "estimated_monthly_usd", hourly*prices.HoursPerMonth, ok, why)
}

// upgradeSaving is the monthly saving of moving a previous-generation type
// to its successor of the same size, both priced by price(type).
// where names the region (and engine) for the reason of a missing price.
func upgradeSaving(ev map[string]any, typ, next, where string, price func(string) (float64, bool)) map[string]any {
	if next == "" {
		return notEstimated(ev, "no current-generation successor of "+typ+" to compare with")
	}
	now, ok1 := price(typ)
	then, ok2 := price(next)
	if !ok1 || !ok2 {
		return notEstimated(ev, noPrice(typ+" or "+next, where))
	}
	ev["current_monthly_usd"] = prices.Monthly(now)
	ev["suggested_type"] = next
	return estimated(ev, "estimated_monthly_saving_usd", max(0, now-then)*prices.HoursPerMonth, true, "")
}

func costRules() []Rule {
	return []Rule{
		{ID: "aws-ebs-004", Dimension: cost, Severity: medium, ResourceTypes: []string{inv.TypeEBSVolume},
			Title:       "EBS volume is not attached",
			Description: "The volume is available (attached to no instance) and still billed every month.",
			Remediation: "Snapshot the volume if its data matters, then delete it.",
			Check: func(s *Subject) Result {
				v := get[inv.EBSVolume](s)
				return failIf(s, v.State == "available", func() map[string]any { return ebsWaste(v, s.Resource.Region) })
			}},
		{ID: "aws-ebs-005", Dimension: cost, Severity: low, ResourceTypes: []string{inv.TypeEBSVolume},
			Title:       "EBS volume uses gp2 instead of gp3",
			Description: "gp3 costs about 20% less than gp2 per GiB and has a higher baseline performance.",
			Remediation: "Modify the volume type to gp3 in place (no downtime): aws ec2 modify-volume --volume-type gp3.",
			Check: func(s *Subject) Result {
				v := get[inv.EBSVolume](s)
				return failIf(s, v.Type == "gp2", func() map[string]any { return gp3Saving(v, s.Resource.Region) })
			}},
		{ID: "aws-ebs-006", Dimension: cost, Severity: low, ResourceTypes: []string{inv.TypeEBSSnapshot},
			Title:       "EBS snapshot is older than 180 days",
			Description: "Old snapshots accumulate storage charges long after the data stops being useful.",
			Remediation: "Delete snapshots you no longer need, archive the rest (EBS Snapshots Archive), and let Data Lifecycle Manager expire them.",
			Check: func(s *Subject) Result {
				sn := get[inv.EBSSnapshot](s)
				age := days(sn.StartTime, s.Now)
				return failIf(s, age > 180, func() map[string]any { return snapshotCost(sn, age, s.Resource.Region) })
			}},
		{ID: "aws-ec2-009", Dimension: cost, Severity: low, ResourceTypes: []string{inv.TypeEIP},
			Title:       "Elastic IP address is not associated",
			Description: "An Elastic IP that is not associated with a running instance or network interface is billed by the hour.",
			Remediation: "Release the address if nothing needs it: aws ec2 release-address --allocation-id ID.",
			Check: func(s *Subject) Result {
				e := get[inv.EIP](s)
				if e.AssociationID == "" && e.InstanceID == "" && e.NetworkInterfaceID == "" && !s.recorded("association_id") {
					return notEvaluated("association_id")
				}
				if e.AssociationID != "" || e.InstanceID != "" || e.NetworkInterfaceID != "" {
					return passed(s, func() map[string]any {
						return map[string]any{"allocation_id": e.AllocationID, "association_id": e.AssociationID, "instance_id": e.InstanceID, "network_interface_id": e.NetworkInterfaceID}
					})
				}
				p, ok := prices.PublicIPv4(s.Resource.Region)
				return fail(hourlyWaste(map[string]any{"allocation_id": e.AllocationID, "public_ip": e.PublicIP}, p, ok,
					noPrice("public IPv4 addresses", s.Resource.Region)))
			}},
		{ID: "aws-ec2-010", Dimension: cost, Severity: medium, ResourceTypes: []string{inv.TypeInstance},
			Title:       "EC2 instance uses a previous-generation type",
			Description: "Current-generation instance types give more performance per dollar.",
			Remediation: "Move to the current generation of the family (for example m4 → m7i or m7g, t2 → t3 or t4g).",
			Check: func(s *Subject) Result {
				in := get[inv.Instance](s)
				fam := instanceFamily(in.InstanceType)
				if in.State == "terminated" || !previousGeneration[fam] {
					return passed(s, func() map[string]any {
						return map[string]any{"instance_id": in.InstanceID, "instance_type": in.InstanceType, "state": in.State, "previous_generation": previousGeneration[fam]}
					})
				}
				return fail(upgradeSaving(map[string]any{"instance_id": in.InstanceID, "instance_type": in.InstanceType},
					in.InstanceType, sameSize(in.InstanceType, successor[fam]), s.Resource.Region,
					func(t string) (float64, bool) { return prices.EC2(t, s.Resource.Region) }))
			}},
		{ID: "aws-ec2-011", Dimension: cost, Severity: low, ResourceTypes: []string{inv.TypeInstance},
			Title:       "Stopped EC2 instance still pays for its volumes",
			Description: "The instance has been stopped for more than 30 days (or since an unknown time) while its EBS volumes are still billed.",
			Remediation: "Create an AMI or snapshots and terminate the instance, or delete the volumes it does not need.",
			Check: func(s *Subject) Result {
				in := get[inv.Instance](s)
				d := days(in.StateChangedAt, s.Now)
				if in.State == "stopped" && len(in.VolumeIDs) > 0 && d < 0 {
					return notEvaluated("state_changed_at") // stopped since when, the source does not say
				}
				return failIf(s, in.State == "stopped" && len(in.VolumeIDs) > 0 && (d < 0 || d > 30),
					func() map[string]any {
						return notEstimated(map[string]any{"instance_id": in.InstanceID, "volume_ids": in.VolumeIDs, "stopped_days": d},
							"the volumes' sizes are on the volumes' own records (aws-ebs findings)")
					})
			}},
		{ID: "aws-elb-001", Dimension: cost, Severity: medium, ResourceTypes: []string{inv.TypeLB},
			Title:       "Load balancer has no registered targets",
			Description: "The load balancer serves nothing but is billed by the hour.",
			Remediation: "Delete the load balancer, or register the targets it was meant for.",
			Check: func(s *Subject) Result {
				lb := get[inv.LoadBalancer](s)
				if lb.TargetCount == nil || *lb.TargetCount != 0 {
					return passed(s, func() map[string]any { return map[string]any{"name": lb.Name, "target_count": lb.TargetCount} })
				}
				p, ok := prices.LoadBalancer(lb.Type, s.Resource.Region)
				return fail(hourlyWaste(map[string]any{"name": lb.Name, "type": lb.Type, "estimate_basis": "hourly_charge_without_capacity_units"},
					p, ok, noPrice(lb.Type+" load balancers", s.Resource.Region)))
			}},
		{ID: "aws-rds-003", Dimension: cost, Severity: medium, ResourceTypes: []string{inv.TypeDBInstance},
			Title:       "RDS instance uses a previous-generation class",
			Description: "Previous-generation database classes cost more for less performance and lose support.",
			Remediation: "Modify the instance to a current class (db.m7g, db.r7g, db.t4g) in a maintenance window.",
			Check: func(s *Subject) Result {
				d := get[inv.DBInstance](s)
				fam := instanceFamily(d.InstanceClass)
				if !previousGenerationManaged(fam) {
					return passed(s, func() map[string]any {
						return map[string]any{"identifier": d.Identifier, "instance_class": d.InstanceClass, "previous_generation": false}
					})
				}
				return fail(upgradeSaving(map[string]any{"identifier": d.Identifier, "instance_class": d.InstanceClass, "engine": d.Engine, "multi_az": d.MultiAZ},
					d.InstanceClass, sameSize(d.InstanceClass, successorManaged(fam)), s.Resource.Region+" for "+d.Engine,
					func(c string) (float64, bool) { return prices.RDS(c, d.Engine, s.Resource.Region, d.MultiAZ) }))
			}},
		{ID: "aws-rds-004", Dimension: cost, Severity: low, ResourceTypes: []string{inv.TypeDBInstance},
			Title:       "RDS storage uses gp2 instead of gp3",
			Description: "gp3 storage is cheaper than gp2 and decouples IOPS from size.",
			Remediation: "Modify the instance's storage type to gp3.",
			Check: func(s *Subject) Result {
				d := get[inv.DBInstance](s)
				return failIf(s, d.StorageType == "gp2", func() map[string]any {
					return notEstimated(map[string]any{"identifier": d.Identifier, "allocated_storage_gib": d.AllocatedStorage}, unpriced("RDS storage"))
				})
			}},
		{ID: "aws-s3-006", Dimension: cost, Severity: low, ResourceTypes: []string{inv.TypeS3Bucket},
			Title:       "S3 bucket has no lifecycle rules",
			Description: "Without lifecycle rules, old objects, noncurrent versions and incomplete multipart uploads are kept in the most expensive storage class forever.",
			Remediation: "Add lifecycle rules that transition old objects to cheaper classes and expire noncurrent versions and incomplete uploads.",
			Check: func(s *Subject) Result {
				b := get[inv.S3Bucket](s)
				return failIfRecorded(s, b.LifecycleRuleCount == 0, "lifecycle_rule_count", func() map[string]any {
					return notEstimated(map[string]any{"bucket": b.Bucket, "lifecycle_rule_count": b.LifecycleRuleCount}, unpriced("S3 storage"))
				})
			}},
		{ID: "aws-dynamodb-001", Dimension: cost, Severity: low, ResourceTypes: []string{inv.TypeDynamoDBTable},
			Title:       "Provisioned DynamoDB table has no auto scaling",
			Description: "Fixed provisioned capacity is paid for whether used or not.",
			Remediation: "Enable auto scaling on the table's read and write capacity, or switch to on-demand (PAY_PER_REQUEST).",
			Check: func(s *Subject) Result {
				t := get[inv.DynamoDBTable](s)
				if t.BillingMode != "PROVISIONED" {
					return passed(s, func() map[string]any { return map[string]any{"name": t.Name, "billing_mode": t.BillingMode} })
				}
				if t.AutoScalingEnabled == nil {
					return notEvaluated("autoscaling_enabled")
				}
				return failIf(s, !*t.AutoScalingEnabled,
					func() map[string]any {
						return notEstimated(map[string]any{"table": t.Name, "read_capacity": t.ReadCapacity, "write_capacity": t.WriteCapacity}, unpriced("DynamoDB capacity"))
					})
			}},
		{ID: "aws-lambda-003", Dimension: cost, Severity: info, ResourceTypes: []string{inv.TypeLambdaFunction},
			Title:       "Lambda function runs on x86_64 instead of arm64",
			Description: "Graviton (arm64) Lambda costs about 20% less per GB-second.",
			Remediation: "Rebuild native dependencies for arm64 and set the function's architecture to arm64.",
			Check: func(s *Subject) Result {
				f := get[inv.LambdaFunction](s)
				return failIfZero(s, !contains(f.Architectures, "arm64"), len(f.Architectures) == 0, "architectures",
					func() map[string]any {
						return notEstimated(map[string]any{"function_name": f.FunctionName, "memory_mb": f.MemorySize, "architectures": f.Architectures}, unpriced("Lambda"))
					})
			}},
		{ID: "aws-elasticache-002", Dimension: cost, Severity: medium, ResourceTypes: []string{inv.TypeElastiCacheCluster},
			Title:       "ElastiCache cluster uses a previous-generation node type",
			Description: "Previous-generation cache nodes cost more per GiB of memory.",
			Remediation: "Move to a current node type (cache.m7g, cache.r7g, cache.t4g).",
			Check: func(s *Subject) Result {
				c := get[inv.ElastiCacheCluster](s)
				return failIf(s, previousGenerationManaged(instanceFamily(c.NodeType)), func() map[string]any {
					return notEstimated(map[string]any{"cluster_id": c.ClusterID, "node_type": c.NodeType}, unpriced("ElastiCache nodes"))
				})
			}},
		{ID: "aws-logs-001", Dimension: cost, Severity: low, ResourceTypes: []string{inv.TypeLogGroup},
			Title:       "CloudWatch log group never expires",
			Description: "Log events are kept, and billed, forever.",
			Remediation: "Set a retention period that matches your policy: aws logs put-retention-policy --retention-in-days N.",
			Check: func(s *Subject) Result {
				l := get[inv.LogGroup](s)
				return failIfRecorded(s, l.RetentionInDays == 0, "retention_in_days", func() map[string]any {
					return notEstimated(map[string]any{"log_group": l.Name, "stored_bytes": l.StoredBytes, "retention_in_days": l.RetentionInDays}, unpriced("CloudWatch Logs storage"))
				})
			}},
		{ID: "aws-efs-001", Dimension: cost, Severity: low, ResourceTypes: []string{inv.TypeEFSFileSystem},
			Title:       "EFS file system has no lifecycle policy",
			Description: "Files that are not read stay in EFS Standard storage instead of the much cheaper Infrequent Access class.",
			Remediation: "Add a lifecycle policy such as TransitionToIA AFTER_30_DAYS.",
			Check: func(s *Subject) Result {
				f := get[inv.EFSFileSystem](s)
				return failIfRecorded(s, f.TransitionToIA == "", "transition_to_ia", func() map[string]any {
					return notEstimated(map[string]any{"file_system_id": f.FileSystemID, "transition_to_ia": f.TransitionToIA}, unpriced("EFS storage"))
				})
			}},
	}
}
