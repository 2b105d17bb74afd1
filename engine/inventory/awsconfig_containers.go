package inventory

import (
	"encoding/json"
	"strings"
)

// AWS Config mappers of the container services. Shapes:
// awslabs/aws-config-resource-schema, config/properties/resource-types/
// AWS::ECS::TaskDefinition, AWS::ECS::Cluster, AWS::ECS::Service and
// AWS::EKS::Cluster .properties.json (CloudFormation-style PascalCase keys;
// encoding/json matches them whatever their case).

// ecsContainerDef is one container definition as ECS's API, AWS Config
// (PascalCase) and Terraform's container_definitions (camelCase JSON) write
// it: encoding/json matches the keys whatever their case.
type ecsContainerDef struct {
	Name        string   `json:"Name"`
	Privileged  flexBool `json:"Privileged"`
	User        string   `json:"User"`
	ReadonlyFS  flexBool `json:"ReadonlyRootFilesystem"`
	Environment []struct {
		Name string `json:"Name"`
	} `json:"Environment"`
	LogConfiguration *struct {
		LogDriver string `json:"LogDriver"`
	} `json:"LogConfiguration"`
	LinuxParameters *struct {
		Capabilities *struct {
			Add []string `json:"Add"`
		} `json:"Capabilities"`
	} `json:"LinuxParameters"`
}

func (x ecsContainerDef) canonical() ECSContainer {
	k := ECSContainer{Name: x.Name, Privileged: bool(x.Privileged), User: x.User, ReadonlyRootFilesystem: bool(x.ReadonlyFS)}
	if x.LogConfiguration != nil {
		k.LogDriver = x.LogConfiguration.LogDriver
	}
	for _, e := range x.Environment {
		k.EnvironmentNames = append(k.EnvironmentNames, e.Name)
	}
	if x.LinuxParameters != nil && x.LinuxParameters.Capabilities != nil {
		k.CapabilitiesAdded = x.LinuxParameters.Capabilities.Add
	}
	return k
}

func cfgECSTaskDefinition(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Family      string            `json:"Family"`
		Status      string            `json:"Status"`
		NetworkMode string            `json:"NetworkMode"`
		PidMode     string            `json:"PidMode"`
		IpcMode     string            `json:"IpcMode"`
		Containers  []ecsContainerDef `json:"ContainerDefinitions"`
		Volumes     []struct {
			Name string `json:"Name"`
			Host *struct {
				SourcePath string `json:"SourcePath"`
			} `json:"Host"`
			EFS *struct {
				TransitEncryption string `json:"TransitEncryption"`
			} `json:"EfsVolumeConfiguration"`
		} `json:"Volumes"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	td := ECSTaskDefinition{Family: c.Family, Status: c.Status, NetworkMode: c.NetworkMode, PIDMode: c.PidMode, IPCMode: c.IpcMode,
		Containers: []ECSContainer{}}
	if td.Family == "" {
		td.Family = ci.ResourceName
	}
	for _, x := range c.Containers {
		td.Containers = append(td.Containers, x.canonical())
	}
	for _, v := range c.Volumes {
		vol := ECSVolume{Name: v.Name}
		if v.Host != nil {
			vol.HostSourcePath = v.Host.SourcePath
		}
		if v.EFS != nil {
			vol.EFSTransitEncryption = v.EFS.TransitEncryption
			if vol.EFSTransitEncryption == "" {
				vol.EFSTransitEncryption = "DISABLED" // ECS's documented default
			}
		}
		td.Volumes = append(td.Volumes, vol)
	}
	// A container definition leaves LogConfiguration and
	// ReadonlyRootFilesystem out when they are not set: in a partial item
	// (an Advanced Query that selected other keys) their absence is
	// unknown, and so are the containers.
	return TypeECSTaskDefinition, recordedOnly(ci, conf, td, "containers=?ContainerDefinitions.?LogConfiguration",
		"containers=?ContainerDefinitions.?ReadonlyRootFilesystem"), nil
}

func cfgECSCluster(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		ClusterName string `json:"ClusterName"`
		Settings    []struct {
			Name  string `json:"Name"`
			Value string `json:"Value"`
		} `json:"ClusterSettings"`
		Configuration *struct {
			Exec *struct {
				Logging string `json:"Logging"`
				Log     *struct {
					CWGroup     string    `json:"CloudWatchLogGroupName"`
					CWEncrypted *flexBool `json:"CloudWatchEncryptionEnabled"`
					S3Bucket    string    `json:"S3BucketName"`
					S3Encrypted *flexBool `json:"S3EncryptionEnabled"`
				} `json:"LogConfiguration"`
			} `json:"ExecuteCommandConfiguration"`
		} `json:"Configuration"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	cl := ECSCluster{ClusterName: c.ClusterName}
	if cl.ClusterName == "" {
		cl.ClusterName = ci.ResourceName
	}
	for _, s := range c.Settings {
		if s.Name == "containerInsights" {
			cl.ContainerInsights = s.Value
		}
	}
	if c.Configuration != nil && c.Configuration.Exec != nil {
		x := c.Configuration.Exec
		cl.ExecuteCommandLogging = x.Logging
		if x.Logging == "OVERRIDE" && x.Log != nil && (x.Log.CWGroup != "" || x.Log.S3Bucket != "") {
			enc := true
			if x.Log.CWGroup != "" {
				enc = enc && x.Log.CWEncrypted != nil && bool(*x.Log.CWEncrypted)
			}
			if x.Log.S3Bucket != "" {
				enc = enc && x.Log.S3Encrypted != nil && bool(*x.Log.S3Encrypted)
			}
			cl.ExecuteCommandLogEncrypted = &enc
		}
	}
	return TypeECSCluster, cl, nil
}

