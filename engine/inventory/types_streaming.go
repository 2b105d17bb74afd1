package inventory

// Canonical types of queues, topics and streams: SQS queues, SNS topics,
// Kinesis data streams, Firehose delivery streams and MSK clusters.
// Attributes come from AWS Config's recorded properties (see
// types_databases.go).
const (
	TypeKinesisStream  = "aws_kinesis_stream"
	TypeFirehoseStream = "aws_kinesis_firehose_delivery_stream"
	TypeMSKCluster     = "aws_msk_cluster"
	TypeSQSQueue       = "aws_sqs_queue"
	TypeSNSTopic       = "aws_sns_topic"
)

// KinesisStream is the canonical attributes of aws_kinesis_stream.
type KinesisStream struct {
	Name                 string `json:"name"`
	RetentionPeriodHours int    `json:"retention_period_hours"`
	EncryptionType       string `json:"encryption_type"` // KMS or NONE ("" when none)
}

// FirehoseStream is the canonical attributes of
// aws_kinesis_firehose_delivery_stream.
type FirehoseStream struct {
	Name string `json:"name"`
	// SourceType is DirectPut or KinesisStreamAsSource (whose records are
	// encrypted by the source stream).
	SourceType string `json:"delivery_stream_type"`
	// SSEKeyType is AWS_OWNED_CMK or CUSTOMER_MANAGED_CMK when server-side
	// encryption is on, "" when off.
	SSEKeyType string `json:"sse_key_type"`
	// ErrorLoggingEnabled is whether the destination logs delivery errors
	// to CloudWatch Logs; null when the item has no destination.
	ErrorLoggingEnabled *bool `json:"error_logging_enabled"`
}

// MSKCluster is the canonical attributes of aws_msk_cluster.
type MSKCluster struct {
	ClusterName string `json:"cluster_name"`
	// ClientBrokerEncryption is TLS, TLS_PLAINTEXT or PLAINTEXT; "" when not
	// recorded.
	ClientBrokerEncryption string `json:"client_broker_encryption"`
	// InClusterEncryption is null when not recorded.
	InClusterEncryption   *bool `json:"in_cluster_encryption"`
	UnauthenticatedAccess bool  `json:"unauthenticated_access"`
	PublicAccess          bool  `json:"public_access"`
	BrokerLogsEnabled     bool  `json:"broker_logs_enabled"`
}

// SQSQueue is the canonical attributes of aws_sqs_queue.
type SQSQueue struct {
	Name string `json:"name"`
	URL  string `json:"url,omitempty"`
	// SQSManagedSSEEnabled is null when the source does not record it
	// (AWS Config items and Terraform states from before SSE-SQS).
	SQSManagedSSEEnabled    *bool  `json:"sqs_managed_sse_enabled"`
	KMSMasterKeyID          string `json:"kms_master_key_id,omitempty"`
	DeadLetterTargetARN     string `json:"dead_letter_target_arn"`
	MessageRetentionSeconds int    `json:"message_retention_seconds"`
	// Policy is the queue policy; null without one.
	Policy *PolicyDocument `json:"policy,omitempty"`
}

// SNSTopic is the canonical attributes of aws_sns_topic.
type SNSTopic struct {
	Name           string `json:"name"`
	KMSMasterKeyID string `json:"kms_master_key_id"`
	// Policy is the topic's access policy; null when the source does not say.
	Policy *PolicyDocument `json:"policy,omitempty"`
}
