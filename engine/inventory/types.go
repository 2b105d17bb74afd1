package inventory

import "time"

// ProviderAWS is the provider name of every resource the AWS importers produce.
const ProviderAWS = "aws"

// RegionGlobal is the region of resources that live in no region (IAM,
// CloudFront, the account summary).
const RegionGlobal = "global"

// Canonical resource types. Names follow Terraform's AWS provider where it
// has an equivalent resource.
const (
	TypeS3Bucket               = "aws_s3_bucket"
	TypeSecurityGroup          = "aws_security_group"
	TypeInstance               = "aws_instance"
	TypeEBSVolume              = "aws_ebs_volume"
	TypeEBSSnapshot            = "aws_ebs_snapshot"
	TypeDBInstance             = "aws_db_instance"
	TypeEIP                    = "aws_eip"
	TypeLB                     = "aws_lb"
	TypeCloudTrail             = "aws_cloudtrail"
	TypeKMSKey                 = "aws_kms_key"
	TypeIAMAccount             = "aws_iam_account"
	TypeIAMUser                = "aws_iam_user"
	TypeIAMAccessKey           = "aws_iam_access_key"
	TypeVPC                    = "aws_vpc"
	TypeLambdaFunction         = "aws_lambda_function"
	TypeAutoScalingGroup       = "aws_autoscaling_group"
	TypeElastiCacheCluster     = "aws_elasticache_cluster"
	TypeDynamoDBTable          = "aws_dynamodb_table"
	TypeEFSFileSystem          = "aws_efs_file_system"
	TypeCloudFrontDistribution = "aws_cloudfront_distribution"
	TypeSQSQueue               = "aws_sqs_queue"
	TypeSNSTopic               = "aws_sns_topic"
	TypeConfigRecorder         = "aws_config_recorder"
	TypeGuardDutyDetector      = "aws_guardduty_detector"
	TypeLogGroup               = "aws_cloudwatch_log_group"
	// TypeS3AccountPublicAccessBlock is an account's S3 public access
	// block, which protects every bucket of the account.
	TypeS3AccountPublicAccessBlock = "aws_s3_account_public_access_block"
	TypeDBSnapshot                 = "aws_db_snapshot"
)

// S3Bucket is the canonical attributes of aws_s3_bucket.
type S3Bucket struct {
	Bucket string `json:"bucket"`
	// ACL is the canned ACL when one is known: private, public-read,
	// public-read-write, authenticated-read, …
	ACL       string     `json:"acl,omitempty"`
	ACLGrants []ACLGrant `json:"acl_grants,omitempty"`
	// PublicAccessBlock is null when the bucket has no bucket-level block.
	PublicAccessBlock *PublicAccessBlock `json:"public_access_block"`
	// Policy is the bucket policy document (an object), null without one.
	Policy *PolicyDocument `json:"policy"`
	// SSEAlgorithm is the default encryption: "" (none), AES256, aws:kms, aws:kms:dsse.
	SSEAlgorithm        string    `json:"sse_algorithm"`
	KMSMasterKeyID      string    `json:"kms_master_key_id,omitempty"`
	Versioning          string    `json:"versioning"` // Enabled, Suspended or "" (never enabled)
	MFADelete           bool      `json:"mfa_delete"`
	LoggingTargetBucket string    `json:"logging_target_bucket"`
	LifecycleRuleCount  int       `json:"lifecycle_rule_count"`
	ObjectLockEnabled   bool      `json:"object_lock_enabled"`
	CreationDate        time.Time `json:"creation_date,omitzero"`
}

// ACLGrant is one grant of an S3 ACL. Grantee is AllUsers,
// AuthenticatedUsers, LogDelivery or a canonical user id.
type ACLGrant struct {
	Grantee    string `json:"grantee"`
	Permission string `json:"permission"`
}

