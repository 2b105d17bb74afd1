package inventory

import (
	"encoding/json"
	"strings"
)

func cfgDBInstance(_ *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Identifier       string   `json:"dBInstanceIdentifier"`
		Engine           string   `json:"engine"`
		EngineVersion    string   `json:"engineVersion"`
		Class            string   `json:"dBInstanceClass"`
		AllocatedStorage flexInt  `json:"allocatedStorage"`
		StorageType      string   `json:"storageType"`
		StorageEncrypted flexBool `json:"storageEncrypted"`
		KMSKeyID         string   `json:"kmsKeyId"`
		Public           flexBool `json:"publiclyAccessible"`
		MultiAZ          flexBool `json:"multiAZ"`
		Retention        flexInt  `json:"backupRetentionPeriod"`
		DeletionProt     flexBool `json:"deletionProtection"`
		AutoMinor        flexBool `json:"autoMinorVersionUpgrade"`
		AZ               string   `json:"availabilityZone"`
		Status           string   `json:"dBInstanceStatus"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	return TypeDBInstance, DBInstance{Identifier: c.Identifier, Engine: c.Engine, EngineVersion: c.EngineVersion,
		InstanceClass: c.Class, AllocatedStorage: int(c.AllocatedStorage), StorageType: c.StorageType,
		StorageEncrypted: bool(c.StorageEncrypted), KMSKeyID: c.KMSKeyID, PubliclyAccessible: bool(c.Public),
		MultiAZ: bool(c.MultiAZ), BackupRetentionPeriod: int(c.Retention), DeletionProtection: bool(c.DeletionProt),
		AutoMinorVersionUpgrade: bool(c.AutoMinor), AvailabilityZone: c.AZ, Status: c.Status}, nil
}

func cfgIAMUser(_ *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		UserName   string            `json:"userName"`
		UserID     string            `json:"userId"`
		CreateDate flexTime          `json:"createDate"`
		Inline     []cfgInlinePolicy `json:"userPolicyList"`
		Attached   []struct {
			ARN string `json:"policyArn"`
		} `json:"attachedManagedPolicies"`
		Groups []string `json:"groupList"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	u := IAMUser{UserName: c.UserName, UserID: c.UserID, CreateDate: c.CreateDate.t(), Groups: c.Groups}
	for _, p := range c.Inline {
		u.InlinePolicyNames = append(u.InlinePolicyNames, p.Name)
	}
	u.InlinePolicies = inlinePolicies(c.Inline)
	for _, p := range c.Attached {
		u.AttachedPolicyARNs = append(u.AttachedPolicyARNs, p.ARN)
	}
	return TypeIAMUser, u, nil
}

