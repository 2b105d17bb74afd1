package rules

// AWS Config cases of the original RDS, EBS, CloudTrail, load balancer,
// Lambda and KMS checks. Shapes: awslabs/aws-config-resource-schema,
// config/properties/resource-types/ AWS::RDS::DBInstance (dBInstanceIdentifier,
// dBInstanceClass, storageEncrypted, publiclyAccessible, multiAZ,
// backupRetentionPeriod, deletionProtection, autoMinorVersionUpgrade,
// storageType), AWS::RDS::DBSnapshot (dBSnapshotIdentifier, encrypted;
// the DBSnapshotAttributes supplement whose "restore" attribute lists
// "all" for a public snapshot), AWS::EC2::Volume (volumeId, size,
// volumeType, encrypted, state, attachments), AWS::CloudTrail::Trail
// (logFileValidationEnabled, kmsKeyId, cloudWatchLogsLogGroupArn),
// AWS::ElasticLoadBalancingV2::LoadBalancer (availabilityZones[].zoneName;
// the LoadBalancerAttributes supplement of key/value pairs that AWS Config's
// managed rules elb-deletion-protection-enabled and elb-logging-enabled
// read), AWS::Lambda::Function (runtime, architectures,
// deadLetterConfig.targetArn) and AWS::KMS::Key (keyState, deletionDate;
// the Policy supplement, a JSON string).

func goodDBInstance() map[string]any {
	return map[string]any{"dBInstanceIdentifier": "orders-db", "dBInstanceArn": "arn:aws:rds:eu-west-1:111122223333:db:orders-db",
		"dBInstanceClass": "db.r7g.large", "engine": "postgres", "engineVersion": "16.3", "dBInstanceStatus": "available",
		"allocatedStorage": 200, "storageType": "gp3", "storageEncrypted": true, "kmsKeyId": dataKey, "publiclyAccessible": false,
		"multiAZ": true, "backupRetentionPeriod": 14, "deletionProtection": true, "autoMinorVersionUpgrade": true,
		"availabilityZone": "eu-west-1a", "secondaryAvailabilityZone": "eu-west-1b", "copyTagsToSnapshot": true,
		"iAMDatabaseAuthenticationEnabled": true, "dbInstancePort": 0, "endpoint": map[string]any{"address": "orders-db.abc.eu-west-1.rds.amazonaws.com", "port": 5432}}
}

func dbItem(conf map[string]any, history bool) string {
	return dataItem("AWS::RDS::DBInstance", "db-ABCDEFGHIJKLMNOPQRSTUVWXY0", "arn:aws:rds:eu-west-1:111122223333:db:orders-db", conf, nil, history)
}

func dbSnapItem(encrypted bool, restore []string, history bool) string {
	values := []any{}
	for _, v := range restore {
		values = append(values, v)
	}
	return dataItem("AWS::RDS::DBSnapshot", "orders-db-final", "arn:aws:rds:eu-west-1:111122223333:snapshot:orders-db-final",
		map[string]any{"dBSnapshotIdentifier": "orders-db-final", "dBInstanceIdentifier": "orders-db", "engine": "postgres",
			"snapshotType": "manual", "encrypted": encrypted, "kmsKeyId": dataKey, "snapshotCreateTime": "2025-05-31T03:00:00.000Z", "status": "available"},
		map[string]any{"DBSnapshotAttributes": []any{map[string]any{"attributeName": "restore", "attributeValues": values}}}, history)
}

func goodVolume() map[string]any {
	return map[string]any{"volumeId": "vol-0a1b2c3d4e5f60718", "size": 100, "volumeType": "gp3", "iops": 3000, "encrypted": true,
		"kmsKeyId": dataKey, "state": "in-use", "availabilityZone": "eu-west-1a", "createTime": "2025-01-10T08:00:00.000Z",
		"attachments": []any{map[string]any{"instanceId": "i-0a1b2c3d4e5f60718", "device": "/dev/xvda", "state": "attached"}}}
}

func volumeItem(conf map[string]any, history bool) string {
	return dataItem("AWS::EC2::Volume", "vol-0a1b2c3d4e5f60718", ec2ARN("volume", "vol-0a1b2c3d4e5f60718"), conf, nil, history)
}