// PublicAccessBlock is S3's four public access block switches.
type PublicAccessBlock struct {
	BlockPublicACLs       bool `json:"block_public_acls"`
	IgnorePublicACLs      bool `json:"ignore_public_acls"`
	BlockPublicPolicy     bool `json:"block_public_policy"`
	RestrictPublicBuckets bool `json:"restrict_public_buckets"`
}

// SecurityGroup is the canonical attributes of aws_security_group.
type SecurityGroup struct {
	GroupID     string   `json:"group_id"`
	GroupName   string   `json:"group_name"`
	Description string   `json:"description,omitempty"`
	VPCID       string   `json:"vpc_id"`
	Ingress     []SGRule `json:"ingress"`
	Egress      []SGRule `json:"egress"`
}

// SGRule is one security group rule. Protocol "-1" means all protocols and
// ports; FromPort and ToPort are inclusive.
type SGRule struct {
	Protocol       string   `json:"protocol"`
	FromPort       int      `json:"from_port"`
	ToPort         int      `json:"to_port"`
	CIDRBlocks     []string `json:"cidr_blocks,omitempty"`
	IPv6CIDRBlocks []string `json:"ipv6_cidr_blocks,omitempty"`
	SecurityGroups []string `json:"security_groups,omitempty"`
}

// Instance is the canonical attributes of aws_instance.
type Instance struct {
	InstanceID         string    `json:"instance_id"`
	InstanceType       string    `json:"instance_type"`
	State              string    `json:"state"` // pending, running, stopping, stopped, terminated
	StateChangedAt     time.Time `json:"state_changed_at,omitzero"`
	LaunchTime         time.Time `json:"launch_time,omitzero"`
	AvailabilityZone   string    `json:"availability_zone"`
	VPCID              string    `json:"vpc_id,omitempty"`
	SubnetID           string    `json:"subnet_id,omitempty"`
	PublicIP           string    `json:"public_ip,omitempty"`
	ImageID            string    `json:"image_id,omitempty"`
	IAMInstanceProfile string    `json:"iam_instance_profile,omitempty"`
	// MetadataHTTPTokens is "required" when IMDSv2 is enforced, "optional"
	// when not, "" when the source does not say.
	MetadataHTTPTokens string   `json:"metadata_http_tokens"`
	VolumeIDs          []string `json:"volume_ids,omitempty"`
	SecurityGroupIDs   []string `json:"security_group_ids,omitempty"`
	// AutoScalingGroup is the group that launched the instance, "" if none.
	AutoScalingGroup string `json:"autoscaling_group,omitempty"`
	Monitoring       bool   `json:"monitoring"`
}

// EBSVolume is the canonical attributes of aws_ebs_volume.
type EBSVolume struct {
	VolumeID         string    `json:"volume_id"`
	Size             int       `json:"size"` // GiB
	Type             string    `json:"type"` // gp2, gp3, io1, io2, st1, sc1, standard
	IOPS             int       `json:"iops,omitempty"`
	Encrypted        bool      `json:"encrypted"`
	KMSKeyID         string    `json:"kms_key_id,omitempty"`
	State            string    `json:"state"` // creating, available, in-use, …
	AvailabilityZone string    `json:"availability_zone"`
	AttachedTo       []string  `json:"attached_to,omitempty"` // instance ids
	CreateTime       time.Time `json:"create_time,omitzero"`
}

// EBSSnapshot is the canonical attributes of aws_ebs_snapshot.
type EBSSnapshot struct {
	SnapshotID string    `json:"snapshot_id"`
	VolumeID   string    `json:"volume_id,omitempty"`
	VolumeSize int       `json:"volume_size"`
	Encrypted  bool      `json:"encrypted"`
	StartTime  time.Time `json:"start_time,omitzero"`
	// Public is true when anyone may create volumes from the snapshot;
	// null when the source does not say (a Terraform state: the
	// permission is a separate aws_snapshot_create_volume_permission).
	Public      *bool  `json:"public"`
	Description string `json:"description,omitempty"`
}

