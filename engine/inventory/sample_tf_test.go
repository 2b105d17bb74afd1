package inventory

import (
	"fmt"
	"strings"
)

// tfResource is one Terraform resource as state and show output hold it.
type tfResource struct {
	typ, name string
	attrs     map[string]any
}

// terraformOf writes an estate resource as the AWS provider stores it,
// with the companions the provider (v4+) splits S3 buckets into.
func terraformOf(s sample, n int) []tfResource {
	r := s.res
	base := map[string]any{"region": r.Region, "tags": r.Tags, "tags_all": r.Tags}
	if r.Region == RegionGlobal {
		delete(base, "region")
	}
	if r.Tags == nil {
		base["tags"], base["tags_all"] = map[string]string{}, map[string]string{}
	}
	put := func(kv ...any) map[string]any {
		m := map[string]any{}
		for k, v := range base {
			m[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	name := tfName(r.Name, n)
	one := func(typ string, attrs map[string]any) []tfResource { return []tfResource{{typ, name, attrs}} }
	switch a := s.attrs.(type) {
	case *S3Bucket:
		out := []tfResource{{"aws_s3_bucket", name, put("id", a.Bucket, "bucket", a.Bucket, "arn", r.NativeID, "object_lock_enabled", a.ObjectLockEnabled,
			"force_destroy", false, "bucket_domain_name", a.Bucket+".s3.amazonaws.com")}}
		if a.PublicAccessBlock != nil {
			p := a.PublicAccessBlock
			out = append(out, tfResource{"aws_s3_bucket_public_access_block", name, map[string]any{"id": a.Bucket, "bucket": a.Bucket,
				"block_public_acls": p.BlockPublicACLs, "ignore_public_acls": p.IgnorePublicACLs, "block_public_policy": p.BlockPublicPolicy, "restrict_public_buckets": p.RestrictPublicBuckets}})
		}
		if a.SSEAlgorithm != "" {
			out = append(out, tfResource{"aws_s3_bucket_server_side_encryption_configuration", name, map[string]any{"id": a.Bucket, "bucket": a.Bucket,
				"rule": []any{map[string]any{"bucket_key_enabled": false, "apply_server_side_encryption_by_default": []any{
					map[string]any{"sse_algorithm": a.SSEAlgorithm, "kms_master_key_id": a.KMSMasterKeyID}}}}}})
		}
		if a.Versioning != "" {
			out = append(out, tfResource{"aws_s3_bucket_versioning", name, map[string]any{"id": a.Bucket, "bucket": a.Bucket,
				"versioning_configuration": []any{map[string]any{"status": a.Versioning, "mfa_delete": map[bool]string{true: "Enabled", false: "Disabled"}[a.MFADelete]}}}})
		}
		if a.LoggingTargetBucket != "" {
			out = append(out, tfResource{"aws_s3_bucket_logging", name, map[string]any{"id": a.Bucket, "bucket": a.Bucket, "target_bucket": a.LoggingTargetBucket, "target_prefix": "s3/"}})
		}
		if a.Policy != nil {
			out = append(out, tfResource{"aws_s3_bucket_policy", name, map[string]any{"id": a.Bucket, "bucket": a.Bucket, "policy": jsonString(a.Policy)}})
		}
		if a.ACL != "" {
			out = append(out, tfResource{"aws_s3_bucket_acl", name, map[string]any{"id": a.Bucket + "," + a.ACL, "bucket": a.Bucket, "acl": a.ACL}})
		}
		if a.LifecycleRuleCount > 0 {
			var rules []any
			for i := 0; i < a.LifecycleRuleCount; i++ {
				rules = append(rules, map[string]any{"id": fmt.Sprintf("rule-%d", i+1), "status": "Enabled"})
			}
			out = append(out, tfResource{"aws_s3_bucket_lifecycle_configuration", name, map[string]any{"id": a.Bucket, "bucket": a.Bucket, "rule": rules}})
		}
		return out
	case *SecurityGroup:
		typ := "aws_security_group"
		attrs := put("id", a.GroupID, "arn", r.NativeID, "name", a.GroupName, "description", a.Description, "vpc_id", a.VPCID, "owner_id", r.Account,
			"ingress", tfRules(a.Ingress), "egress", tfRules(a.Egress), "revoke_rules_on_delete", false)
		if a.GroupName == "default" {
			typ = "aws_default_security_group"
			delete(attrs, "name")
		}
		return one(typ, attrs)
	case *Instance:
		root := []any{}
		if len(a.VolumeIDs) > 0 {
			root = append(root, map[string]any{"volume_id": a.VolumeIDs[0], "volume_size": 50, "volume_type": "gp3", "encrypted": true, "device_name": "/dev/xvda"})
		}
		return one("aws_instance", put("id", a.InstanceID, "arn", r.NativeID, "ami", a.ImageID, "instance_type", a.InstanceType, "instance_state", a.State,
			"availability_zone", a.AvailabilityZone, "subnet_id", a.SubnetID, "public_ip", a.PublicIP, "iam_instance_profile", a.IAMInstanceProfile,
			"metadata_options", []any{map[string]any{"http_endpoint": "enabled", "http_tokens": a.MetadataHTTPTokens, "http_put_response_hop_limit": 2}},
			"root_block_device", root, "ebs_block_device", []any{}, "vpc_security_group_ids", a.SecurityGroupIDs, "monitoring", a.Monitoring))
	case *EBSVolume:
		out := one("aws_ebs_volume", put("id", a.VolumeID, "arn", r.NativeID, "availability_zone", a.AvailabilityZone, "size", a.Size, "type", a.Type,
			"iops", map[string]int{"gp3": 3000}[a.Type], "encrypted", a.Encrypted, "kms_key_id", a.KMSKeyID, "final_snapshot", false))
		for _, i := range a.AttachedTo {
			out = append(out, tfResource{"aws_volume_attachment", name, map[string]any{"id": "vai-" + fmt.Sprint(3000000000+n), "device_name": "/dev/sdf",
				"instance_id": i, "volume_id": a.VolumeID}})
		}
		return out
	case *EBSSnapshot:
		return one("aws_ebs_snapshot", put("id", a.SnapshotID, "arn", r.NativeID, "volume_id", a.VolumeID, "volume_size", a.VolumeSize,
			"encrypted", a.Encrypted, "owner_id", r.Account, "description", a.Description))
	case *DBInstance:
		return one("aws_db_instance", put("id", "db-"+strings.ToUpper(fmt.Sprintf("%026x", n*7919))[:26], "arn", r.NativeID, "identifier", a.Identifier,
			"engine", a.Engine, "engine_version", a.EngineVersion, "instance_class", a.InstanceClass, "allocated_storage", a.AllocatedStorage,
			"storage_type", a.StorageType, "storage_encrypted", a.StorageEncrypted, "kms_key_id", a.KMSKeyID, "publicly_accessible", a.PubliclyAccessible,
			"multi_az", a.MultiAZ, "backup_retention_period", a.BackupRetentionPeriod, "deletion_protection", a.DeletionProtection,
			"auto_minor_version_upgrade", a.AutoMinorVersionUpgrade, "availability_zone", a.AvailabilityZone, "status", a.Status, "skip_final_snapshot", false))
	case *EIP:
		return one("aws_eip", put("id", a.AllocationID, "arn", r.NativeID, "allocation_id", a.AllocationID, "public_ip", a.PublicIP,
			"association_id", a.AssociationID, "instance", a.InstanceID, "network_interface", a.NetworkInterfaceID, "domain", "vpc"))
	case *LoadBalancer:
		return one("aws_lb", put("id", r.NativeID, "arn", r.NativeID, "name", a.Name, "load_balancer_type", a.Type, "internal", a.Scheme == "internal",
			"dns_name", a.DNSName, "enable_deletion_protection", a.DeletionProtection,
			"access_logs", []any{map[string]any{"enabled": a.AccessLogsEnabled, "bucket": "alpenglow-lb-logs", "prefix": a.Name}}))
	case *CloudTrail:
		sel := []any{}
		if isTrue(a.S3DataEvents) {
			sel = append(sel, map[string]any{"read_write_type": "All", "include_management_events": true,
				"data_resource": []any{map[string]any{"type": "AWS::S3::Object", "values": []string{"arn:aws:s3"}}}})
		}
		return one("aws_cloudtrail", put("id", r.NativeID, "arn", r.NativeID, "name", a.Name, "home_region", a.HomeRegion,
			"is_multi_region_trail", a.IsMultiRegionTrail, "include_global_service_events", a.IncludeGlobalServiceEvents, "enable_logging", a.IsLogging,
			"enable_log_file_validation", a.LogFileValidationEnabled, "kms_key_id", a.KMSKeyID, "s3_bucket_name", a.S3BucketName,
			"cloud_watch_logs_group_arn", a.CloudWatchLogsLogGroupARN, "event_selector", sel))
	case *KMSKey:
		return one("aws_kms_key", put("id", a.KeyID, "arn", r.NativeID, "key_id", a.KeyID, "customer_master_key_spec", a.KeySpec, "key_usage", a.KeyUsage,
			"is_enabled", a.KeyState == "Enabled", "enable_key_rotation", a.KeyRotationEnabled, "deletion_window_in_days", 30))
	case *IAMUser:
		return one("aws_iam_user", put("id", a.UserName, "arn", r.NativeID, "name", a.UserName, "unique_id", a.UserID, "path", "/", "force_destroy", false))
	case *IAMAccessKey:
		return one("aws_iam_access_key", map[string]any{"id": a.AccessKeyID, "user": a.UserName, "status": a.Status,
			"create_date": a.CreateDate, "secret": nil, "encrypted_secret": nil})
	case *VPC:
		out := one("aws_vpc", put("id", a.VPCID, "arn", r.NativeID, "cidr_block", a.CIDRBlock, "owner_id", r.Account, "enable_dns_support", true))
		if a.FlowLogsEnabled != nil && *a.FlowLogsEnabled {
			out = append(out, tfResource{"aws_flow_log", name, put("id", "fl-0"+a.VPCID[4:20], "arn", strings.Replace(r.NativeID, ":vpc/", ":vpc-flow-log/fl-0", 1)+"",
				"vpc_id", a.VPCID, "traffic_type", "ALL", "log_destination_type", "cloud-watch-logs")})
		}
		return out
	}
	return terraformMore(s, put, name)
}

func tfRules(rules []SGRule) []any {
	out := []any{}
	for _, r := range rules {
		out = append(out, map[string]any{"protocol": r.Protocol, "from_port": r.FromPort, "to_port": r.ToPort, "cidr_blocks": orEmpty(r.CIDRBlocks),
			"ipv6_cidr_blocks": orEmpty(r.IPv6CIDRBlocks), "security_groups": orEmpty(r.SecurityGroups), "prefix_list_ids": []string{},
			"self": false, "description": ""})
	}
	return out
}

// tfName turns a display name into a Terraform resource name.
func tfName(name string, n int) string {
	var b strings.Builder
	for _, c := range strings.ToLower(name) {
		switch {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			b.WriteRune(c)
		case b.Len() > 0:
			b.WriteByte('_')
		}
	}
	return strings.Trim(b.String(), "_") + fmt.Sprintf("_%d", n)
}

func terraformMore(s sample, put func(kv ...any) map[string]any, name string) []tfResource {
	r := s.res
	one := func(typ string, attrs map[string]any) []tfResource { return []tfResource{{typ, name, attrs}} }
	switch a := s.attrs.(type) {
	case *LambdaFunction:
		dlq := []any{}
		if a.DeadLetterTargetARN != "" {
			dlq = append(dlq, map[string]any{"target_arn": a.DeadLetterTargetARN})
		}
		return one("aws_lambda_function", put("id", a.FunctionName, "arn", r.NativeID, "function_name", a.FunctionName, "runtime", a.Runtime,
			"memory_size", a.MemorySize, "timeout", a.Timeout, "architectures", a.Architectures, "handler", "main.handler",
			"dead_letter_config", dlq, "tracing_config", []any{map[string]any{"mode": a.TracingMode}}))
	case *AutoScalingGroup:
		return one("aws_autoscaling_group", put("id", a.Name, "arn", r.NativeID, "name", a.Name, "availability_zones", a.AvailabilityZones,
			"min_size", a.MinSize, "max_size", a.MaxSize, "desired_capacity", a.DesiredCapacity, "health_check_type", a.HealthCheckType,
			"health_check_grace_period", 300, "target_group_arns", orEmpty(a.TargetGroupARNs), "load_balancers", orEmpty(a.LoadBalancers)))
	case *ElastiCacheCluster:
		return one("aws_elasticache_cluster", put("id", a.ClusterID, "arn", r.NativeID, "cluster_id", a.ClusterID, "engine", a.Engine,
			"engine_version", a.EngineVersion, "node_type", a.NodeType, "num_cache_nodes", a.NumCacheNodes, "az_mode", a.AZMode,
			"at_rest_encryption_enabled", boolString(*a.AtRestEncryptionEnabled), "transit_encryption_enabled", a.TransitEncryptionEnabled,
			"snapshot_retention_limit", a.SnapshotRetentionLimit))
	case *DynamoDBTable:
		return one("aws_dynamodb_table", put("id", a.Name, "arn", r.NativeID, "name", a.Name, "billing_mode", a.BillingMode,
			"read_capacity", a.ReadCapacity, "write_capacity", a.WriteCapacity, "hash_key", "pk", "range_key", "sk",
			"point_in_time_recovery", []any{map[string]any{"enabled": a.PointInTimeRecovery}}, "deletion_protection_enabled", a.DeletionProtectionEnabled,
			"server_side_encryption", []any{}))
	case *EFSFileSystem:
		lc := []any{}
		if a.TransitionToIA != "" {
			lc = append(lc, map[string]any{"transition_to_ia": a.TransitionToIA})
		}
		return one("aws_efs_file_system", put("id", a.FileSystemID, "arn", r.NativeID, "encrypted", a.Encrypted, "kms_key_id", a.KMSKeyID,
			"performance_mode", a.PerformanceMode, "throughput_mode", "bursting", "lifecycle_policy", lc))
	case *CloudFrontDistribution:
		logging := []any{}
		if a.LoggingBucket != "" {
			logging = append(logging, map[string]any{"bucket": a.LoggingBucket, "include_cookies": false, "prefix": ""})
		}
		return one("aws_cloudfront_distribution", put("id", a.DistributionID, "arn", r.NativeID, "domain_name", a.DomainName, "enabled", a.Enabled,
			"default_cache_behavior", []any{map[string]any{"viewer_protocol_policy": a.ViewerProtocolPolicy, "target_origin_id": "origin-1"}},
			"viewer_certificate", []any{map[string]any{"minimum_protocol_version": a.MinimumProtocolVersion, "cloudfront_default_certificate": a.MinimumProtocolVersion == "TLSv1"}},
			"logging_config", logging, "web_acl_id", a.WebACLID, "price_class", a.PriceClass))
	case *SQSQueue:
		redrive := ""
		if a.DeadLetterTargetARN != "" {
			redrive = jsonString(map[string]any{"deadLetterTargetArn": a.DeadLetterTargetARN, "maxReceiveCount": 5})
		}
		return one("aws_sqs_queue", put("id", a.URL, "arn", r.NativeID, "name", a.Name, "url", a.URL, "sqs_managed_sse_enabled", a.SQSManagedSSEEnabled,
			"kms_master_key_id", a.KMSMasterKeyID, "redrive_policy", redrive, "message_retention_seconds", a.MessageRetentionSeconds))
	case *SNSTopic:
		return one("aws_sns_topic", put("id", r.NativeID, "arn", r.NativeID, "name", a.Name, "kms_master_key_id", a.KMSMasterKeyID))
	case *ConfigRecorder:
		return one("aws_config_configuration_recorder", put("id", a.Name, "name", a.Name,
			"role_arn", "arn:aws:iam::"+r.Account+":role/aws-service-role/config.amazonaws.com/AWSServiceRoleForConfig",
			"recording_group", []any{map[string]any{"all_supported": a.AllSupported, "include_global_resource_types": a.IncludeGlobalResourceTypes}}))
	case *GuardDutyDetector:
		return one("aws_guardduty_detector", put("id", a.DetectorID, "arn", r.NativeID, "enable", a.Enabled, "finding_publishing_frequency", "SIX_HOURS"))
	case *LogGroup:
		return one("aws_cloudwatch_log_group", put("id", a.Name, "arn", r.NativeID, "name", a.Name, "retention_in_days", a.RetentionInDays, "kms_key_id", a.KMSKeyID))
	case *DBSnapshot:
		shared := []string{}
		if isTrue(a.Public) {
			shared = append(shared, "all")
		}
		return one("aws_db_snapshot", put("id", a.Identifier, "db_snapshot_arn", r.NativeID, "db_snapshot_identifier", a.Identifier,
			"db_instance_identifier", a.DBInstanceIdentifier, "engine", a.Engine, "snapshot_type", a.SnapshotType, "encrypted", a.Encrypted,
			"shared_accounts", shared))
	}
	return nil // aws_iam_account: no Terraform resource
}
