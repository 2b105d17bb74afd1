package rules

import (
	"math"

	inv "github.com/fourd-dev/fourd/engine/inventory"
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

// ebsPricePerGiB is an indicative us-east-1 monthly price per GiB, for
// evidence only.
var ebsPricePerGiB = map[string]float64{
	"gp2": 0.10, "gp3": 0.08, "io1": 0.125, "io2": 0.125, "st1": 0.045, "sc1": 0.015, "standard": 0.05,
}

func monthlyEBS(typ string, size int) float64 {
	return math.Round(ebsPricePerGiB[typ]*float64(size)*100) / 100
}

func costRules() []Rule {
	return []Rule{
		{ID: "aws-ebs-004", Dimension: cost, Severity: medium, ResourceTypes: []string{inv.TypeEBSVolume},
			Title:       "EBS volume is not attached",
			Description: "The volume is available (attached to no instance) and still billed every month.",
			Remediation: "Snapshot the volume if its data matters, then delete it.",
			Check: func(s *Subject) Result {
				v := get[inv.EBSVolume](s)
				return failIf(v.State == "available", map[string]any{"volume_id": v.VolumeID, "size_gib": v.Size, "type": v.Type,
					"estimated_monthly_usd": monthlyEBS(v.Type, v.Size)})
			}},
		{ID: "aws-ebs-005", Dimension: cost, Severity: low, ResourceTypes: []string{inv.TypeEBSVolume},
			Title:       "EBS volume uses gp2 instead of gp3",
			Description: "gp3 costs about 20% less than gp2 per GiB and has a higher baseline performance.",
			Remediation: "Modify the volume type to gp3 in place (no downtime): aws ec2 modify-volume --volume-type gp3.",
			Check: func(s *Subject) Result {
				v := get[inv.EBSVolume](s)
				saving := monthlyEBS("gp2", v.Size) - monthlyEBS("gp3", v.Size)
				return failIf(v.Type == "gp2", map[string]any{"volume_id": v.VolumeID, "size_gib": v.Size,
					"estimated_monthly_saving_usd": math.Round(saving*100) / 100})
			}},
		{ID: "aws-ebs-006", Dimension: cost, Severity: low, ResourceTypes: []string{inv.TypeEBSSnapshot},
			Title:       "EBS snapshot is older than 180 days",
			Description: "Old snapshots accumulate storage charges long after the data stops being useful.",
			Remediation: "Delete snapshots you no longer need, archive the rest (EBS Snapshots Archive), and let Data Lifecycle Manager expire them.",
			Check: func(s *Subject) Result {
				sn := get[inv.EBSSnapshot](s)
				age := days(sn.StartTime, s.Now)
				return failIf(age > 180, map[string]any{"snapshot_id": sn.SnapshotID, "age_days": age, "volume_size_gib": sn.VolumeSize})
			}},
		{ID: "aws-ec2-009", Dimension: cost, Severity: low, ResourceTypes: []string{inv.TypeEIP},
			Title:       "Elastic IP address is not associated",
			Description: "An Elastic IP that is not associated with a running instance or network interface is billed by the hour.",
			Remediation: "Release the address if nothing needs it: aws ec2 release-address --allocation-id ID.",
			Check: func(s *Subject) Result {
				e := get[inv.EIP](s)
				return failIf(e.AssociationID == "" && e.InstanceID == "" && e.NetworkInterfaceID == "",
					map[string]any{"allocation_id": e.AllocationID, "public_ip": e.PublicIP})
			}},
		{ID: "aws-ec2-010", Dimension: cost, Severity: medium, ResourceTypes: []string{inv.TypeInstance},
			Title:       "EC2 instance uses a previous-generation type",
			Description: "Current-generation instance types give more performance per dollar.",
			Remediation: "Move to the current generation of the family (for example m4 → m7i or m7g, t2 → t3 or t4g).",
			Check: func(s *Subject) Result {
				in := get[inv.Instance](s)
				return failIf(in.State != "terminated" && previousGeneration[instanceFamily(in.InstanceType)],
					map[string]any{"instance_id": in.InstanceID, "instance_type": in.InstanceType})
			}},
		{ID: "aws-ec2-011", Dimension: cost, Severity: low, ResourceTypes: []string{inv.TypeInstance},
			Title:       "Stopped EC2 instance still pays for its volumes",
			Description: "The instance has been stopped for more than 30 days (or since an unknown time) while its EBS volumes are still billed.",
			Remediation: "Create an AMI or snapshots and terminate the instance, or delete the volumes it does not need.",
			Check: func(s *Subject) Result {
				in := get[inv.Instance](s)
				d := days(in.StateChangedAt, s.Now)
				return failIf(in.State == "stopped" && len(in.VolumeIDs) > 0 && (d < 0 || d > 30),
					map[string]any{"instance_id": in.InstanceID, "volume_ids": in.VolumeIDs, "stopped_days": d})
			}},
		{ID: "aws-elb-001", Dimension: cost, Severity: medium, ResourceTypes: []string{inv.TypeLB},
			Title:       "Load balancer has no registered targets",
			Description: "The load balancer serves nothing but is billed by the hour.",
			Remediation: "Delete the load balancer, or register the targets it was meant for.",
			Check: func(s *Subject) Result {
				lb := get[inv.LoadBalancer](s)
				return failIf(lb.TargetCount != nil && *lb.TargetCount == 0, map[string]any{"name": lb.Name, "type": lb.Type})
			}},
		{ID: "aws-rds-003", Dimension: cost, Severity: medium, ResourceTypes: []string{inv.TypeDBInstance},
			Title:       "RDS instance uses a previous-generation class",
			Description: "Previous-generation database classes cost more for less performance and lose support.",
			Remediation: "Modify the instance to a current class (db.m7g, db.r7g, db.t4g) in a maintenance window.",
			Check: func(s *Subject) Result {
				d := get[inv.DBInstance](s)
				return failIf(previousGenerationManaged(instanceFamily(d.InstanceClass)), map[string]any{"identifier": d.Identifier, "instance_class": d.InstanceClass})
			}},
		{ID: "aws-rds-004", Dimension: cost, Severity: low, ResourceTypes: []string{inv.TypeDBInstance},
			Title:       "RDS storage uses gp2 instead of gp3",
			Description: "gp3 storage is cheaper than gp2 and decouples IOPS from size.",
			Remediation: "Modify the instance's storage type to gp3.",
			Check: func(s *Subject) Result {
				d := get[inv.DBInstance](s)
				return failIf(d.StorageType == "gp2", map[string]any{"identifier": d.Identifier, "allocated_storage_gib": d.AllocatedStorage})
			}},
		{ID: "aws-s3-006", Dimension: cost, Severity: low, ResourceTypes: []string{inv.TypeS3Bucket},
			Title:       "S3 bucket has no lifecycle rules",
			Description: "Without lifecycle rules, old objects, noncurrent versions and incomplete multipart uploads are kept in the most expensive storage class forever.",
			Remediation: "Add lifecycle rules that transition old objects to cheaper classes and expire noncurrent versions and incomplete uploads.",
			Check: func(s *Subject) Result {
				b := get[inv.S3Bucket](s)
				return failIf(b.LifecycleRuleCount == 0, map[string]any{"bucket": b.Bucket})
			}},
		{ID: "aws-dynamodb-001", Dimension: cost, Severity: low, ResourceTypes: []string{inv.TypeDynamoDBTable},
			Title:       "Provisioned DynamoDB table has no auto scaling",
			Description: "Fixed provisioned capacity is paid for whether used or not.",
			Remediation: "Enable auto scaling on the table's read and write capacity, or switch to on-demand (PAY_PER_REQUEST).",
			Check: func(s *Subject) Result {
				t := get[inv.DynamoDBTable](s)
				if t.BillingMode != "PROVISIONED" {
					return pass
				}
				if t.AutoScalingEnabled == nil {
					return notEvaluated("autoscaling_enabled")
				}
				return failIf(!*t.AutoScalingEnabled,
					map[string]any{"table": t.Name, "read_capacity": t.ReadCapacity, "write_capacity": t.WriteCapacity})
			}},
		{ID: "aws-lambda-003", Dimension: cost, Severity: info, ResourceTypes: []string{inv.TypeLambdaFunction},
			Title:       "Lambda function runs on x86_64 instead of arm64",
			Description: "Graviton (arm64) Lambda costs about 20% less per GB-second.",
			Remediation: "Rebuild native dependencies for arm64 and set the function's architecture to arm64.",
			Check: func(s *Subject) Result {
				f := get[inv.LambdaFunction](s)
				return failIf(!contains(f.Architectures, "arm64"), map[string]any{"function_name": f.FunctionName, "memory_mb": f.MemorySize})
			}},
		{ID: "aws-elasticache-002", Dimension: cost, Severity: medium, ResourceTypes: []string{inv.TypeElastiCacheCluster},
			Title:       "ElastiCache cluster uses a previous-generation node type",
			Description: "Previous-generation cache nodes cost more per GiB of memory.",
			Remediation: "Move to a current node type (cache.m7g, cache.r7g, cache.t4g).",
			Check: func(s *Subject) Result {
				c := get[inv.ElastiCacheCluster](s)
				return failIf(previousGenerationManaged(instanceFamily(c.NodeType)), map[string]any{"cluster_id": c.ClusterID, "node_type": c.NodeType})
			}},
		{ID: "aws-logs-001", Dimension: cost, Severity: low, ResourceTypes: []string{inv.TypeLogGroup},
			Title:       "CloudWatch log group never expires",
			Description: "Log events are kept, and billed, forever.",
			Remediation: "Set a retention period that matches your policy: aws logs put-retention-policy --retention-in-days N.",
			Check: func(s *Subject) Result {
				l := get[inv.LogGroup](s)
				return failIf(l.RetentionInDays == 0, map[string]any{"log_group": l.Name, "stored_bytes": l.StoredBytes})
			}},
		{ID: "aws-efs-001", Dimension: cost, Severity: low, ResourceTypes: []string{inv.TypeEFSFileSystem},
			Title:       "EFS file system has no lifecycle policy",
			Description: "Files that are not read stay in EFS Standard storage instead of the much cheaper Infrequent Access class.",
			Remediation: "Add a lifecycle policy such as TransitionToIA AFTER_30_DAYS.",
			Check: func(s *Subject) Result {
				f := get[inv.EFSFileSystem](s)
				return failIf(f.TransitionToIA == "", map[string]any{"file_system_id": f.FileSystemID})
			}},
	}
}
