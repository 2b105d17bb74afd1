package inventory

import (
	"fmt"
	"strings"
)

func (g *estateGen) region(ai, ri int, region string) {
	prod := ai == 0
	az := func(i int) string { return region + string(rune('a'+i%3)) }
	vpcID := g.id("vpc")
	g.add(TypeVPC, region, arnOf("ec2", region, g.acct, "vpc/"+vpcID), g.env+"-main", g.tags(g.env+"-main", true),
		&VPC{VPCID: vpcID, CIDRBlock: fmt.Sprintf("10.%d.0.0/16", ai*10+ri), FlowLogsEnabled: ptr(prod || ri == 0)})

	// Security groups: default, web, admin (SSH/RDP), database.
	sg := func(name string, in ...SGRule) string {
		id := g.id("sg")
		if in == nil {
			in = []SGRule{}
		}
		egress := []SGRule{{Protocol: "-1", FromPort: 0, ToPort: 0, CIDRBlocks: []string{"0.0.0.0/0"}}}
		if name == "default" && (prod || ri == 1) {
			egress = []SGRule{}
		}
		g.add(TypeSecurityGroup, region, arnOf("ec2", region, g.acct, "security-group/"+id), name, g.tags(name, name != "default"),
			&SecurityGroup{GroupID: id, GroupName: name, Description: name + " access", VPCID: vpcID, Ingress: in, Egress: egress})
		return id
	}
	sg("default")
	web := sg("web-alb", SGRule{Protocol: "tcp", FromPort: 443, ToPort: 443, CIDRBlocks: []string{"0.0.0.0/0"}, IPv6CIDRBlocks: []string{"::/0"}})
	adminSrc := []string{"198.51.100.0/24"}
	if !prod || ri == 2 {
		adminSrc = []string{"0.0.0.0/0"}
	}
	admin := []SGRule{{Protocol: "tcp", FromPort: 22, ToPort: 22, CIDRBlocks: adminSrc}}
	if ri == 1 {
		admin = append(admin, SGRule{Protocol: "tcp", FromPort: 3389, ToPort: 3389, CIDRBlocks: adminSrc, IPv6CIDRBlocks: []string{"::/0"}})
	}
	sg("bastion", admin...)
	dbSrc := SGRule{Protocol: "tcp", FromPort: 5432, ToPort: 5432, SecurityGroups: []string{web}}
	if ai == 1 && ri == 0 {
		dbSrc = SGRule{Protocol: "tcp", FromPort: 5432, ToPort: 5432, CIDRBlocks: []string{"0.0.0.0/0"}}
	}
	sg("postgres", dbSrc)
	if ai == 1 && ri == 1 {
		sg("debug-anything", SGRule{Protocol: "-1", CIDRBlocks: []string{"0.0.0.0/0"}})
	}

	// Instances with their volumes.
	asgName := ""
	if ri == 0 {
		asgName = g.env + "-web-asg"
	}
	types := []string{"m7g.large", "t3.medium", "m4.xlarge", "c5.2xlarge", "t2.micro", "r6i.large"}
	for i := 0; i < 2+g.rnd.IntN(3); i++ {
		id := fmt.Sprintf("i-%017x", g.rnd.Uint64()>>4)
		state := "running"
		in := &Instance{InstanceID: id, InstanceType: types[g.rnd.IntN(len(types))], LaunchTime: g.ago(10 + g.rnd.IntN(500)),
			AvailabilityZone: az(i), VPCID: vpcID, SubnetID: g.id("subnet"), ImageID: "ami-0a1b2c3d4e5f60718",
			MetadataHTTPTokens: []string{"required", "optional"}[g.rnd.IntN(2)], SecurityGroupIDs: []string{web}, Monitoring: prod}
		if i == 0 && asgName != "" {
			in.AutoScalingGroup = asgName
		}
		if i == 3 || (ai == 2 && i == 2) {
			state = "stopped"
			in.StateChangedAt = g.ago([]int{3, 45, 120}[g.rnd.IntN(3)])
		}
		if i == 1 && !prod {
			in.PublicIP = fmt.Sprintf("203.0.113.%d", 10+ri*20+i)
		}
		in.State = state
		name := fmt.Sprintf("%s-app-%d", g.env, i+1)
		extra := []string{}
		if in.AutoScalingGroup != "" {
			extra = []string{"aws:autoscaling:groupName", in.AutoScalingGroup}
		}
		vol := g.id("vol")
		in.VolumeIDs = []string{vol}
		g.add(TypeInstance, region, arnOf("ec2", region, g.acct, "instance/"+id), name, g.tags(name, g.chance(0.8), extra...), in)
		g.add(TypeEBSVolume, region, arnOf("ec2", region, g.acct, "volume/"+vol), name+"-root", g.tags(name+"-root", g.chance(0.6)),
			&EBSVolume{VolumeID: vol, Size: 50 + 50*g.rnd.IntN(4), Type: []string{"gp3", "gp2"}[g.rnd.IntN(2)], Encrypted: prod || g.chance(0.5),
				State: "in-use", AvailabilityZone: az(i), AttachedTo: []string{id}, CreateTime: in.LaunchTime})
	}
	for i := 0; i < 1+ri%2; i++ {
		vol := g.id("vol")
		name := []string{"Zürich-backup", "old-data-disk", "migration-scratch"}[(ai+ri+i)%3]
		g.add(TypeEBSVolume, region, arnOf("ec2", region, g.acct, "volume/"+vol), name, g.tags(name, g.chance(0.5)),
			&EBSVolume{VolumeID: vol, Size: 100 * (1 + g.rnd.IntN(5)), Type: "gp2", Encrypted: g.chance(0.5), State: "available",
				AvailabilityZone: az(i), CreateTime: g.ago(300)})
		snap := g.id("snap")
		g.add(TypeEBSSnapshot, region, arnOf("ec2", region, "", "snapshot/"+snap), name+"-snap", g.tags(name+"-snap", g.chance(0.4)),
			&EBSSnapshot{SnapshotID: snap, VolumeID: vol, VolumeSize: 100, Encrypted: i == 0 && prod, StartTime: g.ago([]int{20, 400}[i%2]),
				Public: ptr(ai == 1 && ri == 1 && i == 0), Description: "nightly snapshot of " + name})
	}

	// Database, addresses, load balancer.
	dbName := []string{"orders", "données-clients", "analytics"}[ri]
	g.add(TypeDBInstance, region, arnOf("rds", region, g.acct, "db:"+g.env+"-"+dbName), g.env+"-"+dbName,
		g.tags(g.env+"-"+dbName, true, "data-classification", []string{"confidential", "internal"}[ri%2]),
		&DBInstance{Identifier: g.env + "-" + dbName, Engine: "postgres", EngineVersion: "15.7", InstanceClass: []string{"db.r6g.large", "db.t2.medium", "db.m4.large"}[(ai+ri)%3],
			AllocatedStorage: 100, StorageType: []string{"gp3", "gp2"}[ri%2], StorageEncrypted: prod || ri == 0, PubliclyAccessible: ai == 1 && ri == 1,
			MultiAZ: prod && ri != 2, BackupRetentionPeriod: []int{7, 0, 14}[(ai+ri)%3], DeletionProtection: prod, AutoMinorVersionUpgrade: ri != 1,
			AvailabilityZone: az(0), Status: "available"})
	// A manual snapshot of each database (no random draws, so the rest of
	// the estate stays as it was); staging's customer data is shared with
	// everyone.
	snapID := g.env + "-" + dbName + "-2025-05-31"
	g.add(TypeDBSnapshot, region, arnOf("rds", region, g.acct, "snapshot:"+snapID), snapID,
		map[string]string{"Name": snapID, "Owner": "data-eng", "Environment": g.env, "cost-center": "cc-1000"},
		&DBSnapshot{Identifier: snapID, DBInstanceIdentifier: g.env + "-" + dbName, Engine: "postgres", SnapshotType: "manual",
			Encrypted: prod || ri == 0, CreateTime: g.ago(1), Public: ptr(ai == 1 && ri == 1)})
	for i := 0; i < 1+ri%2; i++ {
		alloc := g.id("eipalloc")
		eip := &EIP{AllocationID: alloc, PublicIP: fmt.Sprintf("198.51.100.%d", 10+ai*30+ri*10+i)}
		if i == 0 {
			eip.AssociationID, eip.InstanceID = g.id("eipassoc"), "i-attached"
		}
		g.add(TypeEIP, region, arnOf("ec2", region, g.acct, "elastic-ip/"+alloc), "eip-"+eip.PublicIP, g.tags("eip", i == 0), eip)
	}
	lbName := g.env + "-web"
	targets := 4
	if ri == 2 {
		targets = 0
	}
	azs := []string{az(0), az(1)}
	if !prod && ri == 1 {
		azs = azs[:1]
	}
	g.add(TypeLB, region, arnOf("elasticloadbalancing", region, g.acct, "loadbalancer/app/"+lbName+"/50dc6c495c0c9188"), lbName, g.tags(lbName, true),
		&LoadBalancer{Name: lbName, Type: "application", Scheme: "internet-facing", DNSName: lbName + "-1234567890." + region + ".elb.amazonaws.com",
			AvailabilityZones: azs, AccessLogsEnabled: ptr(prod), DeletionProtection: ptr(prod && ri == 0), TargetCount: &targets})
	g.regionData(ai, ri, region, az, asgName)
}