// DBInstance is the canonical attributes of aws_db_instance.
type DBInstance struct {
	Identifier              string `json:"identifier"`
	Engine                  string `json:"engine"`
	EngineVersion           string `json:"engine_version,omitempty"`
	InstanceClass           string `json:"instance_class"`
	AllocatedStorage        int    `json:"allocated_storage"`
	StorageType             string `json:"storage_type"`
	StorageEncrypted        bool   `json:"storage_encrypted"`
	KMSKeyID                string `json:"kms_key_id,omitempty"`
	PubliclyAccessible      bool   `json:"publicly_accessible"`
	MultiAZ                 bool   `json:"multi_az"`
	BackupRetentionPeriod   int    `json:"backup_retention_period"`
	DeletionProtection      bool   `json:"deletion_protection"`
	AutoMinorVersionUpgrade bool   `json:"auto_minor_version_upgrade"`
	AvailabilityZone        string `json:"availability_zone,omitempty"`
	Status                  string `json:"status,omitempty"`
}

// EIP is the canonical attributes of aws_eip.
type EIP struct {
	AllocationID       string `json:"allocation_id"`
	PublicIP           string `json:"public_ip"`
	AssociationID      string `json:"association_id,omitempty"`
	InstanceID         string `json:"instance_id,omitempty"`
	NetworkInterfaceID string `json:"network_interface_id,omitempty"`
}

// LoadBalancer is the canonical attributes of aws_lb.
type LoadBalancer struct {
	Name              string   `json:"name"`
	Type              string   `json:"load_balancer_type"` // application, network, gateway, classic
	Scheme            string   `json:"scheme"`             // internet-facing or internal
	DNSName           string   `json:"dns_name,omitempty"`
	AvailabilityZones []string `json:"availability_zones"`
	// AccessLogsEnabled and DeletionProtection are null when the source
	// does not record the load balancer's attributes.
	AccessLogsEnabled  *bool `json:"access_logs_enabled"`
	DeletionProtection *bool `json:"deletion_protection"`
	// TargetCount is the number of registered targets; null when the source
	// does not say.
	TargetCount *int `json:"target_count"`
	// DropInvalidHeaderFields (application load balancers) and
	// CrossZoneEnabled (network and gateway load balancers) are null when
	// the source does not record the load balancer's attributes;
	// DesyncMitigationMode (monitor, defensive, strictest) is "" then.
	DropInvalidHeaderFields *bool  `json:"drop_invalid_header_fields"`
	DesyncMitigationMode    string `json:"desync_mitigation_mode,omitempty"`
	CrossZoneEnabled        *bool  `json:"cross_zone_enabled"`
}

// CloudTrail is the canonical attributes of aws_cloudtrail.
type CloudTrail struct {
	Name                       string `json:"name"`
	HomeRegion                 string `json:"home_region"`
	IsMultiRegionTrail         bool   `json:"is_multi_region_trail"`
	IncludeGlobalServiceEvents bool   `json:"include_global_service_events"`
	// IsLogging is null when the source does not record the trail's
	// status (AWS Config records it only as a TrailStatus supplement).
	IsLogging                 *bool  `json:"is_logging"`
	LogFileValidationEnabled  bool   `json:"log_file_validation_enabled"`
	KMSKeyID                  string `json:"kms_key_id,omitempty"`
	S3BucketName              string `json:"s3_bucket_name"`
	CloudWatchLogsLogGroupARN string `json:"cloud_watch_logs_log_group_arn,omitempty"`
	// S3DataEvents is true when the trail records S3 object-level events;
	// null when the source does not record the event selectors.
	S3DataEvents *bool `json:"s3_data_events"`
}

