package inventory

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/fourd-dev/fourd/engine/rules/iampolicy"
)

// LambdaFunction is the canonical attributes of aws_lambda_function.
type LambdaFunction struct {
	FunctionName  string   `json:"function_name"`
	Runtime       string   `json:"runtime"`
	MemorySize    int      `json:"memory_size"`
	Timeout       int      `json:"timeout"`
	Architectures []string `json:"architectures"`
	// FunctionURLAuthType is NONE or AWS_IAM for a function with a URL, ""
	// without one.
	FunctionURLAuthType string `json:"function_url_auth_type,omitempty"`
	DeadLetterTargetARN string `json:"dead_letter_target_arn,omitempty"`
	TracingMode         string `json:"tracing_mode,omitempty"`
	// Policy is the function's resource policy; null when the source does
	// not say.
	Policy *PolicyDocument `json:"policy,omitempty"`
	// VPCSubnetIDs are the subnets of a function connected to a VPC; empty
	// for a function outside any VPC.
	VPCSubnetIDs []string `json:"vpc_subnet_ids,omitempty"`
}

// AutoScalingGroup is the canonical attributes of aws_autoscaling_group.
type AutoScalingGroup struct {
	Name              string   `json:"name"`
	AvailabilityZones []string `json:"availability_zones"`
	MinSize           int      `json:"min_size"`
	MaxSize           int      `json:"max_size"`
	DesiredCapacity   int      `json:"desired_capacity"`
	HealthCheckType   string   `json:"health_check_type"` // EC2 or ELB
	TargetGroupARNs   []string `json:"target_group_arns,omitempty"`
	LoadBalancers     []string `json:"load_balancers,omitempty"`
	// LaunchConfiguration names the launch configuration the group
	// launches from, "" when it uses a launch template.
	LaunchConfiguration string `json:"launch_configuration,omitempty"`
}

// ElastiCacheCluster is the canonical attributes of aws_elasticache_cluster.
type ElastiCacheCluster struct {
	ClusterID                string `json:"cluster_id"`
	Engine                   string `json:"engine"` // redis, memcached, valkey
	EngineVersion            string `json:"engine_version,omitempty"`
	NodeType                 string `json:"node_type"`
	NumCacheNodes            int    `json:"num_cache_nodes"`
	AZMode                   string `json:"az_mode"` // single-az or cross-az
	AtRestEncryptionEnabled  bool   `json:"at_rest_encryption_enabled"`
	TransitEncryptionEnabled bool   `json:"transit_encryption_enabled"`
	SnapshotRetentionLimit   int    `json:"snapshot_retention_limit"`
}

// DynamoDBTable is the canonical attributes of aws_dynamodb_table.
type DynamoDBTable struct {
	Name          string `json:"name"`
	BillingMode   string `json:"billing_mode"` // PROVISIONED or PAY_PER_REQUEST
	ReadCapacity  int    `json:"read_capacity"`
	WriteCapacity int    `json:"write_capacity"`
	// AutoScalingEnabled and PointInTimeRecovery are null when the source
	// does not record them (AWS Config keeps them as supplements).
	AutoScalingEnabled  *bool `json:"autoscaling_enabled"`
	PointInTimeRecovery *bool `json:"point_in_time_recovery"`
	// DeletionProtectionEnabled is null when the source does not record it
	// (AWS Config items and Terraform states from before DynamoDB had it).
	DeletionProtectionEnabled *bool `json:"deletion_protection_enabled"`
	// SSEKMSKeyARN is the customer key encrypting the table, "" when AWS owns it.
	SSEKMSKeyARN string `json:"sse_kms_key_arn,omitempty"`
	// ItemCount is the table's item count as DynamoDB last reported it
	// (about every six hours); null when the source does not say.
	ItemCount *int64 `json:"item_count,omitempty"`
}

