package inventory

// Search and streaming types of the data family (see types_data.go).
const (
	TypeOpenSearchDomain = "aws_opensearch_domain"
	TypeKinesisStream    = "aws_kinesis_stream"
	TypeFirehoseStream   = "aws_kinesis_firehose_delivery_stream"
	TypeMSKCluster       = "aws_msk_cluster"
)

// OpenSearchDomain is the canonical attributes of aws_opensearch_domain,
// from AWS::OpenSearch::Domain and the older AWS::Elasticsearch::Domain.
type OpenSearchDomain struct {
	DomainName           string `json:"domain_name"`
	EngineVersion        string `json:"engine_version,omitempty"` // OpenSearch_2.11, Elasticsearch_7.10 or 7.10
	EncryptionAtRest     bool   `json:"encryption_at_rest_enabled"`
	NodeToNodeEncryption bool   `json:"node_to_node_encryption_enabled"`
	EnforceHTTPS         bool   `json:"enforce_https"`
	// TLSSecurityPolicy is Policy-Min-TLS-1-0-2019-07,
	// Policy-Min-TLS-1-2-2019-07 or Policy-Min-TLS-1-2-PFS-2023-10; "" when
	// not recorded.
	TLSSecurityPolicy string `json:"tls_security_policy,omitempty"`
	// InVPC is true when the domain has VPC subnets (no public endpoint).
	InVPC                    bool   `json:"in_vpc"`
	AuditLogsEnabled         bool   `json:"audit_logs_enabled"`
	ErrorLogsEnabled         bool   `json:"error_logs_enabled"`
	FineGrainedAccessControl bool   `json:"fine_grained_access_control"`
	InstanceType             string `json:"instance_type"`
	InstanceCount            int    `json:"instance_count"`
	DedicatedMasterEnabled   bool   `json:"dedicated_master_enabled"`
	ZoneAwarenessEnabled     bool   `json:"zone_awareness_enabled"`
}

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
	SSEKeyType string `json:"sse_key_type,omitempty"`
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