// KMSKey is the canonical attributes of aws_kms_key.
type KMSKey struct {
	KeyID              string    `json:"key_id"`
	KeyManager         string    `json:"key_manager"` // AWS or CUSTOMER
	KeySpec            string    `json:"key_spec"`    // SYMMETRIC_DEFAULT, RSA_2048, …
	KeyUsage           string    `json:"key_usage"`
	KeyState           string    `json:"key_state"`            // Enabled, Disabled, PendingDeletion, …
	KeyRotationEnabled *bool     `json:"key_rotation_enabled"` // null: not recorded
	DeletionDate       time.Time `json:"deletion_date,omitzero"`
	// Policy is the key policy; null when the source does not say.
	Policy *PolicyDocument `json:"policy,omitempty"`
}

// IAMAccount is the canonical attributes of aws_iam_account: the account's
// root user and password policy (from the IAM credential report and
// account summary). Its native id is arn:aws:iam::<account>:root.
type IAMAccount struct {
	AccountID             string          `json:"account_id"`
	RootAccessKeysPresent bool            `json:"root_access_keys_present"`
	RootMFAEnabled        bool            `json:"root_mfa_enabled"`
	RootHardwareMFA       bool            `json:"root_hardware_mfa"`
	RootLastUsed          time.Time       `json:"root_last_used,omitzero"`
	PasswordPolicy        *PasswordPolicy `json:"password_policy"` // null: none set
	// Synthesized marks a stand-in for an account no source described (see
	// rules.AccountViolation); rules about the root user skip it.
	Synthesized bool `json:"synthesized,omitempty"`
}

// PasswordPolicy is an account's IAM password policy.
type PasswordPolicy struct {
	MinimumPasswordLength      int  `json:"minimum_password_length"`
	PasswordReusePrevention    int  `json:"password_reuse_prevention"`
	RequireSymbols             bool `json:"require_symbols"`
	RequireNumbers             bool `json:"require_numbers"`
	RequireUppercaseCharacters bool `json:"require_uppercase_characters"`
	RequireLowercaseCharacters bool `json:"require_lowercase_characters"`
	MaxPasswordAge             int  `json:"max_password_age"`
}

// IAMUser is the canonical attributes of aws_iam_user.
type IAMUser struct {
	UserName   string    `json:"user_name"`
	UserID     string    `json:"user_id"`
	CreateDate time.Time `json:"create_date,omitzero"`
	// PasswordEnabled (console access) and MFAActive come from the IAM
	// credential report; null when the source has none (AWS Config does
	// not record them).
	PasswordEnabled    *bool     `json:"password_enabled"`
	PasswordLastUsed   time.Time `json:"password_last_used,omitzero"`
	MFAActive          *bool     `json:"mfa_active"`
	AttachedPolicyARNs []string  `json:"attached_policy_arns,omitempty"`
	InlinePolicyNames  []string  `json:"inline_policy_names,omitempty"`
	Groups             []string  `json:"groups,omitempty"`
	// InlinePolicies holds the inline policies' documents when the source
	// has them (AWS Config's userPolicyList does).
	InlinePolicies []NamedPolicy `json:"inline_policies,omitempty"`
}

// IAMAccessKey is the canonical attributes of aws_iam_access_key.
type IAMAccessKey struct {
	AccessKeyID  string    `json:"access_key_id"`
	UserName     string    `json:"user_name"`
	Status       string    `json:"status"` // Active or Inactive
	CreateDate   time.Time `json:"create_date,omitzero"`
	LastUsedDate time.Time `json:"last_used_date,omitzero"`
}

// VPC is the canonical attributes of aws_vpc.
type VPC struct {
	VPCID     string `json:"vpc_id"`
	CIDRBlock string `json:"cidr_block"`
	IsDefault bool   `json:"is_default"`
	// FlowLogsEnabled is true when an active flow log watches the VPC,
	// false when the input records flow logs for the VPC's account (AWS
	// Config) or state (Terraform) but none for this VPC, and null when it
	// records no flow log at all: then nothing says whether they are off.
	FlowLogsEnabled *bool `json:"flow_logs_enabled"`
}
