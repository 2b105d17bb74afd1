package inventory

import (
	"strings"
)

// configItemMore covers the service types configItemOf does not.
func configItemMore(s sample, n int) (map[string]any, bool) {
	r := s.res
	var typ, id string
	var conf map[string]any
	supp := map[string]any{}
	switch a := s.attrs.(type) {
	case *LoadBalancer:
		typ, id = "AWS::ElasticLoadBalancingV2::LoadBalancer", r.NativeID
		azs := []any{}
		for i, z := range a.AvailabilityZones {
			azs = append(azs, map[string]any{"zoneName": z, "subnetId": "subnet-0" + strings.Repeat("ab", 8)[:15-i], "loadBalancerAddresses": []any{}})
		}
		conf = map[string]any{"loadBalancerArn": r.NativeID, "dNSName": a.DNSName, "canonicalHostedZoneId": "Z32O12XQLNTSW2",
			"loadBalancerName": a.Name, "scheme": a.Scheme, "type": a.Type, "availabilityZones": azs, "state": map[string]any{"code": "active"},
			"ipAddressType": "ipv4", "securityGroups": []any{}}
		supp["LoadBalancerAttributes"] = []any{
			map[string]any{"key": "access_logs.s3.enabled", "value": boolString(isTrue(a.AccessLogsEnabled))},
			map[string]any{"key": "deletion_protection.enabled", "value": boolString(isTrue(a.DeletionProtection))},
			map[string]any{"key": "idle_timeout.timeout_seconds", "value": "60"},
		}
	case *CloudTrail:
		typ, id = "AWS::CloudTrail::Trail", a.Name
		conf = map[string]any{"name": a.Name, "s3BucketName": a.S3BucketName, "includeGlobalServiceEvents": a.IncludeGlobalServiceEvents,
			"isMultiRegionTrail": a.IsMultiRegionTrail, "homeRegion": a.HomeRegion, "trailARN": r.NativeID, "logFileValidationEnabled": a.LogFileValidationEnabled,
			"cloudWatchLogsLogGroupArn": nilIfEmpty(a.CloudWatchLogsLogGroupARN), "kmsKeyId": nilIfEmpty(a.KMSKeyID), "hasCustomEventSelectors": isTrue(a.S3DataEvents),
			"isOrganizationTrail": false}
		// AWS Config records neither the trail's status nor its event
		// selectors (awslabs/aws-config-resource-schema,
		// AWS::CloudTrail::Trail.properties.json): a trail from AWS Config
		// has unknown logging.
	case *KMSKey:
		typ, id = "AWS::KMS::Key", a.KeyID
		conf = map[string]any{"keyId": a.KeyID, "arn": r.NativeID, "keyManager": a.KeyManager, "keySpec": a.KeySpec, "customerMasterKeySpec": a.KeySpec,
			"keyUsage": a.KeyUsage, "keyState": a.KeyState, "enabled": a.KeyState == "Enabled", "origin": "AWS_KMS", "multiRegion": false}
		if !a.DeletionDate.IsZero() {
			conf["deletionDate"] = a.DeletionDate
		}
		supp["KeyRotationStatus"] = a.KeyRotationEnabled
	case *LambdaFunction:
		typ, id = "AWS::Lambda::Function", a.FunctionName
		conf = map[string]any{"functionName": a.FunctionName, "functionArn": r.NativeID, "runtime": a.Runtime, "memorySize": a.MemorySize,
			"timeout": a.Timeout, "architectures": a.Architectures, "handler": "main.handler", "tracingConfig": map[string]any{"mode": a.TracingMode},
			"packageType": "Zip"}
		if a.DeadLetterTargetARN != "" {
			conf["deadLetterConfig"] = map[string]any{"targetArn": a.DeadLetterTargetARN}
		}
	case *AutoScalingGroup:
		typ, id = "AWS::AutoScaling::AutoScalingGroup", r.NativeID
		conf = map[string]any{"autoScalingGroupName": a.Name, "autoScalingGroupARN": r.NativeID, "availabilityZones": a.AvailabilityZones,
			"minSize": a.MinSize, "maxSize": a.MaxSize, "desiredCapacity": a.DesiredCapacity, "healthCheckType": a.HealthCheckType,
			"healthCheckGracePeriod": 300, "targetGroupARNs": orEmpty(a.TargetGroupARNs), "loadBalancerNames": orEmpty(a.LoadBalancers)}
	case *ElastiCacheCluster:
		typ, id = "AWS::ElastiCache::CacheCluster", a.ClusterID
		az := r.Region + "a"
		if a.AZMode == "cross-az" {
			az = "Multiple"
		}
		conf = map[string]any{"cacheClusterId": a.ClusterID, "engine": a.Engine, "engineVersion": a.EngineVersion, "cacheNodeType": a.NodeType,
			"numCacheNodes": a.NumCacheNodes, "preferredAvailabilityZone": az, "atRestEncryptionEnabled": a.AtRestEncryptionEnabled,
			"transitEncryptionEnabled": a.TransitEncryptionEnabled, "snapshotRetentionLimit": a.SnapshotRetentionLimit, "cacheClusterStatus": "available"}
	case *DynamoDBTable:
		typ, id = "AWS::DynamoDB::Table", a.Name
		conf = map[string]any{"tableName": a.Name, "tableArn": r.NativeID, "tableStatus": "ACTIVE", "itemCount": a.ItemCount,
			"provisionedThroughput":     map[string]any{"readCapacityUnits": a.ReadCapacity, "writeCapacityUnits": a.WriteCapacity, "numberOfDecreasesToday": 0},
			"deletionProtectionEnabled": a.DeletionProtectionEnabled}
		if a.BillingMode == "PAY_PER_REQUEST" {
			conf["billingModeSummary"] = map[string]any{"billingMode": "PAY_PER_REQUEST"}
		}
		status := "DISABLED"
		if isTrue(a.PointInTimeRecovery) {
			status = "ENABLED"
		}
		supp["ContinuousBackupsDescription"] = map[string]any{"continuousBackupsStatus": "ENABLED",
			"pointInTimeRecoveryDescription": map[string]any{"pointInTimeRecoveryStatus": status}}
		// AWS Config records no auto scaling facts for a table
		// (awslabs/aws-config-resource-schema, AWS::DynamoDB::Table):
		// a provisioned table from AWS Config has unknown auto scaling.
	case *EFSFileSystem:
		typ, id = "AWS::EFS::FileSystem", a.FileSystemID
		lc := []any{}
		if a.TransitionToIA != "" {
			lc = append(lc, map[string]any{"TransitionToIA": a.TransitionToIA})
		}
		conf = map[string]any{"FileSystemId": a.FileSystemID, "Arn": r.NativeID, "Encrypted": a.Encrypted, "KmsKeyId": nilIfEmpty(a.KMSKeyID),
			"PerformanceMode": a.PerformanceMode, "ThroughputMode": "bursting", "BackupPolicy": map[string]any{"Status": a.BackupPolicy},
			"LifecyclePolicies": lc, "FileSystemTags": []any{}}
	case *CloudFrontDistribution:
		typ, id = "AWS::CloudFront::Distribution", a.DistributionID
		conf = map[string]any{"id": a.DistributionID, "arn": r.NativeID, "domainName": a.DomainName, "status": "Deployed",
			"distributionConfig": map[string]any{"enabled": a.Enabled, "priceClass": a.PriceClass, "webACLId": a.WebACLID,
				"defaultCacheBehavior": map[string]any{"viewerProtocolPolicy": a.ViewerProtocolPolicy, "targetOriginId": "origin-1"},
				"viewerCertificate":    map[string]any{"minimumProtocolVersion": a.MinimumProtocolVersion, "cloudFrontDefaultCertificate": a.MinimumProtocolVersion == "TLSv1"},
				"logging":              map[string]any{"enabled": a.LoggingBucket != "", "bucket": a.LoggingBucket, "includeCookies": false, "prefix": ""}}}
	case *SQSQueue:
		typ, id = "AWS::SQS::Queue", a.URL
		conf = map[string]any{"QueueUrl": a.URL, "QueueArn": r.NativeID, "SqsManagedSseEnabled": boolString(*a.SQSManagedSSEEnabled),
			"MessageRetentionPeriod": itoaTest(a.MessageRetentionSeconds), "VisibilityTimeout": "30"}
		if a.DeadLetterTargetARN != "" {
			conf["RedrivePolicy"] = jsonString(map[string]any{"deadLetterTargetArn": a.DeadLetterTargetARN, "maxReceiveCount": 5})
		}
		if a.KMSMasterKeyID != "" {
			conf["KmsMasterKeyId"] = a.KMSMasterKeyID
		}
	case *SNSTopic:
		typ, id = "AWS::SNS::Topic", r.NativeID
		conf = map[string]any{"TopicArn": r.NativeID, "DisplayName": a.Name}
		if a.KMSMasterKeyID != "" {
			conf["KmsMasterKeyId"] = a.KMSMasterKeyID
		}
	case *ConfigRecorder:
		typ, id = "AWS::Config::ConfigurationRecorder", "default"
		conf = map[string]any{"name": a.Name, "roleARN": "arn:aws:iam::" + r.Account + ":role/aws-service-role/config.amazonaws.com/AWSServiceRoleForConfig",
			"recordingGroup": map[string]any{"allSupported": a.AllSupported, "includeGlobalResourceTypes": a.IncludeGlobalResourceTypes, "resourceTypes": []any{}}}
		supp["ConfigurationRecorderStatus"] = map[string]any{"name": a.Name, "recording": a.Recording, "lastStatus": "SUCCESS"}
	case *GuardDutyDetector:
		typ, id = "AWS::GuardDuty::Detector", a.DetectorID
		conf = map[string]any{"Id": a.DetectorID, "Enable": a.Enabled, "FindingPublishingFrequency": "SIX_HOURS"}
	case *LogGroup:
		typ, id = "AWS::Logs::LogGroup", a.Name
		conf = map[string]any{"LogGroupName": a.Name, "Arn": r.NativeID}
		if a.RetentionInDays > 0 {
			conf["RetentionInDays"] = a.RetentionInDays
		}
		if a.KMSKeyID != "" {
			conf["KmsKeyId"] = a.KMSKeyID
		}
	case *DBSnapshot:
		typ, id = "AWS::RDS::DBSnapshot", a.Identifier
		conf = map[string]any{"dBSnapshotIdentifier": a.Identifier, "dBSnapshotArn": r.NativeID, "dBInstanceIdentifier": a.DBInstanceIdentifier,
			"engine": a.Engine, "snapshotType": a.SnapshotType, "encrypted": a.Encrypted, "snapshotCreateTime": a.CreateTime, "status": "available"}
		restore := []string{}
		if isTrue(a.Public) {
			restore = append(restore, "all")
		}
		supp["DBSnapshotAttributes"] = []any{map[string]any{"attributeName": "restore", "attributeValues": restore}}
	default:
		return nil, false // aws_iam_account, aws_iam_access_key, aws_ebs_snapshot: not recorded by AWS Config
	}
	return configItem2(s, typ, id, conf, supp), true
}

func boolString(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

func itoaTest(i int) string { return strings.TrimSpace(jsonString(i)) }

// isTrue reads a tri-state attribute of the estate, unknown as false.
func isTrue(p *bool) bool { return p != nil && *p }
