package rules

// AWS Config cases of more original checks. Shapes: awslabs/aws-config-
// resource-schema, config/properties/resource-types/
// AWS::AutoScaling::AutoScalingGroup (autoScalingGroupName,
// availabilityZones, healthCheckType, targetGroupARNs),
// AWS::CloudFront::Distribution (distributionConfig.defaultCacheBehavior
// .viewerProtocolPolicy, viewerCertificate.minimumProtocolVersion,
// logging.enabled/bucket), AWS::DynamoDB::Table (deletionProtectionEnabled;
// the ContinuousBackupsDescription supplement),
// AWS::EFS::FileSystem (CloudFormation's names: Encrypted,
// LifecyclePolicies[].TransitionToIA, BackupPolicy.Status),
// AWS::ElastiCache::CacheCluster (cacheNodeType, numCacheNodes,
// preferredAvailabilityZone "Multiple" for cross-AZ,
// atRestEncryptionEnabled, transitEncryptionEnabled,
// snapshotRetentionLimit), AWS::Logs::LogGroup (LogGroupName,
// RetentionInDays, KmsKeyId), AWS::SNS::Topic (KmsMasterKeyId),
// AWS::SQS::Queue (RedrivePolicy, SqsManagedSseEnabled as strings, as
// GetQueueAttributes returns them), AWS::Config::ConfigurationRecorder
// (recordingGroup; the ConfigurationRecorderStatus supplement) and
// AWS::EC2::VPC with AWS::EC2::FlowLog (resourceId, flowLogStatus).

func asgItem2(zones []string, health string, history bool) string {
	return dataItem("AWS::AutoScaling::AutoScalingGroup", "web", "arn:aws:autoscaling:eu-west-1:111122223333:autoScalingGroup:0a1b2c3d:autoScalingGroupName/web",
		map[string]any{"autoScalingGroupName": "web", "availabilityZones": zones, "minSize": 2, "maxSize": 6, "desiredCapacity": 2,
			"healthCheckType": health, "healthCheckGracePeriod": 300, "launchTemplate": map[string]any{"launchTemplateName": "web", "version": "$Latest"},
			"targetGroupARNs": []string{"arn:aws:elasticloadbalancing:eu-west-1:111122223333:targetgroup/web/73e2d6bc24d8a067"}, "loadBalancerNames": []string{}}, nil, history)
}

func distributionItem(edit func(c map[string]any), history bool) string {
	c := map[string]any{"enabled": true, "priceClass": "PriceClass_100", "webACLId": "arn:aws:wafv2:us-east-1:111122223333:global/webacl/edge/0a1b2c3d",
		"defaultCacheBehavior": map[string]any{"viewerProtocolPolicy": "redirect-to-https", "targetOriginId": "s3-assets"},
		"viewerCertificate":    map[string]any{"minimumProtocolVersion": "TLSv1.2_2021", "sslSupportMethod": "sni-only"},
		"logging":              map[string]any{"enabled": true, "bucket": "acme-cf-logs.s3.amazonaws.com", "prefix": "assets/", "includeCookies": false},
		"origins": map[string]any{"quantity": 1, "items": []any{map[string]any{"id": "s3-assets", "domainName": "acme-assets.s3.eu-west-1.amazonaws.com",
			"s3OriginConfig": map[string]any{"originAccessIdentity": ""}, "originAccessControlId": "E2QWRUHEXAMPLE"}}}}
	if edit != nil {
		edit(c)
	}
	return configItemJSON(dataAcct, "global", map[string]string{"owner": "web", "environment": "production", "cost-center": "cc-7"},
		"AWS::CloudFront::Distribution", "E2QWRUHAPOMQZL", "arn:aws:cloudfront::111122223333:distribution/E2QWRUHAPOMQZL",
		map[string]any{"id": "E2QWRUHAPOMQZL", "domainName": "d111111abcdef8.cloudfront.net", "distributionConfig": c}, nil, history)
}

func efsItem(conf map[string]any, history bool) string {
	base := map[string]any{"FileSystemId": "fs-0a1b2c3d", "Encrypted": true, "KmsKeyId": dataKey, "PerformanceMode": "generalPurpose",
		"ThroughputMode": "elastic", "BackupPolicy": map[string]any{"Status": "ENABLED"},
		"LifecyclePolicies": []any{map[string]any{"TransitionToIA": "AFTER_30_DAYS"}, map[string]any{"TransitionToPrimaryStorageClass": "AFTER_1_ACCESS"}}}
	for k, v := range conf {
		base[k] = v
	}
	return dataItem("AWS::EFS::FileSystem", "fs-0a1b2c3d", "arn:aws:elasticfilesystem:eu-west-1:111122223333:file-system/fs-0a1b2c3d", base, nil, history)
}

