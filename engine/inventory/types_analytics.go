package inventory

// Canonical types of the search, analytics and ML services: OpenSearch
// domains, SageMaker notebook instances and endpoint configurations, Athena
// workgroups and Glue jobs. Attributes come from AWS Config's recorded
// properties (see types_databases.go).
const (
	TypeSageMakerNotebook       = "aws_sagemaker_notebook_instance"
	TypeSageMakerEndpointConfig = "aws_sagemaker_endpoint_configuration"
	TypeAthenaWorkgroup         = "aws_athena_workgroup"
	TypeGlueJob                 = "aws_glue_job"
	TypeOpenSearchDomain        = "aws_opensearch_domain"
)

// SageMakerNotebook is the canonical attributes of
// aws_sagemaker_notebook_instance.
type SageMakerNotebook struct {
	Name                 string `json:"name"`
	InstanceType         string `json:"instance_type"`
	DirectInternetAccess string `json:"direct_internet_access"` // Enabled or Disabled
	// RootAccess is Enabled or Disabled; "" when not recorded.
	RootAccess string `json:"root_access"`
	KMSKeyID   string `json:"kms_key_id"`
	SubnetID   string `json:"subnet_id"`
}

// SageMakerEndpointConfig is the canonical attributes of
// aws_sagemaker_endpoint_configuration.
type SageMakerEndpointConfig struct {
	Name     string             `json:"name"`
	KMSKeyID string             `json:"kms_key_id"`
	Variants []SageMakerVariant `json:"production_variants"`
}

// SageMakerVariant is one production variant of an endpoint
// configuration; Serverless variants have no instances.
type SageMakerVariant struct {
	VariantName          string `json:"variant_name"`
	InitialInstanceCount int    `json:"initial_instance_count"`
	Serverless           bool   `json:"serverless"`
}

// AthenaWorkgroup is the canonical attributes of aws_athena_workgroup.
type AthenaWorkgroup struct {
	Name  string `json:"name"`
	State string `json:"state"` // ENABLED or DISABLED
	// ResultEncryption is SSE_S3, SSE_KMS or CSE_KMS; "" when query
	// results are not encrypted.
	ResultEncryption           string `json:"result_encryption"`
	EnforceConfiguration       bool   `json:"enforce_workgroup_configuration"`
	BytesScannedCutoffPerQuery int64  `json:"bytes_scanned_cutoff_per_query"`
	PublishCloudWatchMetrics   bool   `json:"publish_cloudwatch_metrics_enabled"`
}

// GlueJob is the canonical attributes of aws_glue_job.
type GlueJob struct {
	Name                  string `json:"name"`
	GlueVersion           string `json:"glue_version,omitempty"` // "" when not recorded
	SecurityConfiguration string `json:"security_configuration"`
}

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