func (g *estateGen) regionData(ai, ri int, region string, az func(int) string, asgName string) {
	prod := ai == 0
	// Buckets.
	for i, base := range []string{"assets", "exports", "données-clients", "logs"}[:2+ri%3] {
		name := fmt.Sprintf("alpenglow-%s-%s-%s", g.env, strings.ReplaceAll(base, "é", "e"), region)
		b := &S3Bucket{Bucket: name, SSEAlgorithm: []string{"aws:kms", "AES256", ""}[(ai+i)%3], CreationDate: g.ago(400 + i*30)}
		if b.SSEAlgorithm == "aws:kms" {
			b.KMSMasterKeyID = arnOf("kms", region, g.acct, "key/1234abcd-12ab-34cd-56ef-1234567890ab")
		}
		if prod || i > 0 {
			b.PublicAccessBlock = &PublicAccessBlock{BlockPublicACLs: true, IgnorePublicACLs: true, BlockPublicPolicy: true, RestrictPublicBuckets: !(ai == 1 && i == 1)}
		}
		if base == "assets" && !prod {
			b.ACL = "public-read"
			b.ACLGrants = []ACLGrant{{Grantee: "AllUsers", Permission: "READ"}}
		}
		switch {
		case prod:
			b.Policy = &PolicyDocument{Version: "2012-10-17", Statement: []PolicyStatement{{Sid: "DenyInsecureTransport", Effect: "Deny",
				Principal: []byte(`"*"`), Action: StringList{"s3:*"}, Resource: StringList{"arn:aws:s3:::" + name, "arn:aws:s3:::" + name + "/*"},
				Condition: []byte(`{"Bool":{"aws:SecureTransport":"false"}}`)}}}
		case i == 1:
			b.Policy = &PolicyDocument{Version: "2012-10-17", Statement: []PolicyStatement{{Sid: "PublicRead", Effect: "Allow",
				Principal: []byte(`{"AWS":"*"}`), Action: StringList{"s3:GetObject"}, Resource: StringList{"arn:aws:s3:::" + name + "/*"}}}}
		}
		if prod || i == 0 {
			b.Versioning = "Enabled"
			b.MFADelete = prod && i == 0
		}
		if prod || base == "logs" {
			b.LoggingTargetBucket = fmt.Sprintf("alpenglow-%s-logs-%s", g.env, region)
		}
		if i%2 == 0 {
			b.LifecycleRuleCount = 1 + i
		}
		extra := []string{}
		if base == "données-clients" || base == "exports" {
			extra = []string{"data-classification", "confidential"}
		}
		g.add(TypeS3Bucket, region, "arn:aws:s3:::"+name, name, g.tags(base, g.chance(0.7), extra...), b)
	}

	// Account services: trail, Config, GuardDuty, KMS.
	if ri == 0 && ai != 1 {
		t := &CloudTrail{Name: g.env + "-trail", HomeRegion: region, IsMultiRegionTrail: prod, IncludeGlobalServiceEvents: true, IsLogging: ptr(true),
			LogFileValidationEnabled: prod, S3BucketName: "alpenglow-" + g.env + "-cloudtrail", S3DataEvents: ptr(prod)}
		if prod {
			t.KMSKeyID = arnOf("kms", region, g.acct, "key/5678efgh-56ef-78gh-90ij-5678901234ef")
			t.CloudWatchLogsLogGroupARN = arnOf("logs", region, g.acct, "log-group:cloudtrail:*")
		}
		g.add(TypeCloudTrail, region, arnOf("cloudtrail", region, g.acct, "trail/"+t.Name), t.Name, g.tags(t.Name, true), t)
	}
	if ai == 1 && ri == 1 {
		t := &CloudTrail{Name: "staging-legacy-trail", HomeRegion: region, S3BucketName: "alpenglow-staging-legacy-trail",
			IsLogging: ptr(false), S3DataEvents: ptr(false)}
		g.add(TypeCloudTrail, region, arnOf("cloudtrail", region, g.acct, "trail/"+t.Name), t.Name, g.tags(t.Name, false), t)
	}
	if !(ai == 1 && ri == 2) {
		r := &ConfigRecorder{Name: "default", Recording: boolPtr(!(ai == 2 && ri == 1)), AllSupported: prod || ri != 1, IncludeGlobalResourceTypes: ri == 0}
		g.add(TypeConfigRecorder, region, arnOf("config", region, g.acct, "config-recorder/default"), "default", nil, r)
	}
	if prod || ri == 0 {
		d := g.id("gd")[3:]
		g.add(TypeGuardDutyDetector, region, arnOf("guardduty", region, g.acct, "detector/"+d), d, nil, &GuardDutyDetector{DetectorID: d, Enabled: true})
	}
	for i := 0; i < 1+ri%2; i++ {
		k := &KMSKey{KeyID: fmt.Sprintf("%08x-12ab-34cd-56ef-%012x", g.rnd.Uint32(), g.rnd.Uint64()>>16), KeyManager: "CUSTOMER",
			KeySpec: "SYMMETRIC_DEFAULT", KeyUsage: "ENCRYPT_DECRYPT", KeyState: "Enabled", KeyRotationEnabled: ptr(prod || i == 1)}
		if ai == 2 && i == 0 {
			k.KeyState, k.DeletionDate = "PendingDeletion", estateNow.Add(5*24*3600e9)
		}
		g.add(TypeKMSKey, region, arnOf("kms", region, g.acct, "key/"+k.KeyID), "alias/"+g.env+"-data", g.tags("kms", true), k)
	}

	// Serverless and data services.
	for i, fn := range []string{"thumbnailer", "invoice-mailer", "webhook-relay"}[:1+(ai+ri)%3] {
		f := &LambdaFunction{FunctionName: g.env + "-" + fn, Runtime: []string{"python3.12", "nodejs14.x", "go1.x", "nodejs20.x"}[(ai+ri+i)%4],
			MemorySize: 256 << (i % 3), Timeout: 30, Architectures: []string{[]string{"arm64", "x86_64"}[(ai+i)%2]}, TracingMode: "Active"}
		if fn == "webhook-relay" {
			f.FunctionURLAuthType = []string{"AWS_IAM", "NONE"}[ai%2]
		}
		if i == 0 {
			f.DeadLetterTargetARN = arnOf("sqs", region, g.acct, g.env+"-jobs-dlq")
		}
		g.add(TypeLambdaFunction, region, arnOf("lambda", region, g.acct, "function:"+f.FunctionName), f.FunctionName, g.tags(f.FunctionName, g.chance(0.7)), f)
	}
	if asgName != "" {
		a := &AutoScalingGroup{Name: asgName, AvailabilityZones: []string{az(0), az(1), az(2)}[:1+2*(ai%2^1)], MinSize: 2, MaxSize: 6, DesiredCapacity: 2,
			HealthCheckType: []string{"ELB", "EC2"}[ai%2], TargetGroupARNs: []string{arnOf("elasticloadbalancing", region, g.acct, "targetgroup/"+g.env+"-web/73e2d6bc24d8a067")}}
		g.add(TypeAutoScalingGroup, region, arnOf("autoscaling", region, g.acct, "autoScalingGroup:6d9c1b2a:autoScalingGroupName/"+asgName), asgName, g.tags(asgName, true), a)
	}
	if ri != 2 {
		c := &ElastiCacheCluster{ClusterID: g.env + "-sessions-00" + fmt.Sprint(ri+1), Engine: "redis", EngineVersion: "7.1", NodeType: []string{"cache.r7g.large", "cache.m3.medium"}[ai%2],
			NumCacheNodes: 1 + ri, AZMode: []string{"single-az", "cross-az"}[ri], AtRestEncryptionEnabled: boolPtr(prod), TransitEncryptionEnabled: boolPtr(prod || ri == 1), SnapshotRetentionLimit: []int{5, 0}[ai%2]}
		g.add(TypeElastiCacheCluster, region, arnOf("elasticache", region, g.acct, "cluster:"+c.ClusterID), c.ClusterID, g.tags(c.ClusterID, true), c)
	}
	tbl := &DynamoDBTable{Name: g.env + "-events-" + region, BillingMode: []string{"PAY_PER_REQUEST", "PROVISIONED"}[(ai+ri)%2], PointInTimeRecovery: ptr(prod),
		DeletionProtectionEnabled: ptr(prod && ri == 0), ItemCount: ptr(int64(1000 * (1 + g.rnd.IntN(900)))), AutoScalingEnabled: ptr(false)}
	if tbl.BillingMode == "PROVISIONED" {
		tbl.ReadCapacity, tbl.WriteCapacity, tbl.AutoScalingEnabled = 200, 50, ptr(ai == 0)
	}
	g.add(TypeDynamoDBTable, region, arnOf("dynamodb", region, g.acct, "table/"+tbl.Name), tbl.Name, g.tags(tbl.Name, g.chance(0.8)), tbl)
	if ri != 2 {
		fs := g.id("fs")[:11]
		e := &EFSFileSystem{FileSystemID: fs, Encrypted: prod || ri == 0, PerformanceMode: "generalPurpose", BackupPolicy: []string{"ENABLED", "DISABLED"}[(ai+ri)%2]}
		if prod {
			e.TransitionToIA = "AFTER_30_DAYS"
		}
		g.add(TypeEFSFileSystem, region, arnOf("elasticfilesystem", region, g.acct, "file-system/"+fs), g.env+"-shared-home", g.tags("shared-home", true), e)
	}
	for i, q := range []string{"jobs", "jobs-dlq"} {
		s := &SQSQueue{Name: g.env + "-" + q, URL: "https://sqs." + region + ".amazonaws.com/" + g.acct + "/" + g.env + "-" + q,
			SQSManagedSSEEnabled: ptr(prod || i == 1), MessageRetentionSeconds: 345600}
		if i == 0 && prod {
			s.DeadLetterTargetARN = arnOf("sqs", region, g.acct, g.env+"-jobs-dlq")
		}
		g.add(TypeSQSQueue, region, arnOf("sqs", region, g.acct, s.Name), s.Name, g.tags(s.Name, true), s)
	}
	topic := &SNSTopic{Name: g.env + "-alerts"}
	if prod {
		topic.KMSMasterKeyID = "alias/aws/sns"
	}
	g.add(TypeSNSTopic, region, arnOf("sns", region, g.acct, topic.Name), topic.Name, g.tags(topic.Name, true), topic)
	for i, lg := range []string{"/aws/lambda/" + g.env + "-thumbnailer", "/ecs/" + g.env + "/api"} {
		l := &LogGroup{Name: lg, RetentionInDays: []int{30, 0}[(ai+i)%2], StoredBytes: int64(1 << (20 + g.rnd.IntN(12)))}
		if prod && i == 0 {
			l.KMSKeyID = arnOf("kms", region, g.acct, "key/logs")
		}
		g.add(TypeLogGroup, region, arnOf("logs", region, g.acct, "log-group:"+lg), lg, g.tags(lg, g.chance(0.5)), l)
	}
}