func cfgLB(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Name   string `json:"loadBalancerName"`
		Type   string `json:"type"`
		Scheme string `json:"scheme"`
		DNS    string `json:"dNSName"`
		AZs    []struct {
			ZoneName string `json:"zoneName"`
		} `json:"availabilityZones"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	lb := LoadBalancer{Name: c.Name, Type: c.Type, Scheme: c.Scheme, DNSName: c.DNS, AvailabilityZones: []string{}}
	for _, z := range c.AZs {
		lb.AvailabilityZones = append(lb.AvailabilityZones, z.ZoneName)
	}
	var attrs []struct {
		Key   string `json:"key"`
		Value string `json:"value"`
	}
	if err := supp(ci, "LoadBalancerAttributes", &attrs); err != nil {
		return "", nil, err
	}
	for _, a := range attrs {
		switch a.Key {
		case "access_logs.s3.enabled":
			lb.AccessLogsEnabled = boolPtr(a.Value == "true")
		case "deletion_protection.enabled":
			lb.DeletionProtection = boolPtr(a.Value == "true")
		case "routing.http.drop_invalid_header_fields.enabled":
			lb.DropInvalidHeaderFields = boolPtr(a.Value == "true")
		case "routing.http.desync_mitigation_mode":
			lb.DesyncMitigationMode = a.Value
		case "load_balancing.cross_zone.enabled":
			lb.CrossZoneEnabled = boolPtr(a.Value == "true")
		}
	}
	if len(attrs) > 0 {
		lbAttributeDefaults(&lb)
	}
	return TypeLB, lb, nil
}

// lbAttributeDefaults fills, for a load balancer whose attributes were
// recorded, the ones left out with AWS's documented defaults (Elastic Load
// Balancing API reference, LoadBalancerAttribute): invalid header fields
// are kept, desync mitigation is defensive, cross-zone load balancing is
// always on for application load balancers and off by default for network
// and gateway ones.
func lbAttributeDefaults(lb *LoadBalancer) {
	if lb.Type == "application" {
		if lb.DropInvalidHeaderFields == nil {
			lb.DropInvalidHeaderFields = boolPtr(false)
		}
		if lb.DesyncMitigationMode == "" {
			lb.DesyncMitigationMode = "defensive"
		}
		lb.CrossZoneEnabled = boolPtr(true)
	} else if lb.CrossZoneEnabled == nil {
		lb.CrossZoneEnabled = boolPtr(false)
	}
}

func cfgTrail(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Name           string   `json:"name"`
		HomeRegion     string   `json:"homeRegion"`
		MultiRegion    flexBool `json:"isMultiRegionTrail"`
		GlobalEvents   flexBool `json:"includeGlobalServiceEvents"`
		LogValidation  flexBool `json:"logFileValidationEnabled"`
		KMSKeyID       string   `json:"kmsKeyId"`
		S3BucketName   string   `json:"s3BucketName"`
		CWLogsGroupARN string   `json:"cloudWatchLogsLogGroupArn"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	t := CloudTrail{Name: c.Name, HomeRegion: c.HomeRegion, IsMultiRegionTrail: bool(c.MultiRegion),
		IncludeGlobalServiceEvents: bool(c.GlobalEvents), LogFileValidationEnabled: bool(c.LogValidation),
		KMSKeyID: c.KMSKeyID, S3BucketName: c.S3BucketName, CloudWatchLogsLogGroupARN: c.CWLogsGroupARN}
	// AWS Config records neither the logging status nor the event
	// selectors in the trail's configuration: without their supplements
	// they are unknown, not false.
	var status struct {
		IsLogging *flexBool `json:"isLogging"`
	}
	if err := supp(ci, "TrailStatus", &status); err != nil {
		return "", nil, err
	}
	t.IsLogging = status.IsLogging.ptr()
	var selectors []struct {
		DataResources []struct {
			Type string `json:"type"`
		} `json:"dataResources"`
	}
	if raw := jsonObject(ci.Supplementary["EventSelectors"]); raw != nil {
		if err := json.Unmarshal(raw, &selectors); err != nil {
			return "", nil, err
		}
		data := false
		for _, s := range selectors {
			for _, d := range s.DataResources {
				data = data || d.Type == "AWS::S3::Object"
			}
		}
		t.S3DataEvents = &data
	}
	return TypeCloudTrail, t, nil
}