func goodTrail() map[string]any {
	return map[string]any{"name": "org-trail", "trailARN": "arn:aws:cloudtrail:eu-west-1:111122223333:trail/org-trail",
		"homeRegion": "eu-west-1", "s3BucketName": "acme-cloudtrail", "isMultiRegionTrail": true, "includeGlobalServiceEvents": true,
		"isOrganizationTrail": false, "logFileValidationEnabled": true, "kmsKeyId": dataKey, "hasCustomEventSelectors": true,
		"cloudWatchLogsLogGroupArn": "arn:aws:logs:eu-west-1:111122223333:log-group:cloudtrail:*",
		"cloudWatchLogsRoleArn":     "arn:aws:iam::111122223333:role/cloudtrail-logs"}
}

func trailItem(conf map[string]any, history bool) string {
	return dataItem("AWS::CloudTrail::Trail", "arn:aws:cloudtrail:eu-west-1:111122223333:trail/org-trail",
		"arn:aws:cloudtrail:eu-west-1:111122223333:trail/org-trail", conf, nil, history)
}

// albItem is an application load balancer in zones, with its recorded
// attributes (nil: the item has no LoadBalancerAttributes).
func albItem(zones []string, attrs map[string]string, history bool) string {
	azs := []any{}
	for i, z := range zones {
		azs = append(azs, map[string]any{"zoneName": z, "subnetId": "subnet-0" + string(rune('a'+i)), "loadBalancerAddresses": []any{}})
	}
	var supp map[string]any
	if attrs != nil {
		kv := []any{}
		for k, v := range attrs {
			kv = append(kv, map[string]any{"key": k, "value": v})
		}
		supp = map[string]any{"LoadBalancerAttributes": kv}
	}
	arn := "arn:aws:elasticloadbalancing:eu-west-1:111122223333:loadbalancer/app/orders/50dc6c495c0c9188"
	return dataItem("AWS::ElasticLoadBalancingV2::LoadBalancer", arn, arn,
		map[string]any{"loadBalancerArn": arn, "loadBalancerName": "orders", "type": "application", "scheme": "internet-facing",
			"dNSName": "orders-1234567890.eu-west-1.elb.amazonaws.com", "vpcId": "vpc-0a1b2c3d", "ipAddressType": "ipv4",
			"state": map[string]any{"code": "active"}, "availabilityZones": azs, "securityGroups": []string{"sg-0a1b2c3d4e5f60718"}},
		supp, history)
}

func goodLBAttrs() map[string]string {
	return map[string]string{"deletion_protection.enabled": "true", "access_logs.s3.enabled": "true", "access_logs.s3.bucket": "acme-elb-logs",
		"routing.http.drop_invalid_header_fields.enabled": "true", "routing.http.desync_mitigation_mode": "defensive", "idle_timeout.timeout_seconds": "60"}
}

func goodFunction() map[string]any {
	return map[string]any{"functionName": "orders-api", "functionArn": "arn:aws:lambda:eu-west-1:111122223333:function:orders-api",
		"runtime": "python3.12", "handler": "app.handler", "memorySize": 512, "timeout": 30, "architectures": []string{"arm64"},
		"deadLetterConfig": map[string]any{"targetArn": "arn:aws:sqs:eu-west-1:111122223333:orders-api-dlq"},
		"tracingConfig":    map[string]any{"mode": "Active"}, "role": "arn:aws:iam::111122223333:role/orders-api"}
}

func functionItem(conf map[string]any, history bool) string {
	return dataItem("AWS::Lambda::Function", "orders-api", "arn:aws:lambda:eu-west-1:111122223333:function:orders-api", conf, nil, history)
}

func kmsKeyItem(state, deletion string, history bool) string {
	conf := map[string]any{"keyId": "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0", "arn": dataKey, "keyManager": "CUSTOMER",
		"keySpec": "SYMMETRIC_DEFAULT", "keyUsage": "ENCRYPT_DECRYPT", "keyState": state, "enabled": state == "Enabled", "origin": "AWS_KMS",
		"creationDate": "2024-02-01T08:00:00.000Z"}
	if deletion != "" {
		conf["deletionDate"] = deletion
	}
	return dataItem("AWS::KMS::Key", "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0", dataKey, conf, map[string]any{"KeyRotationStatus": true}, history)
}