// EFSFileSystem is the canonical attributes of aws_efs_file_system.
type EFSFileSystem struct {
	FileSystemID    string `json:"file_system_id"`
	Encrypted       bool   `json:"encrypted"`
	KMSKeyID        string `json:"kms_key_id,omitempty"`
	PerformanceMode string `json:"performance_mode"`
	BackupPolicy    string `json:"backup_policy"` // ENABLED, DISABLED, or "" when the source does not say
	// TransitionToIA is the lifecycle policy, e.g. AFTER_30_DAYS; "" for none.
	TransitionToIA string `json:"transition_to_ia,omitempty"`
}

// CloudFrontDistribution is the canonical attributes of
// aws_cloudfront_distribution (default cache behavior and viewer certificate).
type CloudFrontDistribution struct {
	DistributionID         string `json:"distribution_id"`
	DomainName             string `json:"domain_name"`
	Enabled                bool   `json:"enabled"`
	ViewerProtocolPolicy   string `json:"viewer_protocol_policy"` // allow-all, redirect-to-https, https-only
	MinimumProtocolVersion string `json:"minimum_protocol_version"`
	LoggingBucket          string `json:"logging_bucket,omitempty"`
	WebACLID               string `json:"web_acl_id,omitempty"`
	PriceClass             string `json:"price_class,omitempty"`
	// Origins are the distribution's origins; null when the source does
	// not record them.
	Origins []CloudFrontOrigin `json:"origins"`
}

// CloudFrontOrigin is one origin of a distribution: an S3 bucket (S3 true,
// reached through OriginAccess, the origin access control or identity, ""
// for none) or a custom origin (ProtocolPolicy http-only, match-viewer or
// https-only, and the SSL protocols it accepts).
type CloudFrontOrigin struct {
	ID             string   `json:"id"`
	S3             bool     `json:"s3"`
	OriginAccess   string   `json:"origin_access,omitempty"`
	ProtocolPolicy string   `json:"protocol_policy,omitempty"`
	SSLProtocols   []string `json:"ssl_protocols,omitempty"`
}

// SQSQueue is the canonical attributes of aws_sqs_queue.
type SQSQueue struct {
	Name string `json:"name"`
	URL  string `json:"url,omitempty"`
	// SQSManagedSSEEnabled is null when the source does not record it
	// (AWS Config items and Terraform states from before SSE-SQS).
	SQSManagedSSEEnabled    *bool  `json:"sqs_managed_sse_enabled"`
	KMSMasterKeyID          string `json:"kms_master_key_id,omitempty"`
	DeadLetterTargetARN     string `json:"dead_letter_target_arn,omitempty"`
	MessageRetentionSeconds int    `json:"message_retention_seconds"`
	// Policy is the queue policy; null without one.
	Policy *PolicyDocument `json:"policy,omitempty"`
}

// SNSTopic is the canonical attributes of aws_sns_topic.
type SNSTopic struct {
	Name           string `json:"name"`
	KMSMasterKeyID string `json:"kms_master_key_id,omitempty"`
	// Policy is the topic's access policy; null when the source does not say.
	Policy *PolicyDocument `json:"policy,omitempty"`
}

// ConfigRecorder is the canonical attributes of aws_config_recorder.
type ConfigRecorder struct {
	Name                       string `json:"name"`
	Recording                  bool   `json:"recording"`
	AllSupported               bool   `json:"all_supported"`
	IncludeGlobalResourceTypes bool   `json:"include_global_resource_types"`
}

// GuardDutyDetector is the canonical attributes of aws_guardduty_detector.
type GuardDutyDetector struct {
	DetectorID string `json:"detector_id"`
	Enabled    bool   `json:"enabled"`
	// S3Protection (S3 data events) and EKSAuditLogs (EKS audit log
	// monitoring) are the detector's protection plans; null when the
	// source records neither DataSources nor Features.
	S3Protection *bool `json:"s3_protection"`
	EKSAuditLogs *bool `json:"eks_audit_logs"`
}

// LogGroup is the canonical attributes of aws_cloudwatch_log_group.
type LogGroup struct {
	Name            string `json:"name"`
	RetentionInDays int    `json:"retention_in_days"` // 0: never expire
	KMSKeyID        string `json:"kms_key_id,omitempty"`
	StoredBytes     int64  `json:"stored_bytes,omitempty"`
}