func cfgKMSKey(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		KeyID        string    `json:"keyId"`
		KeyManager   string    `json:"keyManager"`
		KeySpec      string    `json:"keySpec"`
		CMKSpec      string    `json:"customerMasterKeySpec"`
		KeyUsage     string    `json:"keyUsage"`
		KeyState     string    `json:"keyState"`
		Rotation     *flexBool `json:"keyRotationEnabled"`
		DeletionDate flexTime  `json:"deletionDate"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	k := KMSKey{KeyID: c.KeyID, KeyManager: c.KeyManager, KeySpec: c.KeySpec, KeyUsage: c.KeyUsage,
		KeyState: c.KeyState, KeyRotationEnabled: c.Rotation.ptr(), DeletionDate: c.DeletionDate.t()}
	if k.KeySpec == "" {
		k.KeySpec = c.CMKSpec
	}
	var rot *flexBool
	if err := supp(ci, "KeyRotationStatus", &rot); err != nil {
		return "", nil, err
	}
	if rot != nil {
		k.KeyRotationEnabled = boolPtr(bool(*rot) || k.KeyRotationEnabled != nil && *k.KeyRotationEnabled)
	}
	if err := supp(ci, "Policy", &k.Policy); err != nil {
		return "", nil, err
	}
	return TypeKMSKey, k, nil
}

func cfgLambda(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Name          string   `json:"functionName"`
		Runtime       string   `json:"runtime"`
		MemorySize    flexInt  `json:"memorySize"`
		Timeout       flexInt  `json:"timeout"`
		Architectures []string `json:"architectures"`
		DLQ           struct {
			TargetARN string `json:"targetArn"`
		} `json:"deadLetterConfig"`
		Tracing struct {
			Mode string `json:"mode"`
		} `json:"tracingConfig"`
		VPC struct {
			SubnetIDs []string `json:"subnetIds"`
		} `json:"vpcConfig"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	f := LambdaFunction{FunctionName: c.Name, Runtime: c.Runtime, MemorySize: int(c.MemorySize), Timeout: int(c.Timeout),
		Architectures: c.Architectures, DeadLetterTargetARN: c.DLQ.TargetARN, TracingMode: c.Tracing.Mode, VPCSubnetIDs: c.VPC.SubnetIDs}
	if len(f.Architectures) == 0 {
		f.Architectures = []string{"x86_64"}
	}
	// The function's resource policy when the item carries one as
	// supplementaryConfiguration.Policy. AWS's published schema lists only
	// Concurrency among Lambda's queryable supplementary values, so absent
	// means unknown, not "no policy".
	if err := supp(ci, "Policy", &f.Policy); err != nil {
		return "", nil, err
	}
	return TypeLambdaFunction, f, nil
}

func cfgASG(_ *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Name          string   `json:"autoScalingGroupName"`
		AZs           []string `json:"availabilityZones"`
		Min           flexInt  `json:"minSize"`
		Max           flexInt  `json:"maxSize"`
		Desired       flexInt  `json:"desiredCapacity"`
		HealthCheck   string   `json:"healthCheckType"`
		TargetGroups  []string `json:"targetGroupARNs"`
		LoadBalancers []string `json:"loadBalancerNames"`
		LaunchConfig  string   `json:"launchConfigurationName"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	return TypeAutoScalingGroup, AutoScalingGroup{Name: c.Name, AvailabilityZones: c.AZs, MinSize: int(c.Min),
		MaxSize: int(c.Max), DesiredCapacity: int(c.Desired), HealthCheckType: c.HealthCheck,
		TargetGroupARNs: c.TargetGroups, LoadBalancers: c.LoadBalancers, LaunchConfiguration: c.LaunchConfig}, nil
}

func cfgElastiCache(_ *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		ID              string   `json:"cacheClusterId"`
		Engine          string   `json:"engine"`
		EngineVersion   string   `json:"engineVersion"`
		NodeType        string   `json:"cacheNodeType"`
		Nodes           flexInt  `json:"numCacheNodes"`
		PreferredAZ     string   `json:"preferredAvailabilityZone"`
		AtRest          flexBool `json:"atRestEncryptionEnabled"`
		Transit         flexBool `json:"transitEncryptionEnabled"`
		SnapshotRetains flexInt  `json:"snapshotRetentionLimit"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	mode := "single-az"
	if c.PreferredAZ == "Multiple" {
		mode = "cross-az"
	}
	return TypeElastiCacheCluster, ElastiCacheCluster{ClusterID: c.ID, Engine: c.Engine, EngineVersion: c.EngineVersion,
		NodeType: c.NodeType, NumCacheNodes: int(c.Nodes), AZMode: mode, AtRestEncryptionEnabled: bool(c.AtRest),
		TransitEncryptionEnabled: bool(c.Transit), SnapshotRetentionLimit: int(c.SnapshotRetains)}, nil
}