func init() {
	attrs := func(kv ...string) map[string]string {
		m := goodLBAttrs()
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	twoAZ := []string{"eu-west-1a", "eu-west-1b"}
	addConfigCases(map[string]configCase{
		"aws-rds-001": {dbItem(goodDBInstance(), false), dbItem(with(goodDBInstance(), "publiclyAccessible", true), true)},
		"aws-rds-002": {dbItem(goodDBInstance(), false), dbItem(with(goodDBInstance(), "storageEncrypted", false, "kmsKeyId", nil), false)},
		"aws-rds-003": {dbItem(goodDBInstance(), false), dbItem(with(goodDBInstance(), "dBInstanceClass", "db.m4.large"), true)},
		"aws-rds-004": {dbItem(goodDBInstance(), false), dbItem(with(goodDBInstance(), "storageType", "gp2"), false)},
		"aws-rds-005": {dbItem(goodDBInstance(), false), dbItem(with(goodDBInstance(), "multiAZ", false, "secondaryAvailabilityZone", nil), true)},
		"aws-rds-006": {dbItem(goodDBInstance(), false), dbItem(with(goodDBInstance(), "backupRetentionPeriod", 0), false)},
		"aws-rds-007": {dbItem(goodDBInstance(), false), dbItem(with(goodDBInstance(), "deletionProtection", false), true)},
		"aws-rds-008": {dbItem(goodDBInstance(), false), dbItem(with(goodDBInstance(), "autoMinorVersionUpgrade", false), false)},
		"aws-rds-009": {dbSnapItem(true, []string{"444455556666"}, false), dbSnapItem(true, []string{"all"}, true)},
		"aws-rds-010": {dbSnapItem(true, nil, false), dbSnapItem(false, nil, true)},

		"aws-ebs-001": {volumeItem(goodVolume(), false), volumeItem(with(goodVolume(), "encrypted", false, "kmsKeyId", nil), true)},
		"aws-ebs-004": {volumeItem(goodVolume(), false), volumeItem(with(goodVolume(), "state", "available", "attachments", []any{}), false)},
		"aws-ebs-005": {volumeItem(goodVolume(), false), volumeItem(with(goodVolume(), "volumeType", "gp2", "iops", 300), true)},

		"aws-cloudtrail-002": {trailItem(goodTrail(), false), trailItem(with(goodTrail(), "logFileValidationEnabled", false), true)},
		"aws-cloudtrail-003": {trailItem(goodTrail(), false), trailItem(with(goodTrail(), "kmsKeyId", nil), false)},
		"aws-cloudtrail-004": {trailItem(goodTrail(), false), trailItem(with(goodTrail(), "cloudWatchLogsLogGroupArn", nil, "cloudWatchLogsRoleArn", nil), true)},

		"aws-elb-002": {albItem(twoAZ, goodLBAttrs(), false), albItem(twoAZ, attrs("deletion_protection.enabled", "false"), true)},
		"aws-elb-003": {albItem(twoAZ, goodLBAttrs(), false), albItem([]string{"eu-west-1a"}, goodLBAttrs(), false)},
		"aws-elb-004": {albItem(twoAZ, goodLBAttrs(), false), albItem(twoAZ, attrs("access_logs.s3.enabled", "false", "access_logs.s3.bucket", ""), true)},

		"aws-lambda-002": {functionItem(goodFunction(), false), functionItem(with(goodFunction(), "runtime", "nodejs14.x"), true)},
		"aws-lambda-003": {functionItem(goodFunction(), false), functionItem(with(goodFunction(), "architectures", []string{"x86_64"}), false)},
		"aws-lambda-004": {functionItem(goodFunction(), false), functionItem(with(goodFunction(), "deadLetterConfig", map[string]any{}), true)},

		"aws-kms-002": {kmsKeyItem("Enabled", "", false), kmsKeyItem("PendingDeletion", "2025-06-08T00:00:00.000Z", true)},
	})
}
