package inventory

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/fourd-dev/fourd/engine"
)

// configItemOf writes an estate resource as AWS Config would record it;
// ok is false for types AWS Config does not record.
func configItemOf(s sample, n int) (map[string]any, bool) {
	r := s.res
	var typ, id string
	var conf map[string]any
	supp := map[string]any{}
	switch a := s.attrs.(type) {
	case *S3Bucket:
		typ, id = "AWS::S3::Bucket", a.Bucket
		conf = map[string]any{"name": a.Bucket, "owner": map[string]any{"displayName": nil, "id": "3f2a9c1e" + strings.Repeat("0", 56)},
			"creationDate": a.CreationDate}
		grants := []any{map[string]any{"grantee": map[string]any{"id": "3f2a9c1e" + strings.Repeat("0", 56), "displayName": nil}, "permission": "FullControl"}}
		for _, g := range a.ACLGrants {
			grants = append(grants, map[string]any{"grantee": g.Grantee, "permission": strings.Title(strings.ToLower(g.Permission))}) //nolint:staticcheck // ASCII only
		}
		supp["AccessControlList"] = jsonString(map[string]any{"grantSet": nil, "grantList": grants, "owner": map[string]any{"displayName": nil}, "isRequesterCharged": false})
		supp["BucketLoggingConfiguration"] = map[string]any{"destinationBucketName": nilIfEmpty(a.LoggingTargetBucket), "logFilePrefix": nilIfEmpty(strings.Repeat("s3/", min(1, len(a.LoggingTargetBucket))))}
		supp["BucketVersioningConfiguration"] = map[string]any{"status": orDefault(a.Versioning, "Off"), "isMfaDeleteEnabled": a.MFADelete}
		supp["IsRequesterPaysEnabled"] = false
		if a.PublicAccessBlock != nil {
			p := a.PublicAccessBlock
			supp["PublicAccessBlockConfiguration"] = map[string]any{"blockPublicAcls": p.BlockPublicACLs, "ignorePublicAcls": p.IgnorePublicACLs,
				"blockPublicPolicy": p.BlockPublicPolicy, "restrictPublicBuckets": p.RestrictPublicBuckets}
		}
		if a.Policy != nil {
			supp["BucketPolicy"] = map[string]any{"policyText": jsonString(a.Policy)}
		} else {
			supp["BucketPolicy"] = map[string]any{"policyText": nil}
		}
		if a.SSEAlgorithm != "" {
			supp["ServerSideEncryptionConfiguration"] = map[string]any{"rules": []any{map[string]any{
				"applyServerSideEncryptionByDefault": map[string]any{"sseAlgorithm": a.SSEAlgorithm, "kmsMasterKeyID": nilIfEmpty(a.KMSMasterKeyID)},
				"bucketKeyEnabled":                   a.SSEAlgorithm == "aws:kms"}}}
		}
		if a.LifecycleRuleCount > 0 {
			var rules []any
			for i := 0; i < a.LifecycleRuleCount; i++ {
				rules = append(rules, map[string]any{"id": fmt.Sprintf("rule-%d", i+1), "status": "Enabled",
					"transitions": []any{map[string]any{"days": 30, "storageClass": "STANDARD_IA"}}})
			}
			supp["BucketLifecycleConfiguration"] = map[string]any{"rules": rules}
		}
	case *SecurityGroup:
		typ, id = "AWS::EC2::SecurityGroup", a.GroupID
		conf = map[string]any{"description": a.Description, "groupName": a.GroupName, "ownerId": r.Account, "groupId": a.GroupID,
			"vpcId": a.VPCID, "ipPermissions": permissions(a.Ingress), "ipPermissionsEgress": permissions(a.Egress), "tags": ec2Tags(r.Tags)}
	case *Instance:
		typ, id = "AWS::EC2::Instance", a.InstanceID
		devices := []any{}
		for i, v := range a.VolumeIDs {
			devices = append(devices, map[string]any{"deviceName": fmt.Sprintf("/dev/xvd%c", 'a'+i), "ebs": map[string]any{"volumeId": v, "status": "attached", "deleteOnTermination": true}})
		}
		sgs := []any{}
		for _, g := range a.SecurityGroupIDs {
			sgs = append(sgs, map[string]any{"groupId": g, "groupName": "web-alb"})
		}
		reason := ""
		if !a.StateChangedAt.IsZero() {
			reason = "User initiated (" + a.StateChangedAt.Format("2006-01-02 15:04:05") + " GMT)"
		}
		code := map[string]int{"running": 16, "stopped": 80}[a.State]
		conf = map[string]any{"instanceId": a.InstanceID, "instanceType": a.InstanceType, "imageId": a.ImageID, "launchTime": a.LaunchTime,
			"placement": map[string]any{"availabilityZone": a.AvailabilityZone, "tenancy": "default"}, "publicIpAddress": nilIfEmpty(a.PublicIP),
			"state": map[string]any{"code": code, "name": a.State}, "stateTransitionReason": reason, "subnetId": a.SubnetID, "vpcId": a.VPCID,
			"metadataOptions":     map[string]any{"state": "applied", "httpTokens": a.MetadataHTTPTokens, "httpPutResponseHopLimit": 2, "httpEndpoint": "enabled"},
			"blockDeviceMappings": devices, "securityGroups": sgs, "monitoring": map[string]any{"state": map[bool]string{true: "enabled", false: "disabled"}[a.Monitoring]},
			"tags": ec2Tags(r.Tags)}
	case *EBSVolume:
		typ, id = "AWS::EC2::Volume", a.VolumeID
		att := []any{}
		for _, i := range a.AttachedTo {
			att = append(att, map[string]any{"instanceId": i, "device": "/dev/xvda", "state": "attached", "volumeId": a.VolumeID, "deleteOnTermination": true})
		}
		conf = map[string]any{"volumeId": a.VolumeID, "size": a.Size, "volumeType": a.Type, "iops": map[string]int{"gp3": 3000, "gp2": 3 * a.Size}[a.Type],
			"encrypted": a.Encrypted, "kmsKeyId": nilIfEmpty(a.KMSKeyID), "state": a.State, "availabilityZone": a.AvailabilityZone,
			"createTime": a.CreateTime, "attachments": att, "multiAttachEnabled": false, "tags": ec2Tags(r.Tags)}
	case *EIP:
		typ, id = "AWS::EC2::EIP", a.AllocationID
		conf = map[string]any{"allocationId": a.AllocationID, "publicIp": a.PublicIP, "domain": "vpc", "associationId": nilIfEmpty(a.AssociationID),
			"instanceId": nilIfEmpty(a.InstanceID), "networkInterfaceId": nilIfEmpty(a.NetworkInterfaceID), "tags": ec2Tags(r.Tags)}
	case *VPC:
		typ, id = "AWS::EC2::VPC", a.VPCID
		conf = map[string]any{"vpcId": a.VPCID, "cidrBlock": a.CIDRBlock, "isDefault": a.IsDefault, "state": "available", "ownerId": r.Account, "tags": ec2Tags(r.Tags)}
	case *DBInstance:
		typ, id = "AWS::RDS::DBInstance", "db-"+strings.ToUpper(fmt.Sprintf("%026x", n*7919))[:26]
		conf = map[string]any{"dBInstanceIdentifier": a.Identifier, "engine": a.Engine, "engineVersion": a.EngineVersion, "dBInstanceClass": a.InstanceClass,
			"allocatedStorage": a.AllocatedStorage, "storageType": a.StorageType, "storageEncrypted": a.StorageEncrypted, "kmsKeyId": nilIfEmpty(a.KMSKeyID),
			"publiclyAccessible": a.PubliclyAccessible, "multiAZ": a.MultiAZ, "backupRetentionPeriod": a.BackupRetentionPeriod,
			"deletionProtection": a.DeletionProtection, "autoMinorVersionUpgrade": a.AutoMinorVersionUpgrade, "availabilityZone": a.AvailabilityZone,
			"dBInstanceStatus": a.Status, "dBInstanceArn": r.NativeID}
	case *IAMUser:
		typ, id = "AWS::IAM::User", a.UserID
		inline := []any{}
		for _, p := range a.InlinePolicyNames {
			inline = append(inline, map[string]any{"policyName": p, "policyDocument": "%7B%22Version%22%3A%222012-10-17%22%7D"})
		}
		attached := []any{}
		for _, p := range a.AttachedPolicyARNs {
			attached = append(attached, map[string]any{"policyName": p[strings.LastIndexByte(p, '/')+1:], "policyArn": p})
		}
		conf = map[string]any{"path": "/", "userName": a.UserName, "userId": a.UserID, "arn": r.NativeID, "createDate": a.CreateDate,
			"userPolicyList": inline, "groupList": orEmpty(a.Groups), "attachedManagedPolicies": attached, "tags": []any{}}
	default:
		return configItemMore(s, n)
	}
	return configItem2(s, typ, id, conf, supp), true
}