func cfgDynamoDB(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Name    string `json:"tableName"`
		Billing struct {
			Mode string `json:"billingMode"`
		} `json:"billingModeSummary"`
		Throughput struct {
			Read  flexInt `json:"readCapacityUnits"`
			Write flexInt `json:"writeCapacityUnits"`
		} `json:"provisionedThroughput"`
		SSE struct {
			KMSKeyARN string `json:"kMSMasterKeyArn"`
		} `json:"sSEDescription"`
		ItemCount    *flexInt  `json:"itemCount"`
		DeletionProt *flexBool `json:"deletionProtectionEnabled"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	t := DynamoDBTable{Name: c.Name, BillingMode: c.Billing.Mode, ReadCapacity: int(c.Throughput.Read),
		WriteCapacity: int(c.Throughput.Write), SSEKMSKeyARN: c.SSE.KMSKeyARN,
		DeletionProtectionEnabled: c.DeletionProt.ptr()}
	if c.ItemCount != nil {
		n := int64(*c.ItemCount)
		t.ItemCount = &n
	}
	if t.BillingMode == "" {
		t.BillingMode = "PROVISIONED" // DynamoDB omits the summary for provisioned tables
	}
	var backups struct {
		PITR struct {
			Status string `json:"pointInTimeRecoveryStatus"`
		} `json:"pointInTimeRecoveryDescription"`
	}
	if err := supp(ci, "ContinuousBackupsDescription", &backups); err != nil {
		return "", nil, err
	}
	if backups.PITR.Status != "" {
		t.PointInTimeRecovery = boolPtr(backups.PITR.Status == "ENABLED")
	}
	var scaling *flexBool
	if err := supp(ci, "AutoScalingEnabled", &scaling); err != nil {
		return "", nil, err
	}
	t.AutoScalingEnabled = scaling.ptr()
	return TypeDynamoDBTable, t, nil
}

func cfgEFS(_ *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		ID              string   `json:"FileSystemId"`
		Encrypted       flexBool `json:"Encrypted"`
		KMSKeyID        string   `json:"KmsKeyId"`
		PerformanceMode string   `json:"PerformanceMode"`
		Backup          struct {
			Status string `json:"Status"`
		} `json:"BackupPolicy"`
		Lifecycle []struct {
			TransitionToIA string `json:"TransitionToIA"`
		} `json:"LifecyclePolicies"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	f := EFSFileSystem{FileSystemID: c.ID, Encrypted: bool(c.Encrypted), KMSKeyID: c.KMSKeyID,
		PerformanceMode: c.PerformanceMode, BackupPolicy: c.Backup.Status}
	for _, l := range c.Lifecycle {
		if l.TransitionToIA != "" {
			f.TransitionToIA = l.TransitionToIA
		}
	}
	return TypeEFSFileSystem, f, nil
}

func cfgCloudFront(_ *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		ID     string `json:"id"`
		Domain string `json:"domainName"`
		Config struct {
			Enabled flexBool `json:"enabled"`
			Default struct {
				ViewerProtocolPolicy string `json:"viewerProtocolPolicy"`
			} `json:"defaultCacheBehavior"`
			Certificate struct {
				MinimumProtocolVersion string `json:"minimumProtocolVersion"`
			} `json:"viewerCertificate"`
			Logging struct {
				Enabled flexBool `json:"enabled"`
				Bucket  string   `json:"bucket"`
			} `json:"logging"`
			WebACLID   string                       `json:"webACLId"`
			PriceClass string                       `json:"priceClass"`
			Origins    cfgList[cfgCloudFrontOrigin] `json:"origins"`
		} `json:"distributionConfig"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	d := CloudFrontDistribution{DistributionID: c.ID, DomainName: c.Domain, Enabled: bool(c.Config.Enabled),
		ViewerProtocolPolicy: c.Config.Default.ViewerProtocolPolicy, MinimumProtocolVersion: c.Config.Certificate.MinimumProtocolVersion,
		WebACLID: c.Config.WebACLID, PriceClass: c.Config.PriceClass, Origins: cloudFrontOrigins(c.Config.Origins)}
	if c.Config.Logging.Enabled {
		d.LoggingBucket = c.Config.Logging.Bucket
	}
	return TypeCloudFrontDistribution, d, nil
}

func cfgSQS(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		URL       string          `json:"QueueUrl"`
		SSE       *flexBool       `json:"SqsManagedSseEnabled"`
		KMSKeyID  string          `json:"KmsMasterKeyId"`
		Redrive   string          `json:"RedrivePolicy"`
		Retention flexInt         `json:"MessageRetentionPeriod"`
		Policy    *PolicyDocument `json:"Policy"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	q := SQSQueue{Name: ci.ResourceName, URL: c.URL, SQSManagedSSEEnabled: c.SSE.ptr(), KMSMasterKeyID: c.KMSKeyID,
		MessageRetentionSeconds: int(c.Retention), Policy: c.Policy}
	if q.Name == "" {
		q.Name = c.URL[strings.LastIndexByte(c.URL, '/')+1:]
	}
	if c.Redrive != "" {
		var rp struct {
			Target string `json:"deadLetterTargetArn"`
		}
		if err := json.Unmarshal([]byte(c.Redrive), &rp); err == nil {
			q.DeadLetterTargetARN = rp.Target
		}
	}
	return TypeSQSQueue, q, nil
}

