package inventory

// Canonical types of the logging and detection services: CloudTrail trails,
// AWS Config configuration recorders, GuardDuty detectors and CloudWatch Logs
// log groups.
const (
	TypeCloudTrail        = "aws_cloudtrail"
	TypeConfigRecorder    = "aws_config_recorder"
	TypeGuardDutyDetector = "aws_guardduty_detector"
	TypeLogGroup          = "aws_cloudwatch_log_group"
)

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
	KMSKeyID                  string `json:"kms_key_id"`
	S3BucketName              string `json:"s3_bucket_name"`
	CloudWatchLogsLogGroupARN string `json:"cloud_watch_logs_log_group_arn"`
	// S3DataEvents is true when the trail records S3 object-level events;
	// null when the source does not record the event selectors.
	S3DataEvents *bool `json:"s3_data_events"`
}

// ConfigRecorder is the canonical attributes of aws_config_recorder.
type ConfigRecorder struct {
	Name string `json:"name"`
	// Recording is null when the source does not record the recorder's
	// status (a Terraform state without its
	// aws_config_configuration_recorder_status, a configuration item
	// without ConfigurationRecorderStatus).
	Recording                  *bool `json:"recording"`
	AllSupported               bool  `json:"all_supported"`
	IncludeGlobalResourceTypes bool  `json:"include_global_resource_types"`
	// DeliveredByConfig is true when AWS Config delivered this record
	// itself, as a whole configuration item (a snapshot, history,
	// batch-get or change notification item; not an Advanced Query's
	// selection, a Terraform state or an NDJSON line that does not say
	// so): the import comes from the recorder, so a type it records that
	// is missing from the import is missing in AWS (issue 29, aws-iam-020).
	DeliveredByConfig bool `json:"delivered_by_config,omitempty"`
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
	KMSKeyID        string `json:"kms_key_id"`
	StoredBytes     int64  `json:"stored_bytes,omitempty"`
}