// PolicyDocument is an IAM policy document (identity, trust or resource
// policy) kept in AWS's own JSON form; engine/rules/iampolicy evaluates it.
type PolicyDocument struct {
	Version   string            `json:"Version,omitempty"`
	ID        string            `json:"Id,omitempty"`
	Statement []PolicyStatement `json:"Statement"`
}

// PolicyStatement is one statement of a policy document. Principal,
// NotPrincipal and Condition keep their raw JSON ("*" or an object such as
// {"AWS": [...]}).
type PolicyStatement struct {
	Sid          string          `json:"Sid,omitempty"`
	Effect       string          `json:"Effect"`
	Principal    json.RawMessage `json:"Principal,omitempty"`
	NotPrincipal json.RawMessage `json:"NotPrincipal,omitempty"`
	Action       StringList      `json:"Action,omitempty"`
	NotAction    StringList      `json:"NotAction,omitempty"`
	Resource     StringList      `json:"Resource,omitempty"`
	NotResource  StringList      `json:"NotResource,omitempty"`
	Condition    json.RawMessage `json:"Condition,omitempty"`
}

// NamedPolicy is an inline policy of an IAM user, group or role.
type NamedPolicy struct {
	Name     string          `json:"name"`
	Document *PolicyDocument `json:"document"`
}

// StringList is a JSON string or array of strings, as IAM policies write
// actions and resources.
type StringList []string

// UnmarshalJSON accepts a string or an array of strings.
func (l *StringList) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*l = StringList{s}
		return nil
	}
	var ss []string
	if err := json.Unmarshal(b, &ss); err != nil {
		return err
	}
	*l = ss
	return nil
}

// UnmarshalJSON accepts a policy document as an object or in the
// encodings Terraform and AWS Config store it in: a JSON string holding
// the object (once or twice encoded) or URL-encoded JSON (AWS Config's IAM
// documents).
func (d *PolicyDocument) UnmarshalJSON(b []byte) error {
	b, err := iampolicy.Unwrap(b)
	if err != nil {
		return err
	}
	if b == nil {
		*d = PolicyDocument{}
		return nil
	}
	type plain PolicyDocument
	var p plain
	// A single statement may be an object instead of an array.
	var probe struct {
		Statement json.RawMessage `json:"Statement"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		return err
	}
	if st := bytes.TrimSpace(probe.Statement); len(st) > 0 && st[0] == '{' {
		var one struct {
			Version   string          `json:"Version"`
			ID        string          `json:"Id"`
			Statement PolicyStatement `json:"Statement"`
		}
		if err := json.Unmarshal(b, &one); err != nil {
			return err
		}
		*d = PolicyDocument{Version: one.Version, ID: one.ID, Statement: []PolicyStatement{one.Statement}}
		return nil
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*d = PolicyDocument(p)
	return nil
}

// S3AccountPublicAccessBlock is the canonical attributes of
// aws_s3_account_public_access_block: the four switches, which apply to
// every bucket of the account on top of the bucket's own block.
type S3AccountPublicAccessBlock struct {
	AccountID string `json:"account_id,omitempty"`
	PublicAccessBlock
}

// DBSnapshot is the canonical attributes of aws_db_snapshot (an RDS DB
// instance snapshot).
type DBSnapshot struct {
	Identifier           string    `json:"db_snapshot_identifier"`
	DBInstanceIdentifier string    `json:"db_instance_identifier,omitempty"`
	Engine               string    `json:"engine,omitempty"`
	SnapshotType         string    `json:"snapshot_type,omitempty"` // manual, automated, …
	Encrypted            bool      `json:"encrypted"`
	KMSKeyID             string    `json:"kms_key_id,omitempty"`
	CreateTime           time.Time `json:"snapshot_create_time,omitzero"`
	// Public is true when the snapshot's restore attribute holds "all";
	// null when the source did not record its attributes.
	Public *bool `json:"public"`
}