func cfgSNS(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		TopicARN string          `json:"TopicArn"`
		KMSKeyID string          `json:"KmsMasterKeyId"`
		Policy   *PolicyDocument `json:"Policy"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	name := ci.ResourceName
	if name == "" {
		name = c.TopicARN[strings.LastIndexByte(c.TopicARN, ':')+1:]
	}
	return TypeSNSTopic, SNSTopic{Name: name, KMSMasterKeyID: c.KMSKeyID, Policy: c.Policy}, nil
}

func cfgRecorder(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Name      string   `json:"name"`
		Recording flexBool `json:"recording"`
		Group     struct {
			AllSupported flexBool `json:"allSupported"`
			Global       flexBool `json:"includeGlobalResourceTypes"`
		} `json:"recordingGroup"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	var status struct {
		Recording flexBool `json:"recording"`
	}
	if err := supp(ci, "ConfigurationRecorderStatus", &status); err != nil {
		return "", nil, err
	}
	return TypeConfigRecorder, ConfigRecorder{Name: c.Name, Recording: bool(c.Recording) || bool(status.Recording),
		AllSupported: bool(c.Group.AllSupported), IncludeGlobalResourceTypes: bool(c.Group.Global)}, nil
}

func cfgGuardDuty(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		ID     string   `json:"Id"`
		Enable flexBool `json:"Enable"`
		// The older DataSources and the newer Features shapes of the
		// protection plans (aws-config-resource-schema
		// AWS::GuardDuty::Detector; CloudFormation's Features).
		DataSources *struct {
			S3Logs *struct {
				Enable *flexBool `json:"Enable"`
			} `json:"S3Logs"`
			Kubernetes *struct {
				AuditLogs *struct {
					Enable *flexBool `json:"Enable"`
				} `json:"AuditLogs"`
			} `json:"Kubernetes"`
		} `json:"DataSources"`
		Features []struct {
			Name   string `json:"Name"`
			Status string `json:"Status"`
		} `json:"Features"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	if c.ID == "" {
		c.ID = ci.ResourceID
	}
	d := GuardDutyDetector{DetectorID: c.ID, Enabled: bool(c.Enable)}
	if ds := c.DataSources; ds != nil {
		if ds.S3Logs != nil {
			d.S3Protection = ds.S3Logs.Enable.ptr()
		}
		if ds.Kubernetes != nil && ds.Kubernetes.AuditLogs != nil {
			d.EKSAuditLogs = ds.Kubernetes.AuditLogs.Enable.ptr()
		}
	}
	for _, f := range c.Features {
		on := boolPtr(strings.EqualFold(f.Status, "ENABLED"))
		switch f.Name {
		case "S3_DATA_EVENTS":
			d.S3Protection = on
		case "EKS_AUDIT_LOGS":
			d.EKSAuditLogs = on
		}
	}
	return TypeGuardDutyDetector, d, nil
}

func cfgLogGroup(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Name      string  `json:"LogGroupName"`
		Retention flexInt `json:"RetentionInDays"`
		KMSKeyID  string  `json:"KmsKeyId"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	if c.Name == "" {
		c.Name = ci.ResourceName
	}
	return TypeLogGroup, LogGroup{Name: c.Name, RetentionInDays: int(c.Retention), KMSKeyID: c.KMSKeyID}, nil
}