func cfgECSService(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		ServiceName string  `json:"ServiceName"`
		LaunchType  string  `json:"LaunchType"`
		Platform    string  `json:"PlatformVersion"`
		Scheduling  string  `json:"SchedulingStrategy"`
		Desired     flexInt `json:"DesiredCount"`
		Network     *struct {
			VPC *struct {
				AssignPublicIP string `json:"AssignPublicIp"`
			} `json:"AwsvpcConfiguration"`
		} `json:"NetworkConfiguration"`
		Deployment *struct {
			Breaker *struct {
				Enable flexBool `json:"Enable"`
			} `json:"DeploymentCircuitBreaker"`
		} `json:"DeploymentConfiguration"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	s := ECSService{ServiceName: c.ServiceName, LaunchType: c.LaunchType, PlatformVersion: c.Platform,
		SchedulingStrategy: c.Scheduling, DesiredCount: int(c.Desired)}
	if s.ServiceName == "" {
		s.ServiceName = ci.ResourceName
	}
	if c.Network != nil && c.Network.VPC != nil {
		s.AssignPublicIP = c.Network.VPC.AssignPublicIP
	}
	if c.Deployment != nil {
		// A recorded deployment configuration without a circuit breaker
		// has it off (ECS's default).
		s.CircuitBreaker = boolPtr(c.Deployment.Breaker != nil && bool(c.Deployment.Breaker.Enable))
	}
	return TypeECSService, recordedOnly(ci, conf, s, "scheduling_strategy=SchedulingStrategy", "desired_count=DesiredCount",
		"circuit_breaker=?DeploymentConfiguration.?DeploymentCircuitBreaker"), nil
}

func cfgEKSCluster(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Name    string `json:"Name"`
		Version string `json:"Version"`
		VPC     *struct {
			Public  *flexBool `json:"EndpointPublicAccess"`
			Private *flexBool `json:"EndpointPrivateAccess"`
			CIDRs   []string  `json:"PublicAccessCidrs"`
		} `json:"ResourcesVpcConfig"`
		Encryption []struct {
			Provider *struct {
				KeyARN string `json:"KeyArn"`
			} `json:"Provider"`
			Resources []string `json:"Resources"`
		} `json:"EncryptionConfig"`
		Logging *struct {
			// An object {EnabledTypes:[{Type}]} in the recorded
			// (CloudFormation) shape, an array [{types, enabled}] in
			// describe-cluster's.
			Cluster json.RawMessage `json:"ClusterLogging"`
		} `json:"Logging"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	k := EKSCluster{Name: c.Name, Version: c.Version}
	if k.Name == "" {
		k.Name = ci.ResourceName
	}
	if c.VPC != nil {
		k.EndpointPublicAccess, k.EndpointPrivateAccess = c.VPC.Public.ptr(), c.VPC.Private.ptr()
		k.PublicAccessCIDRs = c.VPC.CIDRs
	}
	for _, e := range c.Encryption {
		for _, r := range e.Resources {
			if strings.EqualFold(r, "secrets") && e.Provider != nil {
				k.SecretsKMSKeyARN = e.Provider.KeyARN
			}
		}
	}
	if c.Logging != nil {
		types, err := eksLogTypes(c.Logging.Cluster)
		if err != nil {
			return "", nil, err
		}
		k.LoggingEnabled = types
	}
	return TypeEKSCluster, recordedOnly(ci, conf, k, "secrets_kms_key_arn=?EncryptionConfig.Provider", "secrets_kms_key_arn=?EncryptionConfig.Resources", "logging_enabled=Logging.ClusterLogging", "endpoint_public_access=ResourcesVpcConfig", "endpoint_private_access=ResourcesVpcConfig"), nil
}

// eksLogTypes reads the enabled control plane log types from either shape
// of an EKS cluster's clusterLogging.
func eksLogTypes(raw json.RawMessage) ([]string, error) {
	raw = jsonObject(raw)
	if raw == nil {
		return nil, nil
	}
	var out []string
	if raw[0] == '[' {
		var api []struct {
			Types   []string `json:"types"`
			Enabled flexBool `json:"enabled"`
		}
		if err := json.Unmarshal(raw, &api); err != nil {
			return nil, err
		}
		for _, x := range api {
			if x.Enabled {
				out = append(out, x.Types...)
			}
		}
		return out, nil
	}
	var cfn struct {
		Enabled []struct {
			Type string `json:"Type"`
		} `json:"EnabledTypes"`
	}
	if err := json.Unmarshal(raw, &cfn); err != nil {
		return nil, err
	}
	for _, t := range cfn.Enabled {
		out = append(out, t.Type)
	}
	return out, nil
}