func cacheItem(conf map[string]any, history bool) string {
	base := map[string]any{"cacheClusterId": "sessions", "engine": "redis", "engineVersion": "7.1", "cacheNodeType": "cache.r7g.large",
		"numCacheNodes": 2, "preferredAvailabilityZone": "Multiple", "atRestEncryptionEnabled": true, "transitEncryptionEnabled": true,
		"snapshotRetentionLimit": 7, "cacheClusterStatus": "available"}
	for k, v := range conf {
		base[k] = v
	}
	return dataItem("AWS::ElastiCache::CacheCluster", "sessions", "arn:aws:elasticache:eu-west-1:111122223333:cluster:sessions", base, nil, history)
}

func logGroupItem(conf map[string]any, history bool) string {
	base := map[string]any{"LogGroupName": "/acme/orders", "RetentionInDays": 90, "KmsKeyId": dataKey}
	for k, v := range conf {
		base[k] = v
	}
	return dataItem("AWS::Logs::LogGroup", "/acme/orders", "arn:aws:logs:eu-west-1:111122223333:log-group:/acme/orders", base, nil, history)
}

func plainQueueItem(conf map[string]any, history bool) string {
	base := map[string]any{"QueueUrl": "https://sqs.eu-west-1.amazonaws.com/111122223333/orders", "QueueArn": "arn:aws:sqs:eu-west-1:111122223333:orders",
		"SqsManagedSseEnabled": "true", "MessageRetentionPeriod": "345600",
		"RedrivePolicy": `{"deadLetterTargetArn":"arn:aws:sqs:eu-west-1:111122223333:orders-dlq","maxReceiveCount":5}`}
	for k, v := range conf {
		if v == nil {
			delete(base, k)
			continue
		}
		base[k] = v
	}
	return dataItem("AWS::SQS::Queue", "https://sqs.eu-west-1.amazonaws.com/111122223333/orders", "arn:aws:sqs:eu-west-1:111122223333:orders", base, nil, history)
}

func recorderItem(allSupported, recording bool, history bool) string {
	return dataItem("AWS::Config::ConfigurationRecorder", "default", "arn:aws:config:eu-west-1:111122223333:config-recorder/default",
		map[string]any{"name": "default", "roleARN": "arn:aws:iam::111122223333:role/aws-config",
			"recordingGroup": map[string]any{"allSupported": allSupported, "includeGlobalResourceTypes": true, "resourceTypes": []string{}}},
		map[string]any{"ConfigurationRecorderStatus": map[string]any{"name": "default", "recording": recording, "lastStatus": "SUCCESS"}}, history)
}

func vpcItem2(id string, history bool) string {
	return dataItem("AWS::EC2::VPC", id, ec2ARN("vpc", id),
		map[string]any{"vpcId": id, "cidrBlock": "10.20.0.0/16", "isDefault": false, "state": "available", "instanceTenancy": "default"}, nil, history)
}

func flowLogItem(vpc string, history bool) string {
	return dataItem("AWS::EC2::FlowLog", "fl-0a1b2c3d4e5f60718", ec2ARN("vpc-flow-log", "fl-0a1b2c3d4e5f60718"),
		map[string]any{"flowLogId": "fl-0a1b2c3d4e5f60718", "resourceId": vpc, "flowLogStatus": "ACTIVE", "trafficType": "ALL",
			"logDestinationType": "cloud-watch-logs", "logDestination": "arn:aws:logs:eu-west-1:111122223333:log-group:vpc-flow-logs"}, nil, history)
}

// pitrItem is the table orders with point-in-time recovery in status.
func pitrItem(status string, history bool) string {
	return dataItem("AWS::DynamoDB::Table", "orders", "arn:aws:dynamodb:eu-west-1:111122223333:table/orders",
		map[string]any{"tableName": "orders", "tableArn": "arn:aws:dynamodb:eu-west-1:111122223333:table/orders", "tableStatus": "ACTIVE",
			"billingModeSummary": map[string]any{"billingMode": "PAY_PER_REQUEST"}, "deletionProtectionEnabled": true},
		map[string]any{"ContinuousBackupsDescription": map[string]any{"continuousBackupsStatus": "ENABLED",
			"pointInTimeRecoveryDescription": map[string]any{"pointInTimeRecoveryStatus": status}}}, history)
}

