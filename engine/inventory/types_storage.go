package inventory

import "time"

// Canonical types of the storage family: S3 buckets and the account's S3
// public access block, EBS volumes and snapshots, EFS file systems.
const (
	TypeS3Bucket      = "aws_s3_bucket"
	TypeEBSVolume     = "aws_ebs_volume"
	TypeEBSSnapshot   = "aws_ebs_snapshot"
	TypeEFSFileSystem = "aws_efs_file_system"
	// TypeS3AccountPublicAccessBlock is an account's S3 public access
	// block, which protects every bucket of the account.
	TypeS3AccountPublicAccessBlock = "aws_s3_account_public_access_block"
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

// EFSFileSystem is the canonical attributes of aws_efs_file_system.
type EFSFileSystem struct {
	FileSystemID    string `json:"file_system_id"`
	Encrypted       bool   `json:"encrypted"`
	KMSKeyID        string `json:"kms_key_id,omitempty"`
	PerformanceMode string `json:"performance_mode"`
	BackupPolicy    string `json:"backup_policy"` // ENABLED, DISABLED, or "" when the source does not say
	// TransitionToIA is the lifecycle policy, e.g. AFTER_30_DAYS; "" for none.
	TransitionToIA string `json:"transition_to_ia"`
}

// S3AccountPublicAccessBlock is the canonical attributes of
// aws_s3_account_public_access_block: the four switches, which apply to
// every bucket of the account on top of the bucket's own block.
type S3AccountPublicAccessBlock struct {
	AccountID string `json:"account_id,omitempty"`
	PublicAccessBlock
}