func configItem2(s sample, typ, id string, conf, supp map[string]any) map[string]any {
	r := s.res
	region := r.Region
	if region == RegionGlobal {
		region = "global"
	}
	item := map[string]any{
		"relatedEvents": []any{}, "relationships": []any{},
		"configuration": conf, "supplementaryConfiguration": supp, "tags": r.Tags,
		"configurationItemVersion": "1.3", "configurationItemCaptureTime": estateNow.Add(-37 * 60e9).Format("2006-01-02T15:04:05.000Z"),
		"configurationStateId": 1748761043000 + len(id), "awsAccountId": r.Account, "configurationItemStatus": "OK",
		"resourceType": typ, "resourceId": id, "resourceName": r.Name, "ARN": r.NativeID, "awsRegion": region,
		"availabilityZone": "Not Applicable", "configurationStateMd5Hash": "",
	}
	if r.Tags == nil {
		item["tags"] = map[string]string{}
	}
	return item
}

func permissions(rules []SGRule) []any {
	out := []any{}
	for _, r := range rules {
		p := map[string]any{"ipProtocol": r.Protocol, "ipv6Ranges": []any{}, "prefixListIds": []any{}, "userIdGroupPairs": []any{},
			"ipv4Ranges": []any{}, "ipRanges": orEmpty(r.CIDRBlocks)}
		if r.Protocol != "-1" {
			p["fromPort"], p["toPort"] = r.FromPort, r.ToPort
		}
		for _, c := range r.CIDRBlocks {
			p["ipv4Ranges"] = append(p["ipv4Ranges"].([]any), map[string]any{"cidrIp": c})
		}
		for _, c := range r.IPv6CIDRBlocks {
			p["ipv6Ranges"] = append(p["ipv6Ranges"].([]any), map[string]any{"cidrIpv6": c})
		}
		for _, g := range r.SecurityGroups {
			p["userIdGroupPairs"] = append(p["userIdGroupPairs"].([]any), map[string]any{"groupId": g})
		}
		out = append(out, p)
	}
	return out
}

func ec2Tags(tags engine.Tags) []any {
	out := []any{}
	for _, t := range tags {
		out = append(out, map[string]any{"key": t.Key, "value": t.Value})
	}
	return out
}

func jsonString(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func orEmpty(ss []string) []string {
	if ss == nil {
		return []string{}
	}
	return ss
}

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
