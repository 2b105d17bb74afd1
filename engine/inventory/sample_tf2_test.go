package inventory

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
			"at_rest_encryption_enabled", boolString(a.AtRestEncryptionEnabled), "transit_encryption_enabled", a.TransitEncryptionEnabled,
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
