package inventory

// Canonical types of the build, workflow, monitoring and identity
// services. Property names follow AWS Config's recorded shapes
// (awslabs/aws-config-resource-schema, config/properties/resource-types/
// AWS::CodeBuild::Project, AWS::StepFunctions::StateMachine,
// AWS::CloudWatch::Alarm, AWS::Cognito::IdentityPool,
// AWS::Cognito::UserPoolClient, AWS::ACMPCA::CertificateAuthority and
// AWS::AccessAnalyzer::Analyzer .properties.json).
const (
	TypeCodeBuildProject       = "aws_codebuild_project"
	TypeSFNStateMachine        = "aws_sfn_state_machine"
	TypeCloudWatchAlarm        = "aws_cloudwatch_metric_alarm"
	TypeCognitoIdentityPool    = "aws_cognito_identity_pool"
	TypeCognitoUserPoolClient  = "aws_cognito_user_pool_client"
	TypeACMPCACertAuthority    = "aws_acmpca_certificate_authority"
	TypeAccessAnalyzerAnalyzer = "aws_accessanalyzer_analyzer"
)

// CodeBuildProject is the canonical attributes of aws_codebuild_project.
type CodeBuildProject struct {
	Name           string `json:"name"`
	PrivilegedMode bool   `json:"privileged_mode"`
	// PlaintextEnvironmentNames are the names of the build environment's
	// PLAINTEXT variables (values are not kept: they may be secrets).
	PlaintextEnvironmentNames []string `json:"plaintext_environment_names,omitempty"`
	// SourceURLCredentials is true when a source location URL embeds a
	// user name or token (https://user:token@host/…).
	SourceURLCredentials bool `json:"source_url_credentials"`
	// ArtifactsEncryptionDisabled is true when the primary or a secondary
	// S3 artifact has encryptionDisabled set.
	ArtifactsEncryptionDisabled bool `json:"artifacts_encryption_disabled"`
	// CloudWatchLogsStatus and S3LogsStatus are ENABLED or DISABLED; ""
	// when the source does not record the logs configuration.
	CloudWatchLogsStatus     string `json:"cloudwatch_logs_status"`
	S3LogsStatus             string `json:"s3_logs_status"`
	S3LogsEncryptionDisabled bool   `json:"s3_logs_encryption_disabled"`
}

// SFNStateMachine is the canonical attributes of aws_sfn_state_machine.
type SFNStateMachine struct {
	Name string `json:"name"`
	Type string `json:"type,omitempty"` // STANDARD or EXPRESS
	// LoggingLevel is ALL, ERROR, FATAL or OFF; "" when not recorded.
	LoggingLevel string `json:"logging_level,omitempty"`
	// TracingEnabled is X-Ray tracing; null when not recorded.
	TracingEnabled *bool `json:"tracing_enabled"`
}

// CloudWatchAlarm is the canonical attributes of
// aws_cloudwatch_metric_alarm.
type CloudWatchAlarm struct {
	AlarmName string `json:"alarm_name"`
	// ActionsEnabled is null when the source does not record it.
	ActionsEnabled *bool    `json:"actions_enabled"`
	AlarmActions   []string `json:"alarm_actions"`
}

// CognitoIdentityPool is the canonical attributes of
// aws_cognito_identity_pool.
type CognitoIdentityPool struct {
	Name                           string `json:"name"`
	AllowUnauthenticatedIdentities bool   `json:"allow_unauthenticated_identities"`
	AllowClassicFlow               bool   `json:"allow_classic_flow"`
}

// CognitoUserPoolClient is the canonical attributes of
// aws_cognito_user_pool_client.
type CognitoUserPoolClient struct {
	ClientName string `json:"client_name"`
	// PreventUserExistenceErrors is ENABLED or LEGACY; "" when not recorded.
	PreventUserExistenceErrors string `json:"prevent_user_existence_errors,omitempty"`
	// EnableTokenRevocation is null when not recorded.
	EnableTokenRevocation *bool    `json:"enable_token_revocation"`
	AllowedOAuthFlows     []string `json:"allowed_oauth_flows,omitempty"`
	// ExplicitAuthFlows are the client's authentication flows
	// (ALLOW_USER_SRP_AUTH, ALLOW_USER_PASSWORD_AUTH, …).
	ExplicitAuthFlows []string `json:"explicit_auth_flows,omitempty"`
}

// ACMPCACertificateAuthority is the canonical attributes of
// aws_acmpca_certificate_authority.
type ACMPCACertificateAuthority struct {
	CommonName string `json:"common_name,omitempty"`
	Type       string `json:"type"` // ROOT or SUBORDINATE
	// CRLEnabled and OCSPEnabled are the revocation switches; null when
	// the source does not record the revocation configuration.
	CRLEnabled  *bool `json:"crl_enabled"`
	OCSPEnabled *bool `json:"ocsp_enabled"`
}

// AccessAnalyzerAnalyzer is the canonical attributes of
// aws_accessanalyzer_analyzer.
type AccessAnalyzerAnalyzer struct {
	// Type is ACCOUNT, ORGANIZATION, or an unused-access type.
	Type string `json:"type"`
}