func init() {
	twoAZ := []string{"eu-west-1a", "eu-west-1b"}
	topic := func(key string, history bool) string {
		return dataItem("AWS::SNS::Topic", "arn:aws:sns:eu-west-1:111122223333:alerts", "arn:aws:sns:eu-west-1:111122223333:alerts",
			map[string]any{"TopicArn": "arn:aws:sns:eu-west-1:111122223333:alerts", "KmsMasterKeyId": key}, nil, history)
	}
	untagged := configItemJSON(dataAcct, dataRegion, map[string]string{"owner": "data"}, "AWS::Logs::LogGroup", "/acme/orders",
		"arn:aws:logs:eu-west-1:111122223333:log-group:/acme/orders", map[string]any{"LogGroupName": "/acme/orders", "RetentionInDays": 90, "KmsKeyId": dataKey}, nil, true)
	addConfigCases(map[string]configCase{
		"aws-asg-001": {asgItem2(twoAZ, "ELB", false), asgItem2([]string{"eu-west-1a"}, "ELB", true)},
		"aws-asg-002": {asgItem2(twoAZ, "ELB", false), asgItem2(twoAZ, "EC2", false)},

		"aws-cloudfront-001": {distributionItem(nil, false), distributionItem(func(c map[string]any) {
			c["defaultCacheBehavior"] = map[string]any{"viewerProtocolPolicy": "allow-all", "targetOriginId": "s3-assets"}
		}, true)},
		"aws-cloudfront-002": {distributionItem(nil, false), distributionItem(func(c map[string]any) {
			c["viewerCertificate"] = map[string]any{"minimumProtocolVersion": "TLSv1_2016", "sslSupportMethod": "sni-only"}
		}, false)},
		"aws-cloudfront-003": {distributionItem(nil, false), distributionItem(func(c map[string]any) {
			c["logging"] = map[string]any{"enabled": false, "bucket": "", "prefix": "", "includeCookies": false}
		}, true)},

		"aws-config-001": {recorderItem(true, true, false), recorderItem(false, true, true)},

		"aws-dynamodb-002": {pitrItem("ENABLED", false), pitrItem("DISABLED", true)},
		"aws-dynamodb-003": {dynamoItem(nil, false), dynamoItem(map[string]any{"deletionProtectionEnabled": false}, true)},

		"aws-efs-001": {efsItem(nil, false), efsItem(map[string]any{"LifecyclePolicies": []any{}}, true)},
		"aws-efs-002": {efsItem(nil, false), efsItem(map[string]any{"BackupPolicy": map[string]any{"Status": "DISABLED"}}, false)},
		"aws-efs-003": {efsItem(nil, false), efsItem(map[string]any{"Encrypted": false, "KmsKeyId": ""}, true)},

		"aws-elasticache-001": {cacheItem(nil, false), cacheItem(map[string]any{"transitEncryptionEnabled": false}, true)},
		"aws-elasticache-002": {cacheItem(nil, false), cacheItem(map[string]any{"cacheNodeType": "cache.m3.medium"}, false)},
		"aws-elasticache-003": {cacheItem(nil, false), cacheItem(map[string]any{"numCacheNodes": 1, "preferredAvailabilityZone": "eu-west-1a"}, true)},
		"aws-elasticache-004": {cacheItem(nil, false), cacheItem(map[string]any{"snapshotRetentionLimit": 0}, false)},
		"aws-elasticache-005": {cacheItem(nil, false), cacheItem(map[string]any{"atRestEncryptionEnabled": false}, true)},

		"aws-logs-001": {logGroupItem(nil, false), logGroupItem(map[string]any{"RetentionInDays": nil}, true)},
		"aws-logs-002": {logGroupItem(nil, false), logGroupItem(map[string]any{"KmsKeyId": nil}, false)},

		"aws-sns-001": {topic("alias/aws/sns", false), topic("", true)},
		"aws-sqs-001": {plainQueueItem(nil, false), plainQueueItem(map[string]any{"RedrivePolicy": nil}, true)},
		"aws-sqs-002": {plainQueueItem(nil, false), plainQueueItem(map[string]any{"SqsManagedSseEnabled": "false"}, false)},

		"aws-tag-001": {logGroupItem(nil, false), untagged},
		// The account records flow logs (one for another VPC): this VPC
		// has none.
		"aws-vpc-001": {"[" + vpcItem2("vpc-0a1b2c3d", false) + "," + flowLogItem("vpc-0a1b2c3d", false) + "]",
			"[" + vpcItem2("vpc-0a1b2c3d", true) + "," + flowLogItem("vpc-0f9e8d7c", true) + "]"},
	})
}
