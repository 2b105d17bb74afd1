package inventory

// Canonical types of the container services (ECS, EKS). Property names
// follow AWS Config's recorded shapes (awslabs/aws-config-resource-schema,
// config/properties/resource-types/AWS::ECS::TaskDefinition, AWS::ECS::Cluster,
// AWS::ECS::Service and AWS::EKS::Cluster .properties.json).
const (
	TypeECSTaskDefinition = "aws_ecs_task_definition"
	TypeECSCluster        = "aws_ecs_cluster"
	TypeECSService        = "aws_ecs_service"
	TypeEKSCluster        = "aws_eks_cluster"
)

// ECSTaskDefinition is the canonical attributes of aws_ecs_task_definition.
type ECSTaskDefinition struct {
	Family string `json:"family"`
	// Status is ACTIVE, INACTIVE (deregistered) or DELETE_IN_PROGRESS.
	Status string `json:"status,omitempty"`
	// NetworkMode is awsvpc, bridge, host or none; "" when not set (bridge
	// on EC2).
	NetworkMode string `json:"network_mode,omitempty"`
	// PIDMode and IPCMode are "host" when the containers share the host's
	// process or IPC namespace.
	PIDMode    string         `json:"pid_mode,omitempty"`
	IPCMode    string         `json:"ipc_mode,omitempty"`
	Containers []ECSContainer `json:"containers"`
	Volumes    []ECSVolume    `json:"volumes,omitempty"`
}

// ECSContainer is one container definition of a task definition.
type ECSContainer struct {
	Name       string `json:"name"`
	Privileged bool   `json:"privileged"`
	// User is the user the container runs as; "" when the definition does
	// not set one (the image's own user, unknown here).
	User string `json:"user,omitempty"`
	// ReadonlyRootFilesystem is ECS's readonlyRootFilesystem (false, the
	// documented default, when not set).
	ReadonlyRootFilesystem bool `json:"readonly_root_filesystem"`
	// LogDriver is the log configuration's driver; "" without one.
	LogDriver string `json:"log_driver,omitempty"`
	// EnvironmentNames are the names of the plaintext environment
	// variables (values are not kept: they may be secrets).
	EnvironmentNames []string `json:"environment_names,omitempty"`
	// CapabilitiesAdded are the Linux capabilities added to Docker's
	// default set.
	CapabilitiesAdded []string `json:"capabilities_added,omitempty"`
}

// ECSVolume is one volume of a task definition.
type ECSVolume struct {
	Name string `json:"name"`
	// HostSourcePath is the host path of a bind mount; "" for other volumes.
	HostSourcePath string `json:"host_source_path,omitempty"`
	// EFSTransitEncryption is ENABLED or DISABLED for an EFS volume, ""
	// for other volumes.
	EFSTransitEncryption string `json:"efs_transit_encryption,omitempty"`
}

// ECSCluster is the canonical attributes of aws_ecs_cluster.
type ECSCluster struct {
	ClusterName string `json:"cluster_name"`
	// ContainerInsights is the cluster's containerInsights setting
	// (enabled, enhanced or disabled); "" when the cluster has none.
	ContainerInsights string `json:"container_insights,omitempty"`
	// ExecuteCommandLogging is NONE, DEFAULT or OVERRIDE; "" when the
	// cluster has no execute command configuration (DEFAULT).
	ExecuteCommandLogging string `json:"execute_command_logging,omitempty"`
	// ExecuteCommandLogEncrypted says, with OVERRIDE logging, whether
	// every configured destination (CloudWatch Logs, S3) is encrypted;
	// null otherwise.
	ExecuteCommandLogEncrypted *bool `json:"execute_command_log_encrypted"`
}

// ECSService is the canonical attributes of aws_ecs_service.
type ECSService struct {
	ServiceName string `json:"service_name"`
	// LaunchType is EC2, FARGATE or EXTERNAL; "" with a capacity provider
	// strategy.
	LaunchType string `json:"launch_type,omitempty"`
	// PlatformVersion is the Fargate platform version (LATEST, 1.4.0, …).
	PlatformVersion    string `json:"platform_version,omitempty"`
	SchedulingStrategy string `json:"scheduling_strategy"` // REPLICA or DAEMON
	DesiredCount       int    `json:"desired_count"`
	// AssignPublicIP is ENABLED or DISABLED for awsvpc tasks, "" otherwise.
	AssignPublicIP string `json:"assign_public_ip,omitempty"`
	// CircuitBreaker is the deployment circuit breaker's switch; null
	// when the source does not record the deployment configuration.
	CircuitBreaker *bool `json:"circuit_breaker"`
}

// EKSCluster is the canonical attributes of aws_eks_cluster.
type EKSCluster struct {
	Name    string `json:"name"`
	Version string `json:"version"` // Kubernetes minor version, e.g. 1.31
	// EndpointPublicAccess and EndpointPrivateAccess are the API server
	// endpoint's switches; null when the source does not record them.
	EndpointPublicAccess  *bool    `json:"endpoint_public_access"`
	EndpointPrivateAccess *bool    `json:"endpoint_private_access"`
	PublicAccessCIDRs     []string `json:"public_access_cidrs,omitempty"`
	// SecretsKMSKeyARN is the KMS key envelope-encrypting Kubernetes
	// secrets; "" when secrets encryption is off.
	SecretsKMSKeyARN string `json:"secrets_kms_key_arn"`
	// LoggingEnabled are the control plane log types sent to CloudWatch
	// Logs (api, audit, authenticator, controllerManager, scheduler).
	LoggingEnabled []string `json:"logging_enabled"`
}
